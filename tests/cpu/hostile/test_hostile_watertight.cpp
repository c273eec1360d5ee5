// Watertightness of dense closed meshes on the CPU backend (issue 5), by hit counts through the
// shared front end with no depth test: from outside every pixel centre is crossed an even number
// of times, from inside an odd number (once for convex meshes). A torus, a box of many triangles,
// a thin slab, spheres seen from very close, huge and tiny spheres, and a huge ground plane, from
// random, grazing and very close cameras. The checks are in tests/support/hostile_checks.h.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "engine/scene/generate.h"
#include "tests/support/hostile_checks.h"
#include "tests/support/hostile_scenes.h"
#include "tests/support/image_compare.h"
#include "tests/support/test_scenes.h"

using namespace facet;
using namespace facet::test;

TEST(HostileWatertight, TorusFromRandomAndGrazingCamerasIsHitAnEvenNumberOfTimes) {
  Scene torus = test::make_torus(160, 48, 1.0f, 0.35f);
  std::mt19937 rng(43);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<Camera> cams;
  for (int k = 0; k < 8; ++k)
    cams.push_back(test::look_at(random_dir(rng) * (1.6f + 3.0f * u(rng)), {0.3f * u(rng), 0, 0}, 50.0f, 0.01f, 20.0f));
  // Exactly in the torus' plane (seen edge-on), just above it, and down through the hole.
  cams.push_back(test::look_at({3.0f, 0, 1.0f}, {0, 0, 0}, 50.0f, 0.01f, 20.0f));
  cams.push_back(test::look_at({-2.5f, 0.36f, 0.2f}, {0.5f, 0.34f, 0}, 70.0f, 0.01f, 20.0f));
  cams.push_back(test::camera({0, 3.0f, 0}, {0, 0, 0}, {1, 0, 0}, 60.0f, 0.01f, 20.0f));
  expect_hits(torus, cams, 160, 120, "an even number of times", hit_even);
}

TEST(HostileWatertight, InsideTheTorusTubeEveryPixelIsHitAnOddNumberOfTimes) {
  Scene torus = test::make_torus(160, 48, 1.0f, 0.35f);
  std::mt19937 rng(47);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<Camera> cams;
  for (int k = 0; k < 6; ++k) {
    float a = 3.14159265f * u(rng);
    glm::vec3 eye = glm::vec3(std::cos(a), 0, std::sin(a)) * (1.0f + 0.1f * u(rng)) + glm::vec3(0, 0.1f * u(rng), 0);
    cams.push_back(test::look_at(eye, eye + random_dir(rng), 90.0f, 0.01f, 20.0f));
  }
  expect_hits(torus, cams, 128, 96, "an odd number of times", hit_odd);
}

TEST(HostileWatertight, BoxOfManyTrianglesFromGrazingCamerasIsHitAnEvenNumberOfTimes) {
  Scene box = test::make_box(24, {1, 1, 1});
  std::mt19937 rng(53);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<Camera> cams;
  for (float eps : {0.0f, 1e-6f, 1e-4f, 1e-2f}) {
    // Beside the box, a hair above the plane of its top face, looking along that face.
    cams.push_back(test::look_at({-1.5f, 1.0f + eps, 0.3f * u(rng)}, {1.0f, 1.0f, 0.4f * u(rng)}, 60.0f, 0.01f, 20.0f));
    // Looking along an edge, and from a corner diagonal.
    cams.push_back(test::look_at({-3.0f, 1.0f + eps, 1.0f + eps}, {1.0f, 1.0f, 1.0f}, 40.0f, 0.01f, 20.0f));
  }
  for (int k = 0; k < 4; ++k) cams.push_back(test::look_at(random_dir(rng) * 3.5f, {0, 0, 0}, 50.0f, 0.01f, 20.0f));
  expect_hits(box, cams, 160, 120, "an even number of times", hit_even, 20);
}

TEST(HostileWatertight, InsideTheBoxEveryPixelIsHitOnce) {
  Scene box = test::make_box(24, {1, 1, 1});
  std::mt19937 rng(59);
  std::uniform_real_distribution<float> u(-0.8f, 0.8f);
  std::vector<Camera> cams;
  for (int k = 0; k < 6; ++k) {
    glm::vec3 eye{u(rng), u(rng), u(rng)};
    cams.push_back(test::look_at(eye, eye + random_dir(rng), 100.0f, 0.01f, 20.0f));
  }
  expect_hits(box, cams, 128, 96, "exactly once", hit_once);
}

TEST(HostileWatertight, ThinSlabSeenAtGrazingAnglesIsHitAnEvenNumberOfTimes) {
  Scene slab = test::make_box(16, {1.0f, 1e-3f, 1.0f});
  std::mt19937 rng(61);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<Camera> cams;
  for (float elev_deg : {0.0f, 0.005f, 0.05f, 0.5f, 3.0f}) {
    float a = 6.2831853f * u(rng), e = glm::radians(elev_deg);
    glm::vec3 eye = glm::vec3(std::cos(e) * std::cos(a), std::sin(e), std::cos(e) * std::sin(a)) * 3.0f;
    cams.push_back(test::look_at(eye, {0, 0, 0}, 50.0f, 0.01f, 20.0f));
  }
  // Edge-on the slab may cover no pixel centre at all; from 3 degrees it must show (a few pixels
  // high), else the hit counts prove nothing.
  const std::vector<Camera> grazing(cams.begin(), cams.end() - 1), steepest(cams.end() - 1, cams.end());
  expect_hits(slab, grazing, 160, 120, "an even number of times", hit_even, 0);
  expect_hits(slab, steepest, 160, 120, "an even number of times", hit_even, 50);
}

TEST(HostileWatertight, VeryCloseCamerasOutsideASphereSeeNoCracks) {
  Scene sphere = make_sphere(20000);
  std::mt19937 rng(67);
  std::vector<Camera> cams;
  for (int k = 0; k < 8; ++k) {
    glm::vec3 n = random_dir(rng);
    float gap = k < 4 ? 1e-3f : 1e-2f;
    glm::vec3 eye = n * (1.0f + gap);
    glm::vec3 tangent = glm::normalize(glm::cross(n, random_dir(rng)));
    // Straight at the surface, along it (grazing), and in between.
    glm::vec3 dir = k % 3 == 0 ? -n : (k % 3 == 1 ? tangent : glm::normalize(tangent - n));
    cams.push_back(test::look_at(eye, eye + dir, 90.0f, gap * 0.1f, 10.0f));
  }
  expect_hits(sphere, cams, 160, 120, "an even number of times", hit_even);
}

TEST(HostileWatertight, HugeAndTinySpheresAreWatertightFromOutsideAndInside) {
  std::mt19937 rng(71);
  for (float scale : {1e6f, 1e-6f}) {
    Vec3 centre{2.0f * scale, -1.0f * scale, 0.5f * scale};
    Scene sphere = make_sphere(20000, scale, centre);
    sphere.source = "sphere-r" + std::to_string(scale);
    glm::vec3 c{centre.x, centre.y, centre.z};
    std::vector<Camera> outside, inside;
    for (int k = 0; k < 5; ++k) {
      outside.push_back(test::look_at(c + random_dir(rng) * (1.5f + k) * scale, c + random_dir(rng) * 0.2f * scale,
                                      50.0f, 0.01f * scale, 20.0f * scale));
      glm::vec3 eye = c + random_dir(rng) * 0.3f * scale;
      inside.push_back(test::look_at(eye, eye + random_dir(rng) * scale, 90.0f, 0.05f * scale, 20.0f * scale));
    }
    expect_hits(sphere, outside, 160, 120, "an even number of times", hit_even);
    expect_hits(sphere, inside, 128, 96, "exactly once", hit_once);
  }
}

TEST(HostileWatertight, HugeGroundPlaneAtGrazingAnglesIsHitOnceBelowTheHorizon) {
  // A 2e6-wide plane of 8192 triangles under cameras 1e-3 to 100 units above it: triangles
  // cross the near plane, the guard band and the far plane at once. No pixel is hit twice, and
  // every pixel whose ray meets the plane (away from the horizon and the plane's far border) is hit.
  Scene ground = test::make_ground(64, 1e6f);
  std::mt19937 rng(73);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const int W = 160, H = 120;
  for (float height : {1e-3f, 1.0f, 100.0f}) {
    for (int k = 0; k < 3; ++k) {
      glm::vec3 eye{u(rng) * 1e3f, height, u(rng) * 1e3f};
      glm::vec3 dir = glm::normalize(glm::vec3(u(rng), -0.05f - 0.2f * std::fabs(u(rng)) * k, u(rng)));
      Camera c = test::look_at(eye, eye + dir, 70.0f, 0.2f * height, 1e7f);
      FrameParams fp = test::frame_params(ground, c, W, H, two_sided());
      Hits h = hit_counts(ground, fp);
      CameraBasis cb(c, W, H);
      std::vector<uint32_t> want((size_t)W * H, kNoTriangle), got((size_t)W * H, kNoTriangle);
      size_t twice = 0;
      for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
          size_t i = (size_t)y * W + x;
          glm::dvec3 d = cb.ray(x, y);
          double t = d.y < 0 ? -cb.eye.y / d.y : -1;
          glm::dvec3 q = cb.eye + d * t;
          if (t >= c.near_plane && t <= c.far_plane && std::fabs(q.x) < 1e6 && std::fabs(q.z) < 1e6) want[i] = 0;
          if (h.count[i] > 0) got[i] = 0;
          twice += h.count[i] > 1;
        }
      EXPECT_EQ(twice, 0u) << "height " << height << " camera " << k;
      test::IdComparison cmp = test::compare_ids(want, got, W, H, 1);
      EXPECT_EQ(cmp.interior_differing, 0u) << "height " << height << " camera " << k;
      EXPECT_GT(cmp.covered, 1000u);
    }
  }
}
