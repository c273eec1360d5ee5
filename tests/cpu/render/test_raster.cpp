// Coverage: the top-left fill rule, watertightness (every pixel centre of a closed mesh is hit
// an even number of times from outside, exactly once from inside), and analytic areas.
#include <gtest/gtest.h>

#include <algorithm>
#include <glm/gtc/type_ptr.hpp>
#include <random>

#include "engine/render/renderer.h"
#include "engine/scene/generate.h"
#include "kernels/frame/geometry/project.h"
#include "kernels/frame/geometry/triangle.h"
#include "kernels/frame/geometry/vertex.h"
#include "kernels/frame/raster/raster.h"
#include "kernels/frame/raster/warp_raster.h"
#include "tests/support/hostile_checks.h"
#include "tests/support/test_scenes.h"

using namespace facet;

namespace {

// A RasterTri from window coordinates given in whole 1/256 units (no projection involved).
// Returns false when setup culls it (zero area or no pixel centre inside its box).
bool window_tri(int x0, int y0, int x1, int y1, int x2, int y2, int w, int h, RasterTri& t) {
  // Build clip coordinates that map exactly onto these window positions (w = 1).
  auto c = [&](int x, int y) {
    return Vec4{(float)x / kSubpixel / w * 2.0f - 1.0f, 1.0f - (float)y / kSubpixel / h * 2.0f, 0.0f, 1.0f};
  };
  return setup_raster_tri(c(x0, y0), c(x1, y1), c(x2, y2), 0, w, h, false, t) == SetupResult::Ok;
}

int count_pixels(const RasterTri& t) {
  int n = 0;
  raster_rect(t, t.px0, t.py0, t.px1, t.py1, [&](int, int, uint64_t) { ++n; });
  return n;
}

}  // namespace

TEST(FillRule, PixelCentreOnTopOrLeftEdgeIsInsideOnBottomOrRightIsNot) {
  const int S = kSubpixel, H = kSubpixel / 2;
  // Axis-aligned right triangle with its top edge on row 2's centres and left edge on column 2's.
  RasterTri top_left, bottom_right;
  ASSERT_TRUE(window_tri(2 * S + H, 2 * S + H, 6 * S + H, 2 * S + H, 2 * S + H, 6 * S + H, 16, 16, top_left));
  int n = count_pixels(top_left);
  // Centres (x, y) with x >= 2, y >= 2 and (x - 2) + (y - 2) < 4, hypotenuse pixels excluded
  // since the hypotenuse is a right/bottom edge: 4 + 3 + 2 + 1 = 10.
  EXPECT_EQ(n, 10);
  // The mirror image: the edges through the centres are now bottom and right: excluded.
  ASSERT_TRUE(window_tri(6 * S + H, 6 * S + H, 2 * S + H, 6 * S + H, 6 * S + H, 2 * S + H, 16, 16, bottom_right));
  EXPECT_EQ(count_pixels(bottom_right), 3 + 2 + 1);
}

TEST(FillRule, TwoTrianglesSharingAnEdgeCoverEachPixelOnce) {
  std::mt19937 rng(3);
  // Vertices on a half-pixel lattice, so that many pixel centres fall exactly on shared edges.
  std::uniform_int_distribution<int> lattice(0, 64);
  auto u = [&](std::mt19937& g) { return lattice(g) * (kSubpixel / 2); };
  size_t inside = 0;  // pixel centres inside a pair, over all trials
  for (int trial = 0; trial < 200; ++trial) {
    int ax = u(rng), ay = u(rng), bx = u(rng), by = u(rng), cx = u(rng), cy = u(rng), dx = u(rng), dy = u(rng);
    // Quad a-b-c-d split along a-c; skip non-convex or degenerate draws.
    auto cross = [](int ox, int oy, int px, int py, int qx, int qy) {
      return (int64_t)(px - ox) * (qy - oy) - (int64_t)(py - oy) * (qx - ox);
    };
    int64_t s1 = cross(ax, ay, bx, by, cx, cy), s2 = cross(ax, ay, cx, cy, dx, dy);
    if (s1 == 0 || s2 == 0 || (s1 > 0) != (s2 > 0)) continue;
    std::vector<int> hits(32 * 32, 0);
    RasterTri t[2];
    bool ok[2] = {window_tri(ax, ay, bx, by, cx, cy, 32, 32, t[0]), window_tri(ax, ay, cx, cy, dx, dy, 32, 32, t[1])};
    for (int k = 0; k < 2; ++k)
      if (ok[k])
        raster_rect(t[k], t[k].px0, t[k].py0, t[k].px1, t[k].py1, [&](int x, int y, uint64_t) { ++hits[y * 32 + x]; });
    for (int i = 0; i < 32 * 32; ++i) ASSERT_LE(hits[i], 1) << "pixel " << i << " hit twice, trial " << trial;
    // And no gap: a centre inside either triangle, or on the shared edge between a and c, is hit.
    const int64_t sign = s1 > 0 ? 1 : -1;
    for (int y = 0; y < 32; ++y)
      for (int x = 0; x < 32; ++x) {
        const int px = x * kSubpixel + kSubpixel / 2, py = y * kSubpixel + kSubpixel / 2;
        const bool in_abc = sign * cross(ax, ay, bx, by, px, py) > 0 && sign * cross(bx, by, cx, cy, px, py) > 0 &&
                            sign * cross(cx, cy, ax, ay, px, py) >= 0;
        const bool in_acd = sign * cross(ax, ay, cx, cy, px, py) >= 0 && sign * cross(cx, cy, dx, dy, px, py) > 0 &&
                            sign * cross(dx, dy, ax, ay, px, py) > 0;
        if (!in_abc && !in_acd) continue;
        ++inside;
        ASSERT_EQ(hits[y * 32 + x], 1) << "pixel " << x << "," << y << " inside the pair, trial " << trial;
      }
  }
  EXPECT_GT(inside, 5000u) << "the draws should cover many pixel centres";
}

TEST(Watertight, ClosedSphereFromOutsideIsHitEvenTimesEverywhere) {
  Scene sphere = make_sphere(20000);
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int cam = 0; cam < 12; ++cam) {
    glm::vec3 dir = glm::normalize(glm::vec3(u(rng), u(rng), u(rng)));
    float dist = 1.5f + 3.0f * (u(rng) + 1.0f);
    Camera c = test::look_at(dir * dist, {u(rng) * 0.3f, u(rng) * 0.3f, 0}, 50.0f, 0.1f, 20.0f);
    FrameParams fp = test::frame_params(sphere, c, 160, 120, test::two_sided());
    std::vector<int> hits = test::hit_counts(sphere, fp).count;
    size_t covered = 0;
    for (size_t i = 0; i < hits.size(); ++i) {
      ASSERT_TRUE(hits[i] == 0 || hits[i] == 2) << "camera " << cam << " pixel " << i << " hit " << hits[i];
      covered += hits[i] != 0;
    }
    EXPECT_GT(covered, 100u);
  }
}

TEST(Watertight, InsideClosedSphereNearPlaneClippingLeavesEveryPixelHitOnce) {
  Scene sphere = make_sphere(5000);
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int cam = 0; cam < 8; ++cam) {
    // |eye| <= 0.35: every ray meets the sphere at view depth >= 0.375, beyond the near plane.
    glm::vec3 eye{u(rng) * 0.2f, u(rng) * 0.2f, u(rng) * 0.2f};
    glm::vec3 target = eye + glm::vec3(u(rng), u(rng), u(rng) + 0.01f);
    // A near plane of 0.3 cuts the triangles closest to the eye: the pixels they would have
    // covered must still be covered once by the clipped pieces.
    Camera c = test::look_at(eye, target, 90.0f, 0.3f, 10.0f);
    FrameParams fp = test::frame_params(sphere, c, 128, 96, test::two_sided());
    test::Hits hits = test::hit_counts(sphere, fp);
    for (size_t i = 0; i < hits.count.size(); ++i) ASSERT_EQ(hits.count[i], 1) << "camera " << cam << " pixel " << i;
    EXPECT_GT(hits.tris.clipped, 0u) << "the near plane should have cut some triangles";
  }
}

TEST(Coverage, TessellatedSphereMatchesAnalyticProjectedArea) {
  const int W = 640, H = 480;
  Scene sphere = make_sphere(200000);
  float fov = glm::radians(40.0f);
  float d = distance_for_coverage(1.0f, 0.28f, W, H, fov);
  Camera c = test::look_at({0, 0, d}, {0, 0, 0}, glm::degrees(fov), 0.1f, 100.0f);
  auto r = make_renderer(Backend::Cpu);
  r->set_scene(std::make_shared<Scene>(sphere));
  r->render(c, {}, W, H);
  std::vector<uint32_t> ids;
  r->read_triangle_ids(ids);
  size_t covered = 0;
  for (uint32_t id : ids) covered += id != ~0u;
  // Silhouette radius in pixels: f * r / sqrt(d^2 - r^2).
  double f = 0.5 * H / std::tan(0.5 * fov);
  double rad = f / std::sqrt((double)d * d - 1.0);
  double analytic = 3.14159265358979 * rad * rad;
  EXPECT_NEAR(covered / analytic, 1.0, 0.005) << covered << " vs " << analytic;
  EXPECT_NEAR(covered / double(W * H), 0.28, 0.003);
}

// The warp paths of the CUDA backend, run lane by lane: over 32 lanes the medium path (whole box)
// and the tile path (every tile of the box) visit exactly the pixels and keys raster_rect does.
TEST(WarpPaths, LanesTogetherVisitExactlyWhatRasterRectVisits) {
  using Hit = std::pair<int, uint64_t>;
  const int w = 320, h = 200;
  std::mt19937 rng(7);
  int medium = 0, large = 0, clipped_boxes = 0;
  for (int n = 0; n < 3000; ++n) {
    // Sizes from sub-pixel to 150 px, some thin, some hanging off the frame.
    int span = 256 * (1 + (int)(rng() % 150));
    int cx = (int)(rng() % (w * 256 + 8000)) - 4000, cy = (int)(rng() % (h * 256 + 8000)) - 4000;
    auto coord = [&](int c) { return c + (int)(rng() % span) - span / 2; };
    int x0 = coord(cx), y0 = coord(cy), x1 = coord(cx), y1 = coord(cy), x2 = coord(cx), y2 = coord(cy);
    if (rng() % 4 == 0) {
      x2 = x0 + (x1 - x0) * 2 + 300;
      y2 = y0 + (y1 - y0) * 2 - 200;
    }  // thin
    RasterTri t;
    if (!window_tri(x0, y0, x1, y1, x2, y2, w, h, t)) continue;
    std::vector<Hit> want, got_box, got_tiles;
    raster_rect(t, t.px0, t.py0, t.px1, t.py1, [&](int x, int y, uint64_t k) { want.push_back({y * w + x, k}); });
    std::sort(want.begin(), want.end());
    if (t.px0 == 0 || t.py0 == 0 || t.px1 == w - 1 || t.py1 == h - 1) ++clipped_boxes;

    if (fits_int32(t)) {
      ++medium;
      for (int lane = 0; lane < 32; ++lane)
        raster_box_lane(t, lane, [&](int x, int y, uint64_t k) { got_box.push_back({y * w + x, k}); });
      std::sort(got_box.begin(), got_box.end());
      ASSERT_EQ(got_box, want) << "box lanes, triangle " << n;
    } else {
      ++large;
    }
    for (int ty = t.py0 / kTileSide; ty <= t.py1 / kTileSide; ++ty)
      for (int tx = t.px0 / kTileSide; tx <= t.px1 / kTileSide; ++tx)
        for (int lane = 0; lane < 32; ++lane)
          raster_tile_lane(t, tx * kTileSide, ty * kTileSide, lane, [&](int x, int y, uint64_t k) {
            got_tiles.push_back({y * w + x, k});
          });
    std::sort(got_tiles.begin(), got_tiles.end());
    ASSERT_EQ(got_tiles, want) << "tile lanes, triangle " << n;
  }
  // The draw must have exercised both classes and boxes cut by the frame edge.
  EXPECT_GT(medium, 500);
  EXPECT_GT(large, 100);
  EXPECT_GT(clipped_boxes, 100);
}

TEST(WarpPaths, SizeClassesFollowTheBoxAndTheExtent) {
  RasterTri t;
  ASSERT_TRUE(window_tri(0, 0, 8 * 256, 0, 0, 8 * 256, 64, 64, t));  // 8x8 box
  EXPECT_EQ(size_class(t), SizeClass::Small);
  EXPECT_EQ(size_class(t, 1, 16), SizeClass::Medium) << "a frame's plan may queue smaller boxes";
  ASSERT_TRUE(window_tri(0, 0, 20 * 256, 0, 0, 20 * 256, 64, 64, t));  // 20 px a side
  EXPECT_EQ(size_class(t), SizeClass::Medium);
  ASSERT_TRUE(window_tri(0, 0, 40 * 256, 0, 0, 40 * 256, 64, 64, t));  // 1600 px: past kMediumBoxPixels
  EXPECT_GT(box_pixels(t), kMediumBoxPixels);
  EXPECT_EQ(size_class(t), SizeClass::Large);
  ASSERT_TRUE(window_tri(0, 0, 60 * 256, 0, 0, 8 * 256, 64, 64, t));  // 60 px: not exact in 32 bits
  EXPECT_LE(box_pixels(t), kMediumBoxPixels);
  EXPECT_EQ(size_class(t), SizeClass::Large);
}

TEST(WarpPaths, WithSamplesAMediumBoxHoldsFewerPixels) {
  RasterTri t;
  ASSERT_TRUE(window_tri(0, 0, 20 * 256, 0, 0, 20 * 256, 64, 64, t));  // 400 px box
  EXPECT_EQ(size_class(t, 1), SizeClass::Medium);
  EXPECT_EQ(size_class(t, 4), SizeClass::Large);
  EXPECT_EQ(size_class(t, 8), SizeClass::Large);
  ASSERT_TRUE(window_tri(0, 0, 15 * 256, 0, 0, 15 * 256, 64, 64, t));  // 225 px box
  EXPECT_LE(box_pixels(t), kMediumBoxSampledPixels);
  EXPECT_EQ(size_class(t, 4), SizeClass::Medium);
  EXPECT_EQ(size_class(t, 8), SizeClass::Medium);
}
