// `--aa N` on the command line: 1, 4 or 8 in render, view and bench (anything else a usage
// error); `render --aa 1` is the engine's one-sample frame, byte for byte; the default is 4
// samples; a transparent anti-aliased edge pixel carries its covered fraction as alpha.
#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>

#include "engine/load/load_model.h"
#include "engine/render/cpu_renderer.h"
#include "tests/cli/cli_run.h"
#include "tests/support/scratch_dir.h"

namespace facet::test {
namespace {

std::vector<Rgba8> render_png(const std::string& options, const std::string& out) {
  CliResult r =
      run_facet("render " + quote(spot_model()) + " -o " + quote(out) + " --backend cpu --size 48x36 " + options);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  int w = 0, h = 0;
  std::vector<Rgba8> rgba;
  if (read_png(out, w, h, rgba)) {
    EXPECT_EQ(w, 48);
    EXPECT_EQ(h, 36);
  }
  return rgba;
}

size_t differing(const std::vector<Rgba8>& a, const std::vector<Rgba8>& b) {
  size_t n = a.size() == b.size() ? 0 : a.size() + b.size();
  for (size_t i = 0; i < a.size() && i < b.size(); ++i)
    n += a[i].r != b[i].r || a[i].g != b[i].g || a[i].b != b[i].b || a[i].a != b[i].a;
  return n;
}

TEST(CliAa, SamplesOtherThanOneFourOrEightAreAUsageErrorInEveryCommand) {
  ScratchDir dir;
  CliResult r =
      run_facet("render " + quote(spot_model()) + " -o " + quote(dir.path("a.png")) + " --backend cpu --aa 2");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--aa"), std::string::npos) << r.output;
  EXPECT_EQ(run_facet("render " + quote(spot_model()) + " -o " + quote(dir.path("a.png")) + " --aa four").exit_code, 2);
  EXPECT_EQ(run_facet("view --aa 16").exit_code, 2);
  EXPECT_EQ(run_facet("bench --no-gl --backend cpu --sizes 8x8 --aa 3 sphere-2K").exit_code, 2);
}

TEST(CliAa, RenderWithOneSampleIsTheEnginesOneSampleFrame) {
  ScratchDir dir;
  const std::vector<Rgba8> cli = render_png("--aa 1 --eye 1.5,0.8,2 --target 0,0.2,0 --fov-y 40", dir.path("one.png"));
  auto scene = std::make_shared<Scene>(load_model(spot_model()));
  Camera cam = Camera::framing(scene->bounds, 48.0f / 36.0f, glm::radians(40.0f));
  cam.eye = {1.5f, 0.8f, 2.0f};
  cam.target = {0.0f, 0.2f, 0.0f};
  cam.fit_clip_planes(scene->bounds);
  CpuRenderer r;
  r.set_scene(scene);
  r.render(cam, RenderOptions{}, 48, 36);  // the engine's default: one sample a pixel
  std::vector<Rgba8> engine;
  r.read_rgba(engine);
  EXPECT_EQ(differing(cli, engine), 0u);
}

TEST(CliAa, RenderAntiAliasesWithFourSamplesByDefault) {
  ScratchDir dir;
  const std::vector<Rgba8> plain = render_png("", dir.path("default.png"));
  const std::vector<Rgba8> four = render_png("--aa 4", dir.path("four.png"));
  const std::vector<Rgba8> one = render_png("--aa 1", dir.path("one.png"));
  EXPECT_EQ(differing(plain, four), 0u);
  EXPECT_GT(differing(plain, one), 10u) << "the edges look like the one-sample frame";
}

TEST(CliAa, ATransparentEdgePixelHasItsCoveredFractionAsAlpha) {
  ScratchDir dir;
  const std::vector<Rgba8> clear = render_png("--transparent", dir.path("t.png"));
  const std::vector<Rgba8> one = render_png("--aa 1 --transparent", dir.path("t1.png"));
  ASSERT_EQ(clear.size(), one.size());
  size_t partial = 0, opaque = 0, empty = 0;
  for (const Rgba8& c : clear) {
    partial += c.a != 0 && c.a != 255;
    opaque += c.a == 255;
    empty += c.a == 0;
    if (c.a != 0 && c.a != 255) {  // a fraction of 4 samples: 1/4, 2/4 or 3/4
      EXPECT_TRUE(c.a == 64 || c.a == 128 || c.a == 191) << (int)c.a;
    }
  }
  EXPECT_GT(partial, 10u);
  EXPECT_GT(opaque, 100u);
  EXPECT_GT(empty, 100u);
}

TEST(CliAa, BenchMeasuresEachSampleCountOfTheListInTurn) {
  ScratchDir dir;
  const std::string json = dir.path("bench.json");
  CliResult r = run_facet("bench --backend cpu --no-gl --no-vertices --frames 1 --sizes 32x24 --aa 1,4 --json " +
                          quote(json) + " sphere-2K");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(json);
  const nlohmann::json js = nlohmann::json::parse(in, nullptr, false);
  ASSERT_FALSE(js.is_discarded());
  ASSERT_EQ(js["scenes"].size(), 2u);
  EXPECT_EQ(js["scenes"][0]["aa"], 1);
  EXPECT_EQ(js["scenes"][1]["aa"], 4);
  EXPECT_GT(js["scenes"][1]["frame_bytes"].get<double>(), js["scenes"][0]["frame_bytes"].get<double>())
      << "4 keys a pixel need more scratch";
}

}  // namespace
}  // namespace facet::test
