// A whole file mapped read-only into memory (mmap): the OBJ parser reads the bytes where the page
// cache holds them, with no copy. Owns the mapping (RAII). It does not parse anything.
#pragma once
#include <cstddef>
#include <string>

namespace facet {

class MappedFile {
 public:
  // Throws LoadError("PATH: problem") when the path is missing, not a regular file, unreadable
  // or cannot be mapped. An empty file maps to size() == 0.
  explicit MappedFile(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const char* data() const { return m_data; }
  size_t size() const { return m_size; }

 private:
  const char* m_data = nullptr;
  size_t m_size = 0;
};

}  // namespace facet
