// A fresh folder per test (named after the test and the process), removed afterwards, for tests
// that write the files they load. It lies in the system's temporary folder, or under `base`.
#pragma once
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace facet::test {

class ScratchDir {
 public:
  explicit ScratchDir(const std::filesystem::path& base = std::filesystem::temp_directory_path()) {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    m_path = base / ("facet_" + std::to_string(getpid()) + "_" + info->test_suite_name() + "_" + info->name());
    std::filesystem::remove_all(m_path);
    std::filesystem::create_directories(m_path);
  }
  ~ScratchDir() {
    std::error_code ec;
    // A test may have taken permissions away (unreadable-file checks): give them back first.
    std::filesystem::permissions(m_path, std::filesystem::perms::owner_all, std::filesystem::perm_options::add, ec);
    std::filesystem::remove_all(m_path, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  // Writes a file (folders created) and returns its path.
  std::string write(const std::string& rel, const std::string& bytes) const {
    std::filesystem::path p = m_path / rel;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << bytes;
    return p.string();
  }
  std::string path(const std::string& rel) const { return (m_path / rel).string(); }

 private:
  std::filesystem::path m_path;
};

}  // namespace facet::test
