// Hostile geometry on the CPU backend (issue 5), near the eye: triangles crossing the near plane
// (matched against the double-precision ray caster), triangles entirely behind the camera (none
// drawn, none mirrored), and a vertex exactly at the eye (at most the line of its plane drawn).
// Scenes are built here; the checks are in tests/support/hostile_checks.h.
#include <gtest/gtest.h>

#include <random>

#include "tests/support/hostile_checks.h"
#include "tests/support/hostile_scenes.h"
#include "tests/support/test_scenes.h"

using namespace facet;
using namespace facet::test;

TEST(HostileGeometry, TrianglesCrossingTheNearPlaneShowOnlyTheirPartInFront) {
  // One vertex behind the eye; two behind; and a "floor" that runs under and behind the camera.
  Scene s = test::make_mesh({{-1, -1, 0},
                             {1.5f, -0.5f, 0},
                             {0.3f, 0.8f, 9},
                             {-2, 1, 1},
                             {0.5f, 1.2f, 7},
                             {1, 2, 6.5f},
                             {-3, -1.5f, -4},
                             {3, -1.5f, -4},
                             {0, -1.0f, 30}},
                            {0, 1, 2, 3, 4, 5, 6, 7, 8}, "near-plane");
  expect_matches_ray_cast(s, kFront, 160, 120, "near-plane");
  EXPECT_EQ(hit_counts(s, test::frame_params(s, kFront, 160, 120, two_sided())).tris.clipped, 3u);
  // A near plane close to the eye and a wide field of view: the cut pieces reach the guard band.
  expect_matches_ray_cast(s, test::look_at({0, 0, 5}, {0, 0, 0}, 120.0f, 1e-3f, 100.0f), 160, 120, "near-plane-wide");
}

TEST(HostileGeometry, TrianglesEntirelyBehindTheCameraDrawNothing) {
  // Mirrored (the divide-by-|z| mistake) several of these would fill the frame.
  std::vector<Vec3> p;
  std::vector<uint32_t> idx;
  for (float s : {1.0f, 1e3f, 1e6f, 1e30f}) {
    uint32_t b = (uint32_t)p.size();
    p.insert(p.end(), {{-s, -s, 5.5f}, {s, -s, 5.5f}, {0, s, 5.0001f + s}});
    idx.insert(idx.end(), {b, b + 1, b + 2});
  }
  Scene s = test::make_mesh(p, idx, "behind");
  FrameParams fp = test::frame_params(s, kFront, 160, 120, two_sided());
  Frame f = render(s, fp);
  EXPECT_EQ(expect_clean(f, s, fp, "behind"), 0u) << "something behind the camera was drawn";
  EXPECT_EQ(f.tris.culled, s.triangle_count());
  EXPECT_EQ(f.tris.drawn, 0u);
}

TEST(HostileGeometry, VertexExactlyAtTheEyeDrawsAtMostTheLineOfItsPlane) {
  // A triangle with a vertex at the eye lies in a plane through the eye: it is seen edge-on.
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int k = 0; k < 12; ++k) {
    glm::vec3 eye{u(rng) * 3, u(rng) * 3, 4 + u(rng)};
    Camera c = test::camera(eye, {u(rng) * 0.2f, u(rng) * 0.2f, 0}, glm::normalize(glm::vec3(u(rng) * 0.3f, 1, 0)),
                            60.0f, 0.05f, 50.0f);
    Vec3 e{eye.x, eye.y, eye.z};
    Vec3 a{u(rng), u(rng), u(rng)}, b{u(rng), u(rng), u(rng)};
    // One vertex at the eye, in each position; then two.
    Scene s = test::make_mesh({e, a, b}, {0, 1, 2, 1, 0, 2, 1, 2, 0, 0, 0, 1}, "vertex-at-eye");
    FrameParams fp = test::frame_params(s, c, 160, 120, two_sided());
    Frame f = render(s, fp);
    expect_clean(f, s, fp, "vertex-at-eye");
    EXPECT_EQ(f.tris.nan, 0u) << "w = 0 at the eye is finite: clipped, not dropped as NaN";
    CameraBasis cb(c, 160, 120);
    glm::dvec3 n = glm::cross(glm::dvec3(a.x, a.y, a.z) - cb.eye, glm::dvec3(b.x, b.y, b.z) - cb.eye);
    EXPECT_LE(max_distance_from_plane_line(f.ids, cb, n), 1.0) << "camera " << k;
  }
}
