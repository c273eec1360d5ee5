// Culling under orthographic cameras: whole-meshlet culling (kernels/frame/geometry/meshlet_cull.h) takes its facing
// from the view direction and never drops a meshlet holding a triangle the per-triangle front end
// would draw; occlusion culling's sphere bounds (kernels/frame/geometry/occlusion.h) hold every point of the
// sphere as the vertex stage projects it; the scene's pixel box holds every covered pixel.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "engine/load/load_model.h"
#include "engine/meshlets/meshlets.h"
#include "engine/render/cpu_renderer.h"
#include "engine/render/frame_setup.h"
#include "engine/scene/generate.h"
#include "kernels/frame/geometry/meshlet_cull.h"
#include "kernels/frame/geometry/occlusion.h"
#include "kernels/frame/geometry/triangle.h"
#include "kernels/frame/geometry/vertex.h"
#include "tests/support/cull_checks.h"
#include "tests/support/hostile_scenes.h"
#include "tests/support/test_scenes.h"

using namespace facet;

namespace {

RenderOptions culling() {
  RenderOptions r;
  r.cull_backfaces = true;
  return r;
}

uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// Orthographic cameras around a scene: outside at several angles seeing all of it, zoomed in on
// part of it (the rest off screen), with the eye inside its bounds, and tilted off the centre.
std::vector<Camera> ortho_cameras(const Scene& s) {
  const glm::vec3 c(s.bounds.center.x, s.bounds.center.y, s.bounds.center.z);
  const float r = s.bounds.radius;
  std::vector<Camera> out;
  for (int k = 0; k < 5; ++k) {
    const float a = 1.3f * k;
    const glm::vec3 dir = glm::normalize(glm::vec3(std::cos(a), 0.4f * (k - 2), std::sin(a)));
    out.push_back(test::ortho_look_at(c + dir * 3.0f * r, c, 2.4f * r, 0.1f * r, 6.0f * r));
  }
  out.push_back(test::ortho_look_at(c + glm::vec3(0.2f, 0.3f, 3.0f) * r, c + glm::vec3(0.5f * r, 0, 0), 0.6f * r,
                                    0.1f * r, 6.0f * r));
  out.push_back(test::ortho_look_at(c + glm::vec3(0.1f, 0.0f, 0.2f) * r, c + glm::vec3(0.3f, 0.2f, -1.0f) * r, 1.5f * r,
                                    -2.0f * r, 2.0f * r));
  return out;
}

}  // namespace

TEST(OrthographicCull, FacingComesFromTheViewDirection) {
  Scene s = make_sphere(2000);
  FrameParams fp = test::frame_params(s, test::ortho_look_at({0, 0, 5}, {0, 0, 0}, 3, 0.1f, 10), 64, 48, culling());
  const MeshletCull k = make_meshlet_cull(fp, make_clip_planes(64, 48));
  ASSERT_TRUE(k.enabled);
  ASSERT_TRUE(k.parallel);
  EXPECT_NEAR(std::fabs(k.eye.z), 1.0f, 1e-6f);
  // A normal towards the viewer (+Z) is front-facing, one away from it back-facing.
  EXPECT_LT(k.facing * k.eye.z, 0.0f);
  // Mirroring x turns every winding round: a normal towards the viewer is back-facing then.
  FrameParams mirrored = fp;
  for (int c = 0; c < 4; ++c) mirrored.view_proj.m[4 * c] = -mirrored.view_proj.m[4 * c];
  const MeshletCull m = make_meshlet_cull(mirrored, make_clip_planes(64, 48));
  EXPECT_GT(m.facing * m.eye.z, 0.0f);
  fp.cull_backfaces = false;
  EXPECT_EQ(make_meshlet_cull(fp, make_clip_planes(64, 48)).facing, 0.0f);
}

TEST(OrthographicCull, TheFrustumIsTheViewBox) {
  // The planes through the frame's edges, in world space, of a 4 x 3 view looking down -Z: the
  // left and right ones face each other 4 apart, the top and bottom ones 3 apart (a perspective
  // frustum's would meet behind the eye).
  Scene s = make_sphere(200);
  const FrameParams fp = test::frame_params(s, test::ortho_look_at({1, 2, 5}, {1, 2, 0}, 3, 0.1f, 10), 80, 60);
  const MeshletCull k = make_meshlet_cull(fp, make_clip_planes(80, 60));
  ASSERT_TRUE(k.enabled);
  for (int pair = 0; pair < 2; ++pair) {
    const Plane& a = k.side[2 * pair];
    const Plane& b = k.side[2 * pair + 1];
    EXPECT_NEAR(dot(a.n, b.n), -1.0f, 1e-6f) << "parallel, facing each other";
    EXPECT_NEAR(a.d + b.d, pair == 0 ? 4.0f : 3.0f, 1e-4f) << "the view's width, then height";
  }
  EXPECT_NEAR(k.clip[0].n.z, -1.0f, 1e-6f) << "the near plane faces away from the eye";
}

// What a culled meshlet holds, the per-triangle front end culls too, with the same counts, or it
// is back-facing before snapping (as for perspective, test_meshlet_cull.cpp).
TEST(OrthographicCull, CulledMeshletsHoldNothingTheTriangleTestDraws) {
  std::vector<Scene> models;
  models.push_back(make_sphere(100000));
  models.push_back(load_model(test::shared_asset("bunny/stanford-bunny.obj")));
  size_t culled = 0, total = 0, flipped = 0, triangles = 0;
  for (const Scene& s : models) {
    SCOPED_TRACE(s.source);
    const Meshlets m = build_meshlets(s);
    for (const Camera& cam : ortho_cameras(s)) {
      const FrameParams fp = test::frame_params(s, cam, 320, 200, culling());
      const MeshletCull k = make_meshlet_cull(fp, make_clip_planes(fp.width, fp.height));
      ASSERT_TRUE(k.parallel);
      const test::CulledMeshletTally tally = test::check_culled_meshlets(s, m, fp, k, [&](uint32_t t) {
        // Back-facing before snapping: its normal turned away from the view (against -eye's sign).
        const Vec3 a = s.positions[s.indices[3 * t]], b = s.positions[s.indices[3 * t + 1]],
                   cc = s.positions[s.indices[3 * t + 2]];
        EXPECT_GT(k.facing * dot(cross(b - a, cc - a), k.eye), 0.0f) << "triangle " << t << " faces the view";
      });
      total += tally.meshlets;
      culled += tally.culled;
      triangles += tally.triangles;
      flipped += tally.drawn;
    }
  }
  std::printf("culled %zu of %zu meshlets, %zu triangles, %zu flipped\n", culled, total, triangles, flipped);
  EXPECT_GT(culled, total / 3) << "culling has to do something for the test to mean anything";
  EXPECT_LT(flipped, triangles / 1000 + 1);
}

TEST(OrthographicCull, EveryFrontFaceTheUnculledFrameShowsStillShows) {
  // Culling removes triangles only: wherever the frame with every triangle (two-sided) shows a
  // triangle facing the view, the frame with back faces culled (whole meshlets first) shows that
  // same triangle. Nearly edge-on triangles are left out: snapping decides their facing.
  auto scene = std::make_shared<Scene>(make_sphere(50000));
  const Scene& s = *scene;
  size_t checked = 0;
  for (const Camera& cam : ortho_cameras(s)) {
    CpuRenderer r;
    r.set_scene(scene);
    const FrameParams fp = test::frame_params(s, cam, 160, 120, culling());
    const MeshletCull k = make_meshlet_cull(fp, make_clip_planes(160, 120));
    r.render(fp);
    std::vector<uint32_t> culled_ids, all_ids;
    r.read_triangle_ids(culled_ids);
    EXPECT_GT(r.stats().tris.culled, s.triangle_count() / 3);
    r.render(test::frame_params(s, cam, 160, 120, test::two_sided()));
    r.read_triangle_ids(all_ids);
    for (size_t i = 0; i < all_ids.size(); ++i) {
      const uint32_t t = all_ids[i];
      if (t == ~0u) continue;
      const Vec3 a = s.positions[s.indices[3 * t]], b = s.positions[s.indices[3 * t + 1]],
                 c = s.positions[s.indices[3 * t + 2]];
      const Vec3 n = normalize(cross(b - a, c - a));
      if (!(k.facing * dot(n, k.eye) < -1e-2f)) continue;  // back-facing or nearly edge-on
      ++checked;
      ASSERT_EQ(culled_ids[i], t) << "pixel " << i % 160 << "," << i / 160;
    }
  }
  EXPECT_GT(checked, 20000u);
}

TEST(OrthographicOcclusion, CallsHiddenOnlyWhatEveryPointOfItIsBehind) {
  constexpr int W = 320, H = 240;
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f), u01(0.0f, 1.0f);
  int hidden = 0, shown = 0;
  for (int cam = 0; cam < 6; ++cam) {
    const glm::vec3 eye = glm::normalize(glm::vec3(u(rng), u(rng), u(rng) + 1.5f)) * (3.0f + 3.0f * u01(rng));
    const FrameParams fp =
        test::frame_params(make_sphere(20), test::ortho_look_at(eye, {0, 0, 0}, 4.0f, 0.2f, 12.0f), W, H);
    std::vector<uint32_t> hiz((size_t)hiz_tiles(W) * hiz_tiles(H)),
        coarse((size_t)hiz_coarse_tiles(W) * hiz_coarse_tiles(H));
    const OcclusionTest o = make_occlusion_test(fp, hiz.data(), coarse.data());
    const ClipPlanes planes = make_clip_planes(W, H);
    for (int s = 0; s < 300; ++s) {
      const Vec3 c{1.5f * u(rng), 1.5f * u(rng), 1.5f * u(rng)};
      const float r = 0.01f + 0.4f * u01(rng) * u01(rng);
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
            project_and_snap(fp.view_proj, {c.x + d.x * t, c.y + d.y * t, c.z + d.z * t}, planes, W, H);
        if (v.code != 0) continue;
        const int px = v.x >> kSubpixelBits, py = v.y >> kSubpixelBits;
        if (px < 0 || py < 0 || px >= W || py >= H) continue;
        hits.push_back({(py / kHizTile) * o.tiles_x + px / kHizTile, float_bits(v.z)});
        nearest = std::min(nearest, v.z);
        farthest = std::max(farthest, v.z);
      }
      // Tile bounds all in front of the sphere for half of them, around its nearest depth for
      // the others (the calls a loose bound would get wrong).
      const float spread = std::max(farthest - nearest, 1e-5f);
      for (uint32_t& b : hiz) {
        const float d = s % 2 == 0 ? nearest - spread * (1.0f + 3.0f * u01(rng)) - 2e-5f : nearest + spread * u(rng);
        b = float_bits(std::clamp(d, 0.0f, 1.0f));
      }
      std::fill(coarse.begin(), coarse.end(), 0u);
      for (int ty = 0; ty < o.tiles_y; ++ty)
        for (int tx = 0; tx < o.tiles_x; ++tx) {
          uint32_t& cb = coarse[(size_t)(ty / kHizCoarse) * o.coarse_x + tx / kHizCoarse];
          cb = std::max(cb, hiz[(size_t)ty * o.tiles_x + tx]);
        }
      if (!sphere_occluded(o, c, r, [](const uint32_t* a) { return *a; })) {
        ++shown;
        continue;
      }
      ++hidden;
      for (const Hit& h : hits) ASSERT_LT(hiz[h.tile], h.depth) << "camera " << cam << " sphere " << s;
    }
  }
  EXPECT_GT(hidden, 100);
  EXPECT_GT(shown, 100);
}

TEST(OrthographicOcclusion, TheScenePixelBoxHoldsEveryCoveredPixel) {
  constexpr int W = 320, H = 240;
  const Scene s = make_sphere(20000, 1.0f, {0.3f, -0.2f, 0.1f});
  CpuRenderer r;
  r.set_scene(std::make_shared<Scene>(s));
  for (const Camera& cam : {test::ortho_look_at({0, 0, 6}, {0, 0, 0}, 4.0f, 0.1f, 12.0f),
                            test::ortho_look_at({2.5f, 1.0f, 1.5f}, {0, 0, 0}, 3.0f, 0.1f, 12.0f),
                            test::ortho_look_at({0, 0, 3}, {1.5f, 0.5f, 0}, 2.0f, 0.1f, 12.0f),
                            test::ortho_look_at({0.3f, -0.2f, 0.5f}, {0.3f, -0.2f, 0}, 3.0f, -2.0f, 3.0f)}) {
    const FrameParams fp = test::frame_params(s, cam, W, H);
    const PixelBox box = scene_pixel_box(fp, s.bounds.center, s.bounds.radius);
    const test::BoxCoverage c = test::covered_pixels_against_box(r, fp, box);
    EXPECT_GT(c.covered, 0u);
    EXPECT_EQ(c.outside, 0u);
    EXPECT_LT((int64_t)(box.x1 - box.x0 + 1) * (box.y1 - box.y0 + 1), (int64_t)W * H) << "bounded in orthographic";
  }
}
