// Hostile geometry on the CPU backend (issue 5), triangles with no proper area or no proper
// position: degenerate (repeated indices, repeated positions, collinear), random collinear
// triangles (at most their line drawn), NaN and infinite positions (dropped and counted exactly,
// other pixels unchanged), and a flat mesh seen exactly edge-on. Scenes are built here; the
// checks are in tests/support/hostile_checks.h.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "engine/scene/generate.h"
#include "tests/support/hostile_checks.h"
#include "tests/support/hostile_scenes.h"
#include "tests/support/test_scenes.h"

using namespace facet;
using namespace facet::test;

TEST(HostileGeometry, DegenerateTrianglesAreCulledAndDrawNothing) {
  // Repeated vertex indices, a repeated position under another index, exactly collinear points.
  Scene s = test::make_mesh(
      {{-1, -1, 0}, {1, 1, 0}, {0, 0, 0}, {1, 1, 0}, {0.5f, -1, 0}, {-1, 0.5f, 0}, {0.25f, 0.5f, 0}, {1.5f, 0.5f, 0}},
      {0, 0, 0, 0, 0, 1, 0, 1, 3, 0, 1, 2, 0, 2, 1, 4, 4, 2, 5, 6, 7, 6, 7, 5}, "degenerate");
  // Facing the camera the projection keeps exact zeros: every triangle has zero snapped area.
  FrameParams fp = test::frame_params(s, kFront, 160, 120, two_sided());
  Frame f = render(s, fp);
  EXPECT_EQ(expect_clean(f, s, fp, "degenerate"), 0u);
  EXPECT_EQ(f.tris.culled, s.triangle_count());
  // Oblique, rounding may leave slivers of nonzero area, but none covers a pixel centre.
  fp = test::frame_params(s, test::look_at({0.7f, -0.4f, 3}, {0, 0, 0}, 70.0f, 0.1f, 10.0f), 160, 120, two_sided());
  f = render(s, fp);
  EXPECT_EQ(expect_clean(f, s, fp, "degenerate-oblique"), 0u);
  EXPECT_EQ(f.tris.culled + f.tris.drawn, s.triangle_count());
}

TEST(HostileGeometry, RandomCollinearTrianglesDrawAtMostTheirLine) {
  // Collinear in 3D is not exactly collinear after projection and snapping: slivers may touch
  // pixel centres on the line, nothing else.
  std::mt19937 rng(29);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int k = 0; k < 20; ++k) {
    glm::vec3 a{u(rng), u(rng), u(rng)}, b{u(rng), u(rng), u(rng)};
    float t = u(rng) * 2.0f;
    glm::vec3 m = a + (b - a) * t;
    Scene s = test::make_mesh({{a.x, a.y, a.z}, {b.x, b.y, b.z}, {m.x, m.y, m.z}}, {0, 1, 2, 1, 2, 0, 2, 0, 1, 0, 2, 1},
                              "collinear");
    Camera c = test::look_at(random_dir(rng) * (2.0f + 2.0f * std::fabs(u(rng))), {0, 0, 0}, 60.0f, 0.1f, 20.0f);
    FrameParams fp = test::frame_params(s, c, 160, 120, two_sided());
    Frame f = render(s, fp);
    expect_clean(f, s, fp, "collinear");
    CameraBasis cb(c, 160, 120);
    glm::dvec3 n = glm::cross(glm::dvec3(a) - cb.eye, glm::dvec3(b) - cb.eye);
    EXPECT_LE(max_distance_from_plane_line(f.ids, cb, n), 1.0) << "case " << k;
  }
}

TEST(HostileGeometry, NanAndInfPositionsAreDroppedAndCountedExactly) {
  Scene base = make_sphere(4000);
  Scene bad = base;
  const float nan = std::nanf("");
  const std::vector<std::pair<uint32_t, Vec3>>
      poison = {{3, {nan, 0, 0}},
                {40, {0, INFINITY, 0}},
                {77, {0, 0, -INFINITY}},
                {120, {0.5f, 0.5f, nan}},
                {500, {nan, nan, nan}},
                {901, {-INFINITY, INFINITY, 0}},
                {1200, {3e38f, 3e38f, 3e38f}}};  // finite, but its clip coordinates overflow to infinity
  std::set<uint32_t> poisoned;
  for (auto [v, p] : poison) {
    bad.positions[v] = p;
    poisoned.insert(v);
  }
  // The reference: the same scene with the poisoned triangles made degenerate (indices 0, 0, 0).
  Scene ref = base;
  std::vector<bool> dropped(base.triangle_count(), false);
  uint32_t expected = 0;
  for (uint32_t t = 0; t < base.triangle_count(); ++t) {
    for (int k = 0; k < 3; ++k) dropped[t] = dropped[t] || poisoned.count(base.indices[3 * t + k]);
    if (!dropped[t]) continue;
    ++expected;
    for (int k = 0; k < 3; ++k) ref.indices[3 * t + k] = 0;
  }
  Scene bad_mesh = test::make_mesh({bad.positions.begin(), bad.positions.end()},
                                   {bad.indices.begin(), bad.indices.end()}, "nan-inf");
  for (const Camera& c : {test::look_at({0.2f, 0.5f, 3}, {0, 0, 0}, 50.0f, 0.1f, 10.0f),
                          test::look_at({0, 0.3f, 0.6f}, {0, 0, -1}, 90.0f, 0.05f, 10.0f)}) {  // inside: clipping
    FrameParams fp = test::frame_params(bad_mesh, c, 160, 120, two_sided());
    Frame f = render(bad_mesh, fp);
    EXPECT_EQ(f.tris.nan, expected) << "each triangle with a NaN/Inf vertex is counted once";
    expect_clean(f, bad_mesh, fp, "nan-inf", [&](uint32_t id) { return !dropped[id]; });
    Frame r = render(ref, fp);
    EXPECT_EQ(f.ids, r.ids) << "dropping the NaN triangles changed other pixels";
    EXPECT_EQ(f.tris.drawn, r.tris.drawn);
  }
  // Nothing but NaN: nothing drawn, every triangle counted.
  Scene all_nan = test::make_mesh(std::vector<Vec3>(base.vertex_count(), Vec3{nan, nan, nan}),
                                  {base.indices.begin(), base.indices.end()}, "all-nan");
  Frame f = render(all_nan, test::frame_params(all_nan, kFront, 64, 48, two_sided()));
  EXPECT_EQ(f.tris.nan, all_nan.triangle_count());
  EXPECT_EQ(std::count(f.ids.begin(), f.ids.end(), kNoTriangle), 64 * 48);
}

TEST(HostileGeometry, FlatMeshSeenExactlyEdgeOnDrawsNothingOrALine) {
  Scene grid = test::make_flat_grid(24, 5);  // z = 0
  // Eye in the plane, looking along it with the plane vertical on screen through the frame's
  // middle (a pixel boundary): every triangle snaps to zero area.
  {
    Camera c = test::look_at({-4, 0.2f, 0}, {0, 0.1f, 0}, 50.0f, 0.1f, 20.0f);
    FrameParams fp = test::frame_params(grid, c, 160, 120, two_sided());
    Frame f = render(grid, fp);
    EXPECT_EQ(expect_clean(f, grid, fp, "edge-on-aligned"), 0u);
    EXPECT_EQ(f.tris.culled, grid.triangle_count());
  }
  // Skew eyes in the plane (rounding leaves slivers): at most pixels on the plane's image line.
  std::mt19937 rng(31);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int k = 0; k < 16; ++k) {
    float ang = 3.14159265f * u(rng);
    glm::vec3 eye{3.0f * std::cos(ang), 3.0f * std::sin(ang), 0};
    glm::vec3 target{u(rng) * 0.5f, u(rng) * 0.5f, k % 4 == 0 ? u(rng) : 0.0f};
    Camera c = test::camera(eye, target, random_dir(rng), 40.0f + 40.0f * std::fabs(u(rng)), 0.1f, 20.0f);
    if (std::fabs(glm::dot(glm::normalize(c.up), glm::normalize(target - eye))) > 0.95f) c.up = {0, 0, 1};
    FrameParams fp = test::frame_params(grid, c, 160, 120, two_sided());
    Frame f = render(grid, fp);
    expect_clean(f, grid, fp, "edge-on-skew");
    EXPECT_LE(max_distance_from_plane_line(f.ids, CameraBasis(c, 160, 120), {0, 0, 1}), 1.0) << "camera " << k;
  }
}
