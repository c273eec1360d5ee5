// Alpha-tested cut-outs in the CPU raster (kernels/frame/raster/cutout_visit.h): the holes of an alpha map show
// the background at 1, 4 and 8 samples a pixel, an alpha edge inside a pixel leaves it partly
// covered at 4 samples, and a closed model with holes shows its inside (back faces drawn).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "engine/render/cpu_renderer.h"
#include "engine/scene/generate.h"
#include "tests/support/test_scenes.h"

using namespace facet;

namespace {

constexpr int kSide = 70;   // frame side: the quad fills it, a texel is 17.5 px wide,
                            //   so texel borders pass through pixel centres too
constexpr int kTexels = 4;  // the alpha map is kTexels x kTexels
const Rgba8 kBackground{10, 200, 30, 255};

// The quad [-1, 1]^2 with a checker alpha map: opaque where (column + row) is even, a hole
// (alpha 0) where odd (test::add_checker_alpha_map); red Kd.
Scene checker_quad(bool holes) {
  Scene q = make_quad();
  q.materials[0].kd = {0.8f, 0.1f, 0.1f};
  if (holes) test::add_checker_alpha_map(q, kTexels, kTexels);
  return q;
}

// Head-on, the quad exactly filling the frame.
Camera quad_camera() {
  const float d = 3.0f;
  return test::look_at({0, 0, d}, {0, 0, 0}, glm::degrees(2.0f * std::atan(1.0f / d)), 0.5f, 10.0f);
}

std::vector<Rgba8> render_cpu(const Scene& scene, const Camera& cam, RenderOptions settings, int w, int h) {
  CpuRenderer r;
  r.set_scene(std::make_shared<Scene>(scene));
  r.render(cam, settings, w, h);
  std::vector<Rgba8> rgba;
  r.read_rgba(rgba);
  return rgba;
}

RenderOptions quad_settings(int samples) {
  RenderOptions s;
  s.samples = (uint8_t)samples;
  s.filter = Filter::Nearest;  // texel by texel: the borders stay where the map puts them
  s.background = kBackground;
  return s;
}

// The texel a pixel lies wholly inside along one axis, or -1 when a texel border crosses it.
int texel_of(int p) {
  const int a = (int)std::floor((float)p * kTexels / kSide), b = (int)std::floor(((float)p + 0.999f) * kTexels / kSide);
  return a == b ? a : -1;
}

bool same(Rgba8 a, Rgba8 b) { return a.r == b.r && a.g == b.g && a.b == b.b && a.a == b.a; }

}  // namespace

TEST(CutoutRender, HolesShowTheBackgroundAndTheRestTheOpaqueColourAtOneFourAndEightSamples) {
  for (int samples : {1, 4, 8}) {
    const std::vector<Rgba8> cut = render_cpu(checker_quad(true), quad_camera(), quad_settings(samples), kSide, kSide);
    const std::vector<Rgba8> opaque =
        render_cpu(checker_quad(false), quad_camera(), quad_settings(samples), kSide, kSide);
    int holes = 0, kept = 0;
    for (int y = 0; y < kSide; ++y)
      for (int x = 0; x < kSide; ++x) {
        const int i = texel_of(x), j = texel_of(y);
        if (i < 0 || j < 0) continue;
        const size_t p = (size_t)y * kSide + x;
        if ((i + j) % 2) {
          EXPECT_TRUE(same(cut[p], kBackground)) << samples << " samples, hole pixel " << x << "," << y;
          ++holes;
        } else {
          EXPECT_TRUE(same(cut[p], opaque[p])) << samples << " samples, opaque pixel " << x << "," << y;
          ++kept;
        }
      }
    EXPECT_GT(holes, 1000) << samples;
    EXPECT_GT(kept, 1000) << samples;
    EXPECT_FALSE(same(opaque[0], kBackground)) << "the material colour must differ from the background";
  }
}

TEST(CutoutRender, AnAlphaEdgeThroughAPixelLeavesItPartlyCoveredAtFourSamplesAndNotAtOne) {
  // Column x = 17 straddles the border between texel columns 0 and 1 (at 17.5 px).
  for (int samples : {1, 4}) {
    const std::vector<Rgba8> cut = render_cpu(checker_quad(true), quad_camera(), quad_settings(samples), kSide, kSide);
    const std::vector<Rgba8> opaque =
        render_cpu(checker_quad(false), quad_camera(), quad_settings(samples), kSide, kSide);
    int partial = 0;
    for (int y = 0; y < kSide; ++y) {
      if (texel_of(y) < 0) continue;
      const size_t p = (size_t)y * kSide + 17;
      partial += !same(cut[p], kBackground) && !same(cut[p], opaque[p]);
    }
    if (samples == 1)
      EXPECT_EQ(partial, 0) << "one sample: a pixel is cut or kept whole";
    else
      EXPECT_GT(partial, 50) << "4 samples: the border's pixels mix the quad and the background";
  }
}

TEST(CutoutRender, BackFacesAreNotCountedHiddenForAClosedModelWithCutouts) {
  Scene sphere = make_sphere(2000, 1.0f);
  ASSERT_TRUE(sphere.bounds.closed);
  const Camera cam = test::look_at({0, 0, 3}, {0, 0, 0}, 45.0f, 0.1f, 10.0f);
  EXPECT_TRUE(test::frame_params(sphere, cam, 64, 64).cull_backfaces) << "opaque: back faces hidden";
  sphere.materials[0].alpha = 0.2f;  // cut everywhere: a scene with cut-outs
  EXPECT_FALSE(frame_bounds(sphere).closed);
  EXPECT_FALSE(test::frame_params(sphere, cam, 64, 64).cull_backfaces);
}

TEST(CutoutRender, AClosedModelWithHolesShowsItsInsideThroughThem) {
  // An 8 x 8 checker alpha map on the sphere's uvs: through a hole in the near half the far
  // half's inner (back-facing) side shows where it is opaque.
  Scene sphere = make_sphere(4000, 1.0f);
  test::add_checker_alpha_map(sphere, 8, 8);
  const Camera cam = test::look_at({0.3f, 0.4f, 3.0f}, {0, 0, 0}, 45.0f, 0.1f, 10.0f);
  CpuRenderer r;
  r.set_scene(std::make_shared<Scene>(sphere));
  r.render(cam, {}, 96, 96);
  std::vector<uint32_t> ids;
  r.read_triangle_ids(ids);
  const glm::vec3 eye = cam.eye;
  int inside = 0, outside = 0;
  for (uint32_t t : ids) {
    if (t == ~0u) continue;
    const Vec3 a = sphere.positions[sphere.indices[3 * t]];
    // The far half of the sphere, seen from a camera outside it, is back-facing.
    const bool far_half = glm::dot(glm::vec3(a.x, a.y, a.z), eye) < 0.0f;
    (far_half ? inside : outside) += 1;
  }
  EXPECT_GT(inside, 200) << "no back face shows through the holes";
  EXPECT_GT(outside, 200);
}
