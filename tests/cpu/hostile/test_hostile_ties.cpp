// Hostile geometry on the CPU backend (issue 5), overdraw and exact depth ties: a million
// triangles on one pixel (the nearest, lowest index wins), coplanar overlapping triangles (every
// tie to the lowest index), and copies of a mesh (only the first copy shows). Also every scene of
// the shared hostile list (tests/support/hostile_scenes.h, what the CUDA backend is compared on)
// renders without garbage. The checks are in tests/support/hostile_checks.h.
#include <gtest/gtest.h>

#include <memory>
#include <random>

#include "engine/scene/generate.h"
#include "tests/support/hostile_checks.h"
#include "tests/support/hostile_scenes.h"
#include "tests/support/test_scenes.h"

using namespace facet;
using namespace facet::test;

TEST(HostileGeometry, AMillionTrianglesOnOnePixelFinishAndTheNearestLowestIndexWins) {
  auto s = std::make_shared<Scene>(kPile.scene());
  FrameParams fp = test::frame_params(*s, kPile.camera(), kPile.width, kPile.height, two_sided());
  Frame f = render(s, fp);
  EXPECT_EQ(f.ids[(size_t)kPile.py * kPile.width + kPile.px], kPile.winner);
  EXPECT_EQ(expect_clean(f, *s, fp, "pile"), 1u) << "pixels other than the target were covered";
  EXPECT_EQ(f.tris.drawn, kPile.count);
}

TEST(HostileGeometry, CoplanarOverlappingTrianglesTieToTheLowestIndexAtEveryPixel) {
  // 300 random overlapping triangles in the plane z = 0 facing the camera: one window depth for
  // all, so every overlap is an exact tie; each pixel must show the lowest index covering it.
  std::mt19937 rng(37);
  std::uniform_real_distribution<float> u(-1.3f, 1.3f);
  std::vector<Vec3> p;
  std::vector<uint32_t> idx;
  for (uint32_t t = 0; t < 300; ++t)
    for (int k = 0; k < 3; ++k) {
      p.push_back({u(rng), u(rng), 0});
      idx.push_back((uint32_t)p.size() - 1);
    }
  Scene s = test::make_mesh(p, idx, "coplanar");
  Camera c = test::look_at({0, 0, 3}, {0, 0, 0}, 50.0f, 0.1f, 10.0f);
  FrameParams fp = test::frame_params(s, c, 160, 120, two_sided());
  Hits h = hit_counts(s, fp);
  size_t overlapped = 0;
  for (int n : h.count) overlapped += n > 1;
  ASSERT_GT(overlapped, 5000u) << "the scene should overlap a lot";
  Frame f = render(s, fp);
  expect_clean(f, s, fp, "coplanar");
  size_t wrong = 0;
  for (size_t i = 0; i < f.ids.size(); ++i) wrong += f.ids[i] != h.min_id[i];
  EXPECT_EQ(wrong, 0u) << "pixels where a tie did not go to the lowest index";
}

TEST(HostileGeometry, CopiesOfAMeshShowOnlyTheFirstCopy) {
  Scene one = make_sphere(3000);
  Scene four = test::repeat_mesh(one, 4);
  std::mt19937 rng(41);
  for (int k = 0; k < 6; ++k) {
    // Outside, and (k >= 4) inside the sphere so that the near plane cuts the copies too.
    Camera c = k < 4 ? test::look_at(random_dir(rng) * 2.8f, {0, 0, 0}, 50.0f, 0.1f, 10.0f)
                     : test::look_at(random_dir(rng) * 0.5f, random_dir(rng), 90.0f, 0.3f, 10.0f);
    FrameParams fp = test::frame_params(four, c, 160, 120, two_sided());
    Frame f4 = render(four, fp);
    size_t covered = expect_clean(f4, four, fp, "copies", [&](uint32_t id) { return id < one.triangle_count(); });
    EXPECT_GT(covered, 1000u);
    EXPECT_EQ(f4.ids, render(one, fp).ids) << "camera " << k;
  }
}

TEST(HostileGeometry, EverySharedHostileSceneRendersWithoutGarbage) {
  for (const HostileCase& hc : test::hostile_cases()) {
    Frame f = render(hc.scene, hc.fp);
    expect_clean(f, *hc.scene, hc.fp, hc.name);
    const TriCounters& t = f.tris;
    EXPECT_LE(t.culled + t.nan + (t.clipped ? 1u : 0u), hc.scene->triangle_count()) << hc.name;
  }
}
