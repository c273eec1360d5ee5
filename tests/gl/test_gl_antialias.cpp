// OpenGL with 4x multisampling as the oracle of facet's 4-sample anti-aliasing: the same scene,
// camera and FrameParams (samples = 4) drawn by the CPU renderer and by the GL driver into a
// multisample framebuffer resolved with glBlitFramebuffer. Both use the same 4x pattern
// (kernels/frame/raster/samples.h: llvmpipe's is D3D's, and GlReference draws y down).
//
// Tolerance:
//  * Interior pixels (every pixel of the 3x3 neighbourhood shows one triangle in both images'
//    nearest-sample ids) are shaded once at the pixel centre by both: within kColorTolerance
//    (2/255), GL's interpolation being its own, as in test_gl_oracle.cpp.
//  * Edge pixels differ in two ways: shading (as above) and coverage, where GL and we break a tie
//    or round a snap differently and one sample of four changes sides. That moves a pixel by a
//    quarter of the contrast across the edge (up to 64/255 against the background), so it must
//    be rare. Measured with llvmpipe (the [ aa       ] lines the test prints): a mean difference
//    of 0.01-0.11/255 over 21 K-33 K edge pixels, 0-4 of them over 2/255 (under 0.02 %). The
//    bounds, a mean under kMaxEdgeMean (1/255) and under kMaxSampleFlipFraction (0.5 %) over
//    2/255, leave ten times that for another driver's rounding, and still fail by far an image
//    that is not anti-aliased the same way: our 1-sample frame against GL's 4x one must differ
//    on over kMinOneSampleFlips times as many edge pixels (checked, so the test can fail).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <vector>

#include "engine/render/renderer.h"
#include "engine/scene/generate.h"
#include "tests/gl/aa_tolerance.h"
#include "tests/gl/gl_test_env.h"
#include "tests/support/test_scenes.h"

namespace facet {
namespace {

using test::interior;
constexpr int kColorTolerance = test::kAaColorTolerance;
constexpr double kMaxEdgeMean = test::kAaMaxEdgeMean;
constexpr double kMaxSampleFlipFraction = test::kAaMaxSampleFlipFraction;
constexpr size_t kMinOneSampleFlips = 10;

struct AaCase {
  const char* name;
  uint64_t triangles;
  glm::vec3 eye;
  Shading shading;
};

class GlAntiAlias : public ::testing::TestWithParam<AaCase> {};

TEST_P(GlAntiAlias, InteriorPixelsAgreeAndEdgePixelsStayWithinASampleFlip) {
  GL_TEST_SETUP();
  const AaCase& c = GetParam();
  const int w = 320, h = 240;
  auto scene = std::make_shared<const Scene>(make_sphere(c.triangles));
  const Camera camera = test::look_at(c.eye, {0, 0, 0}, 40.0f, 0.1f, 100.0f);
  RenderOptions settings;
  settings.shading = c.shading;
  settings.samples = 4;
  std::unique_ptr<Renderer> cpu = make_renderer(Backend::Cpu);
  cpu->set_scene(scene);
  cpu->render(camera, settings, w, h);
  std::vector<uint32_t> ours_ids, theirs_ids;
  std::vector<Rgba8> ours, theirs, ours_one;
  cpu->read_triangle_ids(ours_ids);
  cpu->read_rgba(ours);
  RenderOptions one = settings;
  one.samples = 1;
  cpu->render(camera, one, w, h);
  cpu->read_rgba(ours_one);
  gl.set_scene(*scene);
  gl.render(make_frame_params(camera, settings, scene->bounds, w, h));
  gl.read_triangle_ids(theirs_ids);
  gl.read_rgba(theirs);
  ASSERT_EQ(theirs.size(), ours.size());

  const test::AaComparison t = test::compare_aa_frames(ours, ours_one, theirs, ours_ids, theirs_ids, w, h,
                                                       [&](int x, int y) { return interior(ours_ids, w, h, x, y); });
  const size_t interior_px = t.interior_px, interior_over = t.interior_over, edge_px = t.edge_px,
               edge_over = t.edge_over, one_sample_over = t.one_sample_over;
  const double edge_mean = t.edge_mean();
  std::printf(
      "[ aa       ] %s: %zu interior px (%zu over %d/255), %zu edge px: mean %.2f/255, %zu over %d/255 "
      "(1 sample: %zu)\n",
      c.name, interior_px, interior_over, kColorTolerance, edge_px, edge_mean, edge_over, kColorTolerance,
      one_sample_over);
  EXPECT_GT(interior_px, 1000u);
  EXPECT_GT(one_sample_over, kMinOneSampleFlips * std::max<size_t>(edge_over, 10)) << "the comparison cannot tell";
  EXPECT_GT(edge_px, 200u);
  EXPECT_EQ(interior_over, 0u) << "interior pixels differ";
  EXPECT_LE(edge_mean, kMaxEdgeMean);
  EXPECT_LE(edge_over, kMaxSampleFlipFraction * (double)edge_px);
}

INSTANTIATE_TEST_SUITE_P(Spheres, GlAntiAlias,
                         ::testing::Values(AaCase{"sphere_2k_normals", 2000, {0.3f, 0.4f, 3.2f}, Shading::Normals},
                                           AaCase{"sphere_5k_lit", 5000, {1.6f, 1.1f, 2.2f}, Shading::Lit}),
                         [](const ::testing::TestParamInfo<AaCase>& i) { return std::string(i.param.name); });

}  // namespace
}  // namespace facet
