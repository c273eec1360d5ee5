// The viewer's remembered settings (app/viewer/viewer_config.h): first run, round trip, corrupt
// and unwritable files, and the Recent list's order, cap and duplicates.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "app/viewer/viewer_config.h"

namespace facet {
namespace {

namespace fs = std::filesystem;

// A fresh directory per test, removed afterwards.
class ConfigDir : public ::testing::Test {
 protected:
  void SetUp() override {
    m_dir = fs::temp_directory_path() / ("facet_config_" + std::to_string(getpid()) + "_" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(m_dir);
  }
  void TearDown() override {
    std::error_code ec;
    fs::permissions(m_dir, fs::perms::owner_all, ec);
    fs::remove_all(m_dir, ec);
  }
  std::string dir() const { return m_dir.string(); }
  fs::path m_dir;
};

TEST_F(ConfigDir, AFirstRunReadsTheDefaultsWithoutAnError) {
  ConfigRead r = read_viewer_config(dir());
  EXPECT_EQ(r.error, "");
  EXPECT_TRUE(r.config.recent.empty());
  EXPECT_FALSE(r.config.window.known);
  EXPECT_EQ(r.config.render.shading, RenderOptions{}.shading);
}

TEST_F(ConfigDir, WhatIsWrittenReadsBackTheSame) {
  ViewerConfig c;
  c.window = {true, 10, 20, 800, 600};
  c.recent = {"/a/b.obj", "/c/d.obj"};
  c.render.shading = Shading::Normals;
  c.render.filter = Filter::Nearest;
  c.render.cull_backfaces = true;
  c.render.wireframe = true;
  c.render.ground_grid = true;
  c.render.background = {1, 2, 3, 255};
  c.fov_y_deg = 30;
  c.auto_clip = false;
  c.resolution_scale = 0.5f;
  c.vsync = false;
  c.show_axes = false;
  c.orthographic = true;
  ASSERT_EQ(write_viewer_config(dir(), c), "");
  ConfigRead r = read_viewer_config(dir());
  ASSERT_EQ(r.error, "");
  EXPECT_TRUE(r.config.window.known);
  EXPECT_EQ(r.config.window.x, 10);
  EXPECT_EQ(r.config.window.height, 600);
  EXPECT_EQ(r.config.recent, c.recent);
  EXPECT_EQ(r.config.render.shading, Shading::Normals);
  EXPECT_EQ(r.config.render.filter, Filter::Nearest);
  EXPECT_TRUE(r.config.render.cull_backfaces);
  EXPECT_TRUE(r.config.render.wireframe);
  EXPECT_TRUE(r.config.render.ground_grid);
  EXPECT_EQ(r.config.render.background.b, 3);
  EXPECT_EQ(r.config.fov_y_deg, 30);
  EXPECT_FALSE(r.config.auto_clip);
  EXPECT_EQ(r.config.resolution_scale, 0.5f);
  EXPECT_FALSE(r.config.vsync);
  EXPECT_FALSE(r.config.show_axes);
  EXPECT_TRUE(r.config.orthographic);
  EXPECT_FALSE(fs::exists(m_dir / "viewer.json.tmp")) << "no temporary file is left behind";
}

TEST_F(ConfigDir, AntiAliasingIsFourSamplesUntilAnotherCountIsRemembered) {
  EXPECT_EQ(read_viewer_config(dir()).config.render.samples, 4) << "no file yet";
  ViewerConfig c;
  c.render.samples = 8;
  ASSERT_EQ(write_viewer_config(dir(), c), "");
  EXPECT_EQ(read_viewer_config(dir()).config.render.samples, 8);
  c.render.samples = 1;
  ASSERT_EQ(write_viewer_config(dir(), c), "");
  EXPECT_EQ(read_viewer_config(dir()).config.render.samples, 1);
  std::ofstream(m_dir / "viewer.json") << "{\"render\": {\"aa\": 3}}";
  EXPECT_EQ(read_viewer_config(dir()).config.render.samples, 4) << "a count facet cannot draw keeps the default";
}

TEST_F(ConfigDir, ACorruptFileIsReportedWithItsPathAndIgnored) {
  fs::create_directories(m_dir);
  std::ofstream(m_dir / "viewer.json") << "{\"recent\": [\"/x.obj\", ";
  ConfigRead r = read_viewer_config(dir());
  EXPECT_NE(r.error.find((m_dir / "viewer.json").string() + ": "), std::string::npos) << r.error;
  EXPECT_TRUE(r.config.recent.empty()) << "nothing of a corrupt file is used";
}

TEST_F(ConfigDir, AFieldOfTheWrongTypeIsReportedAndIgnored) {
  fs::create_directories(m_dir);
  std::ofstream(m_dir / "viewer.json") << "{\"vsync\": \"yes\"}";
  ConfigRead r = read_viewer_config(dir());
  EXPECT_NE(r.error, "");
  EXPECT_TRUE(r.config.vsync);
}

TEST_F(ConfigDir, AnUnwritableDirectoryIsReportedNotThrown) {
  if (geteuid() == 0) GTEST_SKIP() << "root writes anywhere: no unwritable directory to test";
  fs::create_directories(m_dir);
  fs::permissions(m_dir, fs::perms::owner_read | fs::perms::owner_exec);
  std::string error = write_viewer_config(dir(), ViewerConfig{});
  EXPECT_NE(error.find(dir()), std::string::npos) << error;
}

TEST_F(ConfigDir, ADirectoryThatIsAFileIsReported) {
  std::ofstream(m_dir.string()) << "not a directory";
  EXPECT_NE(write_viewer_config(dir(), ViewerConfig{}), "");
  fs::remove(m_dir);
}

TEST(RecentModels, TheLastOpenedComesFirstWithoutDuplicates) {
  std::vector<std::string> recent;
  add_recent_model(recent, "/m/a.obj");
  add_recent_model(recent, "/m/b.obj");
  add_recent_model(recent, "/m/a.obj");
  EXPECT_EQ(recent, (std::vector<std::string>{"/m/a.obj", "/m/b.obj"}));
}

TEST(RecentModels, TheListKeepsTheLastTen) {
  std::vector<std::string> recent;
  for (int i = 0; i < 15; ++i) add_recent_model(recent, "/m/" + std::to_string(i) + ".obj");
  ASSERT_EQ((int)recent.size(), kMaxRecentModels);
  EXPECT_EQ(recent.front(), "/m/14.obj");
  EXPECT_EQ(recent.back(), "/m/5.obj");
}

TEST(RecentModels, RelativePathsAreStoredAbsolute) {
  std::vector<std::string> recent;
  add_recent_model(recent, "some/model.obj");
  EXPECT_EQ(recent[0], (fs::current_path() / "some/model.obj").string());
}

TEST(ConfigDirectory, FollowsXdgConfigHome) {
  const char* old = std::getenv("XDG_CONFIG_HOME");
  std::string saved = old ? old : "";
  setenv("XDG_CONFIG_HOME", "/tmp/xdg_test", 1);
  EXPECT_EQ(viewer_config_directory(), "/tmp/xdg_test/facet");
  if (old)
    setenv("XDG_CONFIG_HOME", saved.c_str(), 1);
  else
    unsetenv("XDG_CONFIG_HOME");
}

}  // namespace
}  // namespace facet
