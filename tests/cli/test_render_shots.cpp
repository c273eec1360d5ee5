// `facet render --turntable N`, `--cameras FILE.json` and `--transparent`: every frame drawn from
// one load equals `facet render` of that frame's camera alone; bad cameras files are refused
// naming the file and the entry; transparent PNGs are clear exactly where nothing was drawn.
#include <gtest/gtest.h>

#include <regex>

#include "tests/cli/cli_run.h"
#include "tests/support/scratch_dir.h"

namespace facet::test {
namespace {

const std::string kCommon = " --backend cpu --size 40x30";

std::vector<Rgba8> png(const std::string& path, int w = 40, int h = 30) { return read_png_of_size(path, w, h); }
bool same(const std::vector<Rgba8>& a, const std::vector<Rgba8>& b) { return same_pixels(a, b); }

// Renders Spot alone to `out` with `options`; the PNG's pixels.
std::vector<Rgba8> single(const std::string& options, const std::string& out, int w = 40, int h = 30) {
  CliResult r = run_facet("render " + quote(spot_model()) + " -o " + quote(out) + " --backend cpu " + options);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  return png(out, w, h);
}

TEST(RenderTurntable, EachFrameEqualsASingleRenderWithItsCamera) {
  ScratchDir dir;
  CliResult r =
      run_facet("render " + quote(spot_model()) + " -o " + quote(dir.path("t_%02d.png")) + kCommon + " --turntable 3");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::regex line("frame ([0-9]+): (--eye [^ ]+ --target [^ ]+ --up [^ \n]+)");
  std::vector<std::string> cameras;
  for (std::sregex_iterator it(r.output.begin(), r.output.end(), line), end; it != end; ++it) {
    EXPECT_EQ(std::stoi((*it)[1]), (int)cameras.size());
    cameras.push_back((*it)[2]);
  }
  ASSERT_EQ(cameras.size(), 3u) << r.output;
  std::vector<std::vector<Rgba8>> frames;
  for (int k = 0; k < 3; ++k) {
    char name[16];
    std::snprintf(name, sizeof name, "t_%02d.png", k);
    frames.push_back(png(dir.path(name)));
    EXPECT_TRUE(same(frames[k], single("--size 40x30 " + cameras[k], dir.path("single.png")))) << "frame " << k;
  }
  EXPECT_TRUE(same(frames[0], single("--size 40x30", dir.path("plain.png")))) << "frame 0 is the usual camera";
  EXPECT_FALSE(same(frames[0], frames[1])) << "the camera did not move";
  EXPECT_FALSE(same(frames[1], frames[2])) << "the camera did not move";
}

TEST(RenderTurntable, AnOutputWithoutAFrameNumberIsAUsageError) {
  ScratchDir dir;
  CliResult r =
      run_facet("render " + quote(spot_model()) + " -o " + quote(dir.path("t.png")) + kCommon + " --turntable 3");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("%03d"), std::string::npos) << r.output;
}

TEST(RenderCameras, EachCameraOfTheFileEqualsASingleRender) {
  ScratchDir dir;
  std::string a = dir.path("a.png"), b = dir.path("b.png");
  std::string file = dir.write("cams.json", R"({"cameras": [
    {"eye": [2.5, 1, 2], "target": [0, 0.3, 0], "fov_y": 35, "output": ")" +
                                                a + R"("},
    {"eye": [-2, 0.5, 1.5], "target": [0, 0, 0], "up": [0, 1, 0.1], "focal_px": 30, "size": "32x20",
     "output": ")" + b + R"("}]})");
  CliResult r = run_facet("render " + quote(spot_model()) + " --cameras " + quote(file) + kCommon);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(same(png(a), single("--size 40x30 --eye 2.5,1,2 --target 0,0.3,0 --fov-y 35", dir.path("s.png"))));
  EXPECT_TRUE(same(png(b, 32, 20), single("--size 32x20 --eye -2,0.5,1.5 --target 0,0,0 --up 0,1,0.1 --focal-px 30",
                                          dir.path("s.png"), 32, 20)));
  EXPECT_FALSE(same(png(a), single("--size 40x30", dir.path("s.png")))) << "the file's camera was not used";
}

// Runs --cameras on `json`; expects exit 1 and a message naming the file and `expected`.
void expect_refused(const std::string& json, const std::string& expected) {
  ScratchDir dir;
  std::string file = dir.write("bad.json", json);
  CliResult r = run_facet("render " + quote(spot_model()) + " --cameras " + quote(file) + kCommon);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find(file + ": " + expected), std::string::npos) << r.output;
}

TEST(RenderCameras, ASyntaxErrorIsRefusedNamingTheFile) {
  expect_refused(R"([{"eye": [1, 2, 3], "target": [0, 0, 0] "output": "x.png"}])", "not valid JSON");
}

TEST(RenderCameras, AMissingFieldIsRefusedNamingTheEntry) {
  expect_refused(R"([{"eye": [1, 2, 3], "target": [0, 0, 0], "output": "x.png"},
                     {"eye": [1, 2, 3], "output": "y.png"}])",
                 "camera 1: missing \"target\"");
}

TEST(RenderCameras, AFieldOfTheWrongTypeIsRefusedNamingTheEntry) {
  expect_refused(R"([{"eye": "1,2,3", "target": [0, 0, 0], "output": "x.png"}])",
                 "camera 0: \"eye\": must be an array of three numbers");
  expect_refused(R"([{"eye": [1, 2, 3], "target": [0, 0, 0], "output": 7}])", "camera 0: \"output\"");
  expect_refused(R"([{"eye": [1, 2, 3], "target": [0, 0, 0], "fov_y": "wide", "output": "x.png"}])",
                 "camera 0: \"fov_y\": must be a number");
}

TEST(RenderCameras, AnUnusableCameraIsRefusedNamingTheEntry) {
  expect_refused(R"([{"eye": [1, 2, 3], "target": [0, 0, 0], "output": "x.png"},
                     {"eye": [0, 5, 0], "target": [0, 0, 0], "up": [0, 1, 0], "output": "y.png"}])",
                 "camera 1: \"up\": 0,1,0 is parallel to the viewing direction");
}

TEST(RenderTransparent, AlphaIsZeroExactlyWhereNoTriangleWasDrawn) {
  // A pixel no triangle covers is the only kind whose colour follows the background.
  ScratchDir dir;
  // One sample a pixel: a pixel is drawn or not (anti-aliased edges: test_cli_aa.cpp).
  std::vector<Rgba8> black = single("--aa 1 --size 40x30 --background 0,0,0", dir.path("k.png"));
  std::vector<Rgba8> white = single("--aa 1 --size 40x30 --background 255,255,255", dir.path("w.png"));
  std::vector<Rgba8> clear = single("--aa 1 --size 40x30 --transparent", dir.path("t.png"));
  ASSERT_EQ(black.size(), clear.size());
  ASSERT_EQ(white.size(), clear.size());
  size_t background = 0;
  for (size_t i = 0; i < clear.size(); ++i) {
    bool is_background = black[i].r != white[i].r || black[i].g != white[i].g || black[i].b != white[i].b;
    background += is_background;
    EXPECT_EQ(clear[i].a, is_background ? 0 : 255) << "pixel " << i;
  }
  EXPECT_GT(background, 0u);
  EXPECT_LT(background, clear.size());
}

}  // namespace
}  // namespace facet::test
