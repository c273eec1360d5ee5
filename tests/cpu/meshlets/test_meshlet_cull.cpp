// Whole-meshlet culling (kernels/frame/geometry/meshlet_cull.h): the bounds hold what they claim, the eye and facing
// come out of the matrix right, and a culled meshlet never holds a triangle the per-triangle
// front end would have drawn, except back-facing ones that snapping turned round.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "engine/load/load_model.h"
#include "engine/meshlets/meshlets.h"
#include "engine/render/frame_setup.h"
#include "engine/scene/generate.h"
#include "kernels/frame/geometry/meshlet_cull.h"
#include "kernels/frame/geometry/triangle.h"
#include "kernels/frame/geometry/vertex.h"
#include "tests/support/cull_checks.h"
#include "tests/support/ray_cast.h"
#include "tests/support/test_scenes.h"

using namespace facet;

namespace {

using test::to_dvec3;

RenderOptions culling() {
  RenderOptions r;
  r.cull_backfaces = true;
  return r;
}

std::vector<Scene> models() {
  std::vector<Scene> out;
  out.push_back(make_sphere(200000));
  for (const char* path : {"spot/spot_triangulated_with_mtl.obj", "bunny/stanford-bunny.obj", "teapot/teapot.obj",
                           "cornell_box/CornellBox-Original.obj"})
    out.push_back(load_model(test::shared_asset(path)));
  return out;
}

// Cameras around a scene: outside at several angles, close enough that part of it is off
// screen, inside its bounds (near plane through it), and looking away from it.
std::vector<Camera> cameras(const Scene& s) {
  glm::vec3 c(s.bounds.center.x, s.bounds.center.y, s.bounds.center.z);
  float r = s.bounds.radius;
  std::vector<Camera> out;
  for (int k = 0; k < 6; ++k) {
    float a = 1.1f * k;
    glm::vec3 dir(std::cos(a), 0.3f * (k - 2), std::sin(a));
    out.push_back(test::look_at(c + glm::normalize(dir) * 3.0f * r, c, 40.0f, 0.1f * r, 10.0f * r));
  }
  out.push_back(
      test::look_at(c + glm::vec3(0.8f * r, 0.2f * r, 0.9f * r), c + glm::vec3(r, 0, 0), 40.0f, 0.05f * r, 10.0f * r));
  out.push_back(
      test::look_at(c + glm::vec3(0.1f * r, 0.0f, 0.2f * r), c + glm::vec3(0, 0, -r), 60.0f, 0.3f * r, 10.0f * r));
  out.push_back(
      test::look_at(c + glm::vec3(0, 0, 2.0f * r), c + glm::vec3(0, 0, 4.0f * r), 40.0f, 0.1f * r, 10.0f * r));
  return out;
}

// The unsnapped window-space area (y down, as area2) of a triangle, from the float clip
// coordinates the vertex stage computes: > 0 is back-facing.
double unsnapped_area(const FrameParams& fp, Vec3 a, Vec3 b, Vec3 c) {
  Vec2 w[3];
  Vec3 p[3] = {a, b, c};
  for (int k = 0; k < 3; ++k) w[k] = clip_to_window(project_vertex(fp.view_proj, p[k]), fp.width, fp.height);
  return ((double)w[1].x - w[0].x) * ((double)w[2].y - w[0].y) - ((double)w[1].y - w[0].y) * ((double)w[2].x - w[0].x);
}

}  // namespace

TEST(MeshletCull, BoundsHoldEveryVertexAndEveryNormal) {
  for (const Scene& s : models()) {
    SCOPED_TRACE(s.source);
    Meshlets m = build_meshlets(s);
    size_t with_cone = 0;
    for (const Meshlet& ml : m.meshlets) {
      ASSERT_TRUE(std::isfinite(ml.radius));
      for (uint32_t v = 0; v < ml.vertex_count; ++v) {
        ASSERT_LE(glm::length(to_dvec3(m.positions[ml.first_vertex + v]) - to_dvec3(ml.center)), (double)ml.radius);
      }
      if (ml.cone_cos <= 0.0f) continue;
      ++with_cone;
      EXPECT_NEAR(ml.cone_cos * ml.cone_cos + ml.cone_sin * ml.cone_sin, 1.0, 1e-4);
      for (uint32_t slot = ml.first_triangle; slot < ml.first_triangle + ml.triangle_count; ++slot) {
        const uint32_t t = scene_triangle(m, slot);
        const glm::dvec3 p0 = to_dvec3(s.positions[s.indices[3 * t]]), p1 = to_dvec3(s.positions[s.indices[3 * t + 1]]);
        const glm::dvec3 p2 = to_dvec3(s.positions[s.indices[3 * t + 2]]);
        const glm::dvec3 n = glm::cross(p1 - p0, p2 - p0);
        ASSERT_GE(glm::dot(n, to_dvec3(ml.cone_axis)) / glm::length(n), (double)ml.cone_cos) << "triangle " << t;
      }
    }
    if (s.triangle_count() > 100000) {  // the dense sphere: patches of nearly parallel triangles
      EXPECT_GT(with_cone, m.meshlets.size() * 95 / 100);
    }
  }
}

TEST(MeshletCull, NonFiniteVertexNeverCulls) {
  Scene s = make_sphere(2000);
  s.positions[5].y = NAN;
  Meshlets m = build_meshlets(s);
  FrameParams fp = test::frame_params(s, test::look_at({0, 0, -30}, {0, 0, -40}, 40, 0.1f, 100), 64, 64);
  MeshletCull k = make_meshlet_cull(fp, make_clip_planes(fp.width, fp.height));
  int nan_meshlets = 0;
  for (const Meshlet& ml : m.meshlets)
    if (std::isnan(ml.radius)) {
      ++nan_meshlets;
      EXPECT_FALSE(meshlet_culled(k, ml)) << "looking away, yet the NaN must reach the per-triangle count";
    } else {
      EXPECT_TRUE(meshlet_culled(k, ml));
    }
  EXPECT_EQ(nan_meshlets, 1);
}

TEST(MeshletCull, EyeAndFacingComeFromTheMatrix) {
  Scene s = make_sphere(2000);
  Camera cam = test::look_at({1, 2, 3}, {0, 0, 0}, 40, 0.1f, 100);
  FrameParams fp = test::frame_params(s, cam, 64, 48, culling());
  MeshletCull k = make_meshlet_cull(fp, make_clip_planes(fp.width, fp.height));
  ASSERT_TRUE(k.enabled);
  EXPECT_NEAR(k.eye.x, 1.0f, 1e-4f);
  EXPECT_NEAR(k.eye.y, 2.0f, 1e-4f);
  EXPECT_NEAR(k.eye.z, 3.0f, 1e-4f);
  ASSERT_NE(k.facing, 0.0f);
  // Mirroring x turns every winding round: the facing sign must follow.
  FrameParams mirrored = fp;
  for (int c = 0; c < 4; ++c) mirrored.view_proj.m[4 * c] = -mirrored.view_proj.m[4 * c];
  EXPECT_EQ(make_meshlet_cull(mirrored, make_clip_planes(64, 48)).facing, -k.facing);
  fp.cull_backfaces = false;
  EXPECT_EQ(make_meshlet_cull(fp, make_clip_planes(64, 48)).facing, 0.0f);
}

// The property the renderer relies on, checked triangle by triangle on real models from many
// cameras (including a mirrored matrix): what a culled meshlet holds, the per-triangle front
// end culls too, with the same counts, or it is back-facing before snapping.
TEST(MeshletCull, CulledMeshletsHoldNothingTheTriangleTestDraws) {
  size_t culled_total = 0, meshlets_total = 0, flipped = 0, triangles_culled = 0;
  for (const Scene& s : models()) {
    SCOPED_TRACE(s.source);
    Meshlets m = build_meshlets(s);
    std::vector<Camera> cams = cameras(s);
    for (size_t ci = 0; ci <= cams.size(); ++ci) {
      SCOPED_TRACE(ci);
      FrameParams fp = test::frame_params(s, cams[ci % cams.size()], 320, 200, culling());
      if (ci == cams.size())
        for (int c = 0; c < 4; ++c) fp.view_proj.m[4 * c] = -fp.view_proj.m[4 * c];
      const MeshletCull k = make_meshlet_cull(fp, make_clip_planes(fp.width, fp.height));
      const test::CulledMeshletTally tally = test::check_culled_meshlets(s, m, fp, k, [&](uint32_t t) {
        double a = unsnapped_area(fp, s.positions[s.indices[3 * t]], s.positions[s.indices[3 * t + 1]],
                                  s.positions[s.indices[3 * t + 2]]);
        EXPECT_GT(a, 0.0) << "triangle " << t << " faces the eye but its meshlet was culled";
      });
      meshlets_total += tally.meshlets;
      culled_total += tally.culled;
      triangles_culled += tally.triangles;
      flipped += tally.drawn;
    }
  }
  std::printf("culled %zu of %zu meshlets, %zu triangles, %zu flipped\n", culled_total, meshlets_total,
              triangles_culled, flipped);
  // Culling has to do something for the test to mean anything: about half the meshlets of a
  // closed model face away, more where the view cuts the model.
  EXPECT_GT(culled_total, meshlets_total / 3);
  EXPECT_LT(flipped, triangles_culled / 1000 + 1) << "snapping turns round only a few slivers";
}

TEST(MeshletCull, TurnedOffOnlyWhenNothingCanBeDropped) {
  Scene s = make_sphere(2000);
  const Vec3 c = s.bounds.center;
  const float r = s.bounds.radius;
  auto cull_for = [&](glm::vec3 eye, bool backfaces) {
    RenderOptions settings;
    settings.cull_backfaces = backfaces;
    settings.two_sided = !backfaces;  // the closed sphere would skip them by itself
    FrameParams fp = test::frame_params(s, test::look_at(eye, {0, 0, 0}, 40, 0.1f, 100), 64, 48, settings);
    MeshletCull k = make_meshlet_cull(fp, make_clip_planes(fp.width, fp.height));
    skip_meshlet_cull_when_useless(k, c, r, (uint32_t)build_meshlets(s).meshlets.size());
    return k.enabled;
  };
  EXPECT_FALSE(cull_for({0, 0, 10}, false)) << "whole sphere in view, back faces kept";
  EXPECT_TRUE(cull_for({0, 0, 10}, true)) << "back faces to drop";
  EXPECT_TRUE(cull_for({0, 0, 1.5f}, false)) << "the frame's edges cut the sphere";
}

// A dense model seen small (a grid of scans framed whole): in a 1-sample frame most meshlets
// fall between the pixel centres and go whole. None of them may hold a triangle that setup would
// draw, with back faces kept so that nothing else culls them; the test has to drop many, or it
// saves nothing, and keep those that reach a centre. Frames of 4 and 8 samples leave it off.
TEST(MeshletCull, MeshletsBetweenPixelCentresHoldNothingTheTriangleTestDraws) {
  std::vector<Scene> scenes;
  scenes.push_back(make_sphere(200000));
  scenes.push_back(load_model(test::shared_asset("bunny/stanford-bunny.obj")));
  size_t meshlets_total = 0, between = 0, kept_at_nearest = 0;
  for (const Scene& s : scenes) {
    SCOPED_TRACE(s.source);
    const Meshlets m = build_meshlets(s);
    const glm::vec3 c(s.bounds.center.x, s.bounds.center.y, s.bounds.center.z);
    const float r = s.bounds.radius;
    // About 18, 5.5 and 1.8 px across a 200 px high frame; off centre, so the frame's side and
    // the perspective's slant both show.
    for (float distance : {30.0f, 100.0f, 300.0f}) {
      for (int samples : {1, 4, 8}) {
        SCOPED_TRACE(testing::Message() << "distance " << distance << " r, " << samples << " samples");
        RenderOptions settings;
        settings.two_sided = true;
        settings.samples = (uint8_t)samples;
        const glm::vec3 eye = c + glm::normalize(glm::vec3(0.4f, 0.3f, 1.0f)) * distance * r;
        FrameParams fp = test::frame_params(
            s, test::look_at(eye, c + glm::vec3(0.1f * r, 0, 0), 40.0f, 0.1f * r, 1000.0f * r), 320, 200, settings);
        ASSERT_EQ(fp.samples, samples);
        const MeshletCull k = make_meshlet_cull(fp, make_clip_planes(fp.width, fp.height));
        if (samples > 1) {
          EXPECT_FALSE(k.between_samples);
          continue;
        }
        ASSERT_TRUE(k.enabled && k.between_samples);
        ASSERT_EQ(k.facing, 0.0f);
        // The renderers keep the test where the meshlets are that thin on screen.
        MeshletCull gated = k;
        skip_meshlet_cull_when_useless(gated, s.bounds.center, r, (uint32_t)m.meshlets.size());
        if (distance == 300.0f) {
          EXPECT_TRUE(gated.enabled && gated.between_samples) << "a dense model seen small keeps the test";
        }
        const test::CulledMeshletTally tally = test::check_culled_meshlets(s, m, fp, k, [&](uint32_t t) {
          ADD_FAILURE() << "triangle " << t << " would be drawn, yet its meshlet was culled";
        });
        MeshletCull without = k;
        without.between_samples = false;
        size_t here = 0;
        for (const Meshlet& ml : m.meshlets) here += meshlet_culled(k, ml) && !meshlet_culled(without, ml);
        meshlets_total += m.meshlets.size();
        between += here;
        if (distance == 30.0f) kept_at_nearest += m.meshlets.size() - tally.culled;
        // About 2 px across: most meshlets (the sphere's are strips a fifth of it long) fall
        // between the pixel centres.
        if (distance == 300.0f) {
          EXPECT_GT(here, m.meshlets.size() / 2);
        }
      }
    }
  }
  std::printf("between pixel centres: %zu of %zu meshlets\n", between, meshlets_total);
  EXPECT_GT(kept_at_nearest, 0u) << "the test keeps those that reach a pixel centre";
}
