// The whole-meshlet occlusion test (kernels/frame/geometry/occlusion.h) must be conservative: whenever it calls
// a sphere hidden, every point of the sphere, projected and snapped as the vertex stage does it,
// lies strictly behind the tile bound of the pixel it lands on. It is host-and-device code, so
// it is checked here without a GPU; the gpu tests check whole frames against the CPU backend.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "engine/render/cpu_renderer.h"
#include "engine/render/frame_setup.h"
#include "engine/scene/generate.h"
#include "kernels/frame/geometry/clip.h"
#include "kernels/frame/geometry/occlusion.h"
#include "kernels/frame/geometry/vertex.h"
#include "tests/support/cull_checks.h"
#include "tests/support/test_scenes.h"

using namespace facet;

namespace {

constexpr int W = 320, H = 240;

uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

struct Frame {
  FrameParams fp;
  std::vector<uint32_t> hiz, coarse;
  OcclusionTest test;
};

Frame make_frame(glm::vec3 eye) {
  Frame f;
  const Camera cam = test::look_at(eye, {0, 0, 0}, 50.0f, 0.2f, 20.0f);
  f.fp = test::frame_params(make_sphere(20), cam, W, H);
  f.hiz.assign((size_t)hiz_tiles(W) * hiz_tiles(H), 0u);
  f.coarse.assign((size_t)hiz_coarse_tiles(W) * hiz_coarse_tiles(H), 0u);
  f.test = make_occlusion_test(f.fp, f.hiz.data(), f.coarse.data());
  return f;
}

// The coarse bounds from the fine ones, as hiz_kernel builds them.
void build_coarse(Frame& f) {
  std::fill(f.coarse.begin(), f.coarse.end(), 0u);
  for (int ty = 0; ty < f.test.tiles_y; ++ty)
    for (int tx = 0; tx < f.test.tiles_x; ++tx) {
      uint32_t& c = f.coarse[(size_t)(ty / kHizCoarse) * f.test.coarse_x + tx / kHizCoarse];
      c = std::max(c, f.hiz[(size_t)ty * f.test.tiles_x + tx]);
    }
}

bool occluded(const Frame& f, Vec3 c, float r) {
  return sphere_occluded(f.test, c, r, [](const uint32_t* a) { return *a; });
}

}  // namespace

TEST(Occlusion, HidesWhatLiesBehindAndNothingElse) {
  Frame f = make_frame({0, 0, 5});
  // Bounds at depth 0 (everything drawn at the near plane): a small sphere on screen is hidden.
  EXPECT_TRUE(occluded(f, {0, 0, 0}, 0.05f));
  // Bounds at 1 (nothing drawn): nothing is.
  std::fill(f.hiz.begin(), f.hiz.end(), float_bits(1.0f));
  build_coarse(f);
  EXPECT_FALSE(occluded(f, {0, 0, 0}, 0.05f));
  EXPECT_FALSE(occluded(f, {0, 0, 0}, 0.3f)) << "tested against the coarse bounds";
  std::fill(f.hiz.begin(), f.hiz.end(), 0u);
  build_coarse(f);
  EXPECT_TRUE(occluded(f, {0, 0, 0}, 0.3f)) << "more fine tiles than tested, few coarse ones";
  EXPECT_FALSE(occluded(f, {0, 0, 4.9f}, 0.5f)) << "reaches the eye's plane";
  EXPECT_FALSE(occluded(f, {0, 0, 0}, NAN)) << "a meshlet with a non-finite vertex";
  EXPECT_FALSE(occluded(f, {0, 0, 0}, 1.5f)) << "touches more coarse tiles than it is worth testing";
  EXPECT_FALSE(occluded(f, {50, 0, 0}, 0.05f)) << "off screen: the frustum test's business";
}

TEST(Occlusion, CallsHiddenOnlyWhatEveryPointOfItIsBehind) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f), u01(0.0f, 1.0f);
  int hidden = 0, shown = 0;
  for (int cam = 0; cam < 8; ++cam) {
    Frame f = make_frame(glm::normalize(glm::vec3(u(rng), u(rng), u(rng) + 1.5f)) * (3.0f + 3.0f * u01(rng)));
    const ClipPlanes planes = make_clip_planes(W, H);
    for (int s = 0; s < 400; ++s) {
      const Vec3 c{1.5f * u(rng), 1.5f * u(rng), 1.5f * u(rng)};
      const float r = 0.01f + 0.4f * u01(rng) * u01(rng);  // some reach beyond 16 fine tiles
      // Points of the sphere (its surface and inside), where the vertex stage would put them.
      struct Hit {
        int tile;
        uint32_t depth;
      };
      std::vector<Hit> hits;
      float nearest = 1.0f, farthest = 0.0f;
      for (int k = 0; k < 300; ++k) {
        Vec3 d{u(rng), u(rng), u(rng)};
        const float len = std::sqrt(dot(d, d));
        if (!(len > 0.0f)) continue;
        const float t = (k % 3 == 0 ? 1.0f : std::cbrt(u01(rng))) * r / len;
        const ProjectedVertex v =
            project_and_snap(f.fp.view_proj, {c.x + d.x * t, c.y + d.y * t, c.z + d.z * t}, planes, W, H);
        if (v.code != 0) continue;
        const int px = v.x >> kSubpixelBits, py = v.y >> kSubpixelBits;
        if (px < 0 || py < 0 || px >= W || py >= H) continue;
        hits.push_back({(py / kHizTile) * f.test.tiles_x + px / kHizTile, float_bits(v.z)});
        nearest = std::min(nearest, v.z);
        farthest = std::max(farthest, v.z);
      }
      // Tile bounds on the scale of the sphere's depth range: for half the spheres all in front
      // of it (it should be called hidden, if the bound is tight), for the others scattered
      // around its nearest depth (the calls a loose test would get wrong).
      const float spread = std::max(farthest - nearest, 1e-5f);
      const bool in_front = s % 2 == 0;
      for (uint32_t& b : f.hiz) {
        const float d = in_front ? nearest - spread * (1.0f + 3.0f * u01(rng)) - 2e-5f : nearest + spread * u(rng);
        b = float_bits(std::clamp(d, 0.0f, 1.0f));
      }
      build_coarse(f);
      if (!occluded(f, c, r)) {
        ++shown;
        continue;
      }
      ++hidden;
      for (const Hit& h : hits) ASSERT_LT(f.hiz[h.tile], h.depth) << "camera " << cam << " sphere " << s;
    }
  }
  // Both outcomes occur, or the test proves nothing.
  EXPECT_GT(hidden, 100);
  EXPECT_GT(shown, 100);
}

// Resolve reads no key outside scene_pixel_box: every pixel a frame covers must lie inside it.
// Frames of a sphere (close, far, half off screen, cut by the near plane) on the CPU backend.
TEST(Occlusion, TheScenePixelBoxHoldsEveryCoveredPixel) {
  Scene s = make_sphere(20000, 1.0f, {0.3f, -0.2f, 0.1f});
  CpuRenderer r;
  r.set_scene(std::make_shared<Scene>(s));
  struct View {
    glm::vec3 eye, target;
    float near_plane;
    enum {
      kSmaller,
      kAny,
      kWhole
    } box;  // than the frame: the sphere is small in view; it
            //   fills the view; the eye is inside it (unbounded)
  };
  const View views[] = {{{0, 0, 6}, {0, 0, 0}, 0.1f, View::kSmaller},
                        {{2.5f, 1.0f, 1.5f}, {0, 0, 0}, 0.1f, View::kSmaller},
                        {{0, 0, 3}, {2.0f, 0.5f, 0}, 0.1f, View::kSmaller},      // half off screen
                        {{0, 0, 1.6f}, {0, 0, 0}, 0.5f, View::kAny},             // near plane cuts it open
                        {{0.3f, -0.2f, 0.8f}, {0, 0, 0}, 0.05f, View::kWhole}};  // eye inside it
  for (const View& v : views) {
    const Camera cam = test::look_at(v.eye, v.target, 50.0f, v.near_plane, 20.0f);
    const FrameParams fp = test::frame_params(s, cam, W, H);
    const PixelBox box = scene_pixel_box(fp, s.bounds.center, s.bounds.radius);
    const test::BoxCoverage c = test::covered_pixels_against_box(r, fp, box);
    EXPECT_GT(c.covered, 0u);
    EXPECT_EQ(c.outside, 0u) << "eye " << v.eye.x << "," << v.eye.y << "," << v.eye.z;
    const int64_t area = (int64_t)(box.x1 - box.x0 + 1) * (box.y1 - box.y0 + 1);
    if (v.box == View::kWhole) {
      EXPECT_EQ(area, (int64_t)W * H);
    } else if (v.box == View::kSmaller) {
      EXPECT_LT(area, (int64_t)W * H) << "eye " << v.eye.x << "," << v.eye.z;
    }
  }
}
