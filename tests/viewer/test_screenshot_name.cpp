// Screenshot names from --screenshot-template (app/viewer/controls/screenshot_name.h).
#include <gtest/gtest.h>

#include <set>

#include "app/viewer/controls/screenshot_name.h"

namespace facet {
namespace {

std::tm fixed_time() {
  std::tm t{};
  t.tm_year = 2026 - 1900;
  t.tm_mon = 11;
  t.tm_mday = 1;
  t.tm_hour = 14;
  t.tm_min = 5;
  t.tm_sec = 9;
  return t;
}

TEST(ScreenshotName, TheDefaultTemplateIsTheDateAndTime) {
  EXPECT_EQ(expand_screenshot_template(kDefaultScreenshotTemplate, fixed_time(), -1), "facet-20261201-140509.png");
}

TEST(ScreenshotName, InAFrameSequencePercentDIsTheFrameNumber) {
  EXPECT_EQ(expand_screenshot_template("out/f%04d.png", fixed_time(), 7), "out/f0007.png");
  EXPECT_EQ(expand_screenshot_template("f%d-%Y.png", fixed_time(), 12), "f12-2026.png");
  EXPECT_EQ(expand_screenshot_template("100%%-%d.png", fixed_time(), 3), "100%-3.png");
}

TEST(ScreenshotName, TemplatesWithAFrameNumberAreRecognised) {
  EXPECT_TRUE(template_numbers_frames("a%04d.png"));
  EXPECT_TRUE(template_numbers_frames("a%d.png"));
  EXPECT_FALSE(template_numbers_frames("a-%H%M.png"));
  EXPECT_FALSE(template_numbers_frames("a%%d.png"));
}

TEST(ScreenshotName, AnExistingFileGetsACounter) {
  std::set<std::string> files = {"shot.png", "shot-1.png"};
  auto exists = [&](const std::string& p) { return files.count(p) > 0; };
  EXPECT_EQ(unused_path("shot.png", exists), "shot-2.png");
  EXPECT_EQ(unused_path("other.png", exists), "other.png");
}

}  // namespace
}  // namespace facet
