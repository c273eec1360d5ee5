// Cut-outs against OpenGL at 1 and 4 samples a pixel: a sphere with a checker of holes (its
// inside showing through them) drawn by the CPU renderer and by the GL reference, which cuts each
// sample at its own position (reference.frag kept_samples) as facet's raster does. Interior
// pixels (every sample of the 3x3 neighbourhood shows one triangle in ours, the nearest samples
// one triangle in GL's) agree within kAaColorTolerance; the rest, silhouettes and alpha edges,
// within the edge bounds of test_gl_antialias.cpp (aa_tolerance.h). At 4 samples our 1-sample
// frame must miss those bounds by far, so the comparison can tell a per-pixel cut from a
// per-sample one.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <vector>

#include "engine/render/cpu_renderer.h"
#include "engine/render/renderer.h"
#include "engine/scene/generate.h"
#include "kernels/frame/raster/raster.h"
#include "tests/gl/aa_tolerance.h"
#include "tests/gl/gl_test_env.h"
#include "tests/support/test_scenes.h"

namespace facet {
namespace {

constexpr size_t kMinOneSampleFlips = 10;  // as test_gl_antialias.cpp

// True when every sample of pixel (x, y) and of its 3x3 neighbourhood shows one triangle (or none).
bool samples_interior(const CpuRenderer& r, int w, int h, int samples, int x, int y) {
  const auto& vis = r.visibility();
  const size_t pixels = (size_t)w * h;
  const uint32_t tri = visible_triangle(vis[vis_slot(pixels, (size_t)y * w + x, 0)], 3);
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      const int nx = std::clamp(x + dx, 0, w - 1), ny = std::clamp(y + dy, 0, h - 1);
      for (int s = 0; s < samples; ++s)
        if (visible_triangle(vis[vis_slot(pixels, (size_t)ny * w + nx, s)], 3) != tri) return false;
    }
  return true;
}

class GlCutoutAa : public ::testing::TestWithParam<int> {};

TEST_P(GlCutoutAa, InteriorPixelsAgreeAndEdgesAndHolesStayWithinTheAntiAliasingBounds) {
  GL_TEST_SETUP();
  const int samples = GetParam(), w = 320, h = 240;
  Scene sphere = make_sphere(5000);
  test::add_checker_alpha_map(sphere, 16, 8);
  auto scene = std::make_shared<const Scene>(std::move(sphere));
  const Camera camera = test::look_at({1.6f, 1.1f, 2.2f}, {0, 0, 0}, 40.0f, 0.1f, 100.0f);
  RenderOptions settings;
  settings.samples = (uint8_t)samples;
  CpuRenderer cpu;
  cpu.set_scene(scene);
  std::vector<Rgba8> ours_one, ours, theirs;
  std::vector<uint32_t> ours_ids, theirs_ids;
  RenderOptions one = settings;
  one.samples = 1;
  cpu.render(camera, one, w, h);
  cpu.read_rgba(ours_one);
  cpu.render(camera, settings, w, h);
  cpu.read_rgba(ours);
  cpu.read_triangle_ids(ours_ids);
  const FrameParams fp = make_frame_params(camera, settings, frame_bounds(*scene), w, h);
  ASSERT_FALSE(fp.cull_backfaces) << "the inside shows through the holes";
  gl.set_scene(*scene);
  gl.render(fp);
  gl.read_triangle_ids(theirs_ids);
  gl.read_rgba(theirs);
  ASSERT_EQ(theirs.size(), ours.size());

  const test::AaComparison t =
      test::compare_aa_frames(ours, ours_one, theirs, ours_ids, theirs_ids, w, h,
                              [&](int x, int y) { return samples_interior(cpu, w, h, samples, x, y); });
  const size_t interior_px = t.interior_px, interior_over = t.interior_over, edge_px = t.edge_px,
               edge_over = t.edge_over, one_sample_over = t.one_sample_over;
  const double edge_mean = t.edge_mean();
  std::printf(
      "[ cutout   ] %d samples: %zu interior px (%zu over %d/255), %zu edge px: mean %.2f/255, %zu over "
      "%d/255 (1 sample: %zu)\n",
      samples, interior_px, interior_over, test::kAaColorTolerance, edge_px, edge_mean, edge_over,
      test::kAaColorTolerance, one_sample_over);
  EXPECT_GT(interior_px, 1000u);
  EXPECT_GT(edge_px, 1000u) << "holes add alpha edges to the silhouette's";
  EXPECT_EQ(interior_over, 0u) << "interior pixels differ";
  EXPECT_LE(edge_mean, test::kAaMaxEdgeMean);
  EXPECT_LE(edge_over, test::kAaMaxSampleFlipFraction * (double)edge_px);
  if (samples > 1) {
    EXPECT_GT(one_sample_over, kMinOneSampleFlips * std::max<size_t>(edge_over, 10)) << "the comparison cannot tell";
  }
}

INSTANTIATE_TEST_SUITE_P(Samples, GlCutoutAa, ::testing::Values(1, 4),
                         [](const ::testing::TestParamInfo<int>& i) { return "aa" + std::to_string(i.param); });

}  // namespace
}  // namespace facet
