// Hostile geometry on the CPU backend (issue 5), extreme extents: one triangle filling the
// screen at scales up to 1e30 (every pixel covered exactly once), huge coordinates with a vertex
// on screen, triangles spanning the guard band, 1e-6 coordinates (all against the
// double-precision ray caster), and random triangles up to 1e30 whose raster work stays bounded
// by the frame. Scenes are built here; the checks are in tests/support/hostile_checks.h.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "kernels/frame/params.h"
#include "tests/support/hostile_checks.h"
#include "tests/support/hostile_scenes.h"
#include "tests/support/test_scenes.h"

using namespace facet;
using namespace facet::test;

TEST(HostileGeometry, SingleTriangleFillingTheScreenCoversEveryPixelExactlyOnce) {
  const int W = 160, H = 120;
  struct Fill {
    std::string name;
    std::vector<Vec3> p;
    Camera cam;
  };
  std::vector<Fill> fills;
  for (float s : {10.0f, 1e6f, 1e12f, 1e30f})
    fills.push_back({"facing-1e" + std::to_string((int)std::log10(s)), {{-s, -s, 0}, {s, -s, 0}, {0, s, 0}}, kFront});
  // On the tilted plane z = -0.3 y - 1, its lower corners behind the eye: cut by the near plane.
  fills.push_back({"through-near", {{-100, -60, 17}, {100, -60, 17}, {0, 100, -31}}, kFront});
  // A floor under a camera looking down, reaching 1e30 in front of and behind the eye.
  // (Not further: at 1e8 the float world-to-clip transform itself rounds the floor's height by
  // several units, more than its distance to the eye; the shared list renders 1e30 for garbage.)
  for (float s : {1e3f, 1e6f})
    fills.push_back({"floor-1e" + std::to_string((int)std::log10(s)),
                     {{-s, -1, -s}, {s, -1, -s}, {0, -1, s}},
                     test::look_at({0, 0, 5}, {0, -5, 0}, 50.0f, 0.5f, 100.0f)});
  for (const Fill& fl : fills) {
    Scene s = test::make_mesh(fl.p, {0, 1, 2}, fl.name);
    FrameParams fp = test::frame_params(s, fl.cam, W, H, two_sided());
    Hits h = hit_counts(s, fp);  // the clipped pieces together, no depth test
    size_t not_once = 0;
    for (int n : h.count) not_once += n != 1;
    EXPECT_EQ(not_once, 0u) << fl.name << ": pixels not covered exactly once by the pieces";
    Frame f = render(s, fp);
    expect_clean(f, s, fp, fl.name);
    EXPECT_EQ(std::count(f.ids.begin(), f.ids.end(), 0u), (long)f.ids.size()) << fl.name;
    EXPECT_GE(f.tris.drawn, 1u) << fl.name;
  }
}

TEST(HostileGeometry, HugeCoordinatesWithAVertexOnScreenMatchTheRayCaster) {
  // One vertex on screen, two far out: the two edges through the screen are defined by the
  // on-screen vertex and a direction. Clipping at the guard band must not lose that vertex's bits.
  for (float s : {1e3f, 1e6f, 1e12f, 1e30f}) {
    Scene wedge = test::make_mesh({{0.3f, 0.2f, 0}, {-s, 0.1f * s, 0}, {-0.2f * s, -s, 0}}, {0, 1, 2}, "wedge");
    expect_matches_ray_cast(wedge, kFront, 160, 120, "wedge-" + std::to_string((int)std::log10(s)));
    // The same with the far vertices also deep behind the far plane.
    Scene deep = test::make_mesh({{-0.4f, 0.1f, 0}, {s, 0.1f * s, -0.3f * s}, {0.3f * s, -s, -s}}, {0, 1, 2}, "deep");
    expect_matches_ray_cast(deep, kFront, 160, 120, "deep-" + std::to_string((int)std::log10(s)));
  }
}

TEST(HostileGeometry, TrianglesSpanningTheGuardBandMatchTheRayCaster) {
  // Vertices on the guard band's edge (16384 px beyond the frame), just beyond it, and far out,
  // placed through window coordinates; each triangle also crosses the frame.
  const int W = 160, H = 120;
  Camera c = test::look_at({0, 0, 0}, {0, 0, -1}, 50.0f, 0.1f, 1e4f);
  std::mt19937 rng(19);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<Vec3> p;
  std::vector<uint32_t> idx;
  const double g = kGuardBandPx;
  for (int t = 0; t < 12; ++t) {
    double far_out = t < 4 ? g : (t < 8 ? g + 0.5 : 1e7);  // on the band, just past it, far past
    double wx[3] = {-far_out, W + far_out, W * u(rng)},
           wy[3] = {H * u(rng), H * u(rng), t % 2 ? -far_out : H + far_out};
    double depth = 2.0 + 0.5 * t;
    uint32_t b = (uint32_t)p.size();
    for (int k = 0; k < 3; ++k) p.push_back(test::world_at_window(c, W, H, wx[k], wy[k], depth * (1 + 0.3 * k)));
    idx.insert(idx.end(), {b, b + 1, b + 2});
  }
  Scene s = test::make_mesh(p, idx, "guard-band");
  expect_matches_ray_cast(s, c, W, H, "guard-band");
}

TEST(HostileGeometry, TinyCoordinatesMatchTheRayCaster) {
  // A 1e-6-sized triangle seen from 3e-6 with a near plane of 1e-7.
  Scene s = test::make_mesh({{-1e-6f, -1e-6f, 0},
                             {1e-6f, -0.5e-6f, 0},
                             {0, 1e-6f, 0.2e-6f},
                             {-0.3e-6f, 0.4e-6f, -0.5e-6f},
                             {0.8e-6f, 0.9e-6f, 0.3e-6f},
                             {0.2e-6f, -0.9e-6f, 0.1e-6f}},
                            {0, 1, 2, 3, 4, 5}, "tiny");
  expect_matches_ray_cast(s, test::look_at({0, 0, 3e-6f}, {0, 0, 0}, 60.0f, 1e-7f, 1e-5f), 160, 120, "tiny");
  // The same triangle from 1 unit away covers no pixel centre: culled, nothing drawn.
  FrameParams fp = test::frame_params(s, kFront, 160, 120, two_sided());
  Frame f = render(s, fp);
  EXPECT_EQ(expect_clean(f, s, fp, "tiny-far"), 0u);
  EXPECT_EQ(f.tris.culled, s.triangle_count());
}

TEST(HostileGeometry, HugeTrianglesDoBoundedWork) {
  // Random triangles with coordinates up to 1e30 in every direction (in front, behind, crossing
  // the eye plane): the work handed to the rasterizer is bounded by the frame, whatever the size.
  const int W = 160, H = 120;
  std::mt19937 rng(23);
  std::uniform_real_distribution<float> e(-30.0f, 30.0f);
  std::vector<Vec3> p;
  std::vector<uint32_t> idx;
  for (uint32_t t = 0; t < 600; ++t) {
    for (int k = 0; k < 3; ++k) {
      glm::vec3 d = random_dir(rng) * std::pow(10.0f, std::fabs(e(rng)));
      p.push_back({d.x, d.y, d.z});
      idx.push_back((uint32_t)p.size() - 1);
    }
  }
  Scene s = test::make_mesh(p, idx, "huge-random");
  FrameParams fp = test::frame_params(s, kFront, W, H, two_sided());
  Hits h = hit_counts(s, fp);
  EXPECT_EQ(h.tris.nan, 0u);
  EXPECT_LE(h.tris.culled + h.tris.clipped, s.triangle_count());
  EXPECT_LE(h.tris.drawn, 7u * s.triangle_count()) << "a triangle clipped by 6 planes has at most 7 pieces";
  EXPECT_LE(h.box_pixels, (uint64_t)h.tris.drawn * W * H) << "raster boxes reach outside the frame";
  Frame f = render(s, fp);
  EXPECT_GT(expect_clean(f, s, fp, "huge-random"), 0u);
  EXPECT_EQ(f.tris.drawn, h.tris.drawn);
}
