// `facet render --ortho` and orthographic entries of a cameras file: an orthographic frame differs
// from the perspective one, equals the render of the camera it prints, and a cameras-file entry
// with "ortho_height" equals `facet render --ortho` of that camera; bad heights are refused.
#include <gtest/gtest.h>

#include <regex>

#include "tests/cli/cli_run.h"
#include "tests/support/scratch_dir.h"

namespace facet::test {
namespace {

const std::string kCommon = " --backend cpu --size 40x30";

std::vector<Rgba8> png(const std::string& path, int w = 40, int h = 30) { return read_png_of_size(path, w, h); }
bool same(const std::vector<Rgba8>& a, const std::vector<Rgba8>& b) { return same_pixels(a, b); }

std::vector<Rgba8> single(const std::string& options, const std::string& out) {
  CliResult r = run_facet("render " + quote(spot_model()) + " -o " + quote(out) + kCommon + " " + options);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  return png(out);
}

TEST(RenderOrtho, AnOrthographicFrameDiffersFromThePerspectiveOneAndFitKeepsTheModelInView) {
  ScratchDir dir;
  const std::vector<Rgba8> persp = single("", dir.path("p.png")), ortho = single("--ortho fit", dir.path("o.png"));
  EXPECT_FALSE(same(persp, ortho));
  // Both show the model over about the same share of the frame (the size at the target is kept).
  auto covered = [](const std::vector<Rgba8>& img) {
    size_t n = 0;
    for (const Rgba8& p : img) n += p.r != 40 || p.g != 42 || p.b != 48;
    return (double)n;
  };
  EXPECT_GT(covered(ortho), 100.0);
  EXPECT_NEAR(covered(ortho), covered(persp), 0.3 * covered(persp));
  EXPECT_FALSE(same(ortho, single("--ortho 0.5", dir.path("zoomed.png")))) << "the view height is used";
}

TEST(RenderOrtho, ATurntableFrameEqualsTheRenderOfTheOrthographicCameraItPrints) {
  ScratchDir dir;
  CliResult r = run_facet("render " + quote(spot_model()) + " -o " + quote(dir.path("t_%d.png")) + kCommon +
                          " --turntable 2 --ortho fit");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::smatch m;
  const std::regex line("frame 1: (--eye [^ ]+ --target [^ ]+ --up [^ ]+ --ortho [^ \n]+)");
  ASSERT_TRUE(std::regex_search(r.output, m, line)) << r.output;
  EXPECT_TRUE(same(png(dir.path("t_1.png")), single(m[1].str(), dir.path("single.png"))));
}

TEST(RenderOrtho, ACamerasFileEntryWithAViewHeightEqualsRenderWithOrtho) {
  ScratchDir dir;
  const std::string a = dir.path("a.png"), b = dir.path("b.png");
  const std::string file = dir.write("cams.json", R"([
    {"eye": [2.5, 1, 2], "target": [0, 0.3, 0], "ortho_height": 1.5, "output": ")" +
                                                      a + R"("},
    {"eye": [2.5, 1, 2], "target": [0, 0.3, 0], "output": ")" +
                                                      b + R"("}])");
  CliResult r = run_facet("render " + quote(spot_model()) + " --cameras " + quote(file) + kCommon);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(same(png(a), single("--eye 2.5,1,2 --target 0,0.3,0 --ortho 1.5", dir.path("s.png"))));
  EXPECT_FALSE(same(png(a), png(b))) << "the entry without ortho_height is perspective";
}

TEST(RenderOrtho, AnUnusableViewHeightIsRefused) {
  ScratchDir dir;
  CliResult r =
      run_facet("render " + quote(spot_model()) + " -o " + quote(dir.path("x.png")) + kCommon + " --ortho -2");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--ortho"), std::string::npos) << r.output;
  const std::string file = dir.write("bad.json", R"([{"eye": [1, 2, 3], "target": [0, 0, 0], "ortho_height": 0,
                                                     "output": "x.png"}])");
  r = run_facet("render " + quote(spot_model()) + " --cameras " + quote(file) + kCommon);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find(file + ": camera 0: \"ortho_height\": must be a positive"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace facet::test
