// Meshlets: every triangle is found once, with exactly its own vertices' positions, the limits
// hold, and patches are compact, on real models, a generated sphere and meshes built to hit
// each limit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "engine/load/load_model.h"
#include "engine/meshlets/meshlets.h"
#include "engine/scene/generate.h"
#include "tests/support/scene_edits.h"
#include "tests/support/test_scenes.h"

using namespace facet;

namespace {

// Rebuilds every triangle from the meshlets and compares it with the scene's, bit for bit, and
// checks that the slots hold every scene triangle exactly once.
void expect_same_triangles(const Scene& s, const Meshlets& m) {
  ASSERT_EQ(m.triangles.size(), s.triangle_count());
  if (!m.triangle_ids.empty()) {
    ASSERT_EQ(m.triangle_ids.size(), s.triangle_count()) << "empty is file order";
  }
  std::vector<uint8_t> seen(s.triangle_count(), 0);
  uint32_t next = 0;
  for (size_t i = 0; i < m.meshlets.size(); ++i) {
    const Meshlet& ml = m.meshlets[i];
    ASSERT_EQ(ml.first_triangle, next) << "meshlet " << i << " does not continue the previous one";
    ASSERT_GE(ml.triangle_count, 1);
    ASSERT_LE(ml.triangle_count, kMeshletMaxTriangles);
    ASSERT_GE(ml.vertex_count, 1);
    ASSERT_LE(ml.vertex_count, kMeshletMaxVertices);
    ASSERT_LE(ml.first_vertex + ml.vertex_count, m.positions.size());
    for (uint32_t slot = ml.first_triangle; slot < ml.first_triangle + ml.triangle_count; ++slot) {
      const uint32_t t = scene_triangle(m, slot);
      ASSERT_LT(t, s.triangle_count());
      ASSERT_EQ(seen[t]++, 0) << "triangle " << t << " is in two slots";
      for (int k = 0; k < 3; ++k) {
        uint32_t l = local_index(m.triangles[slot], k);
        ASSERT_LT(l, ml.vertex_count);
        const Vec3& a = m.positions[ml.first_vertex + l];
        const Vec3& b = s.positions[s.indices[3 * t + k]];
        ASSERT_EQ(std::memcmp(&a, &b, sizeof(Vec3)), 0) << "triangle " << t << " corner " << k;
      }
    }
    next += ml.triangle_count;
  }
  EXPECT_EQ(next, s.triangle_count());
}

double vertices_per_triangle(const Meshlets& m) { return (double)m.positions.size() / m.triangles.size(); }
double triangles_per_meshlet(const Meshlets& m) { return (double)m.triangles.size() / m.meshlets.size(); }

}  // namespace

namespace {

bool in_file_order(const Meshlets& m) {
  for (uint32_t i = 0; i < m.triangles.size(); ++i)
    if (scene_triangle(m, i) != i) return false;
  return true;
}

float radius_p90(const Meshlets& m) {
  std::vector<float> radius;
  for (const Meshlet& ml : m.meshlets) radius.push_back(ml.radius);
  std::sort(radius.begin(), radius.end());
  return radius[radius.size() * 9 / 10];
}

}  // namespace

TEST(Meshlets, RealModelsKeepEveryTriangleOnce) {
  for (const char* path : {"spot/spot_triangulated_with_mtl.obj", "cornell_box/CornellBox-Original.obj",
                           "teapot/teapot.obj", "bunny/stanford-bunny.obj"}) {
    SCOPED_TRACE(path);
    Scene s = load_model(test::shared_asset(path));
    expect_same_triangles(s, build_meshlets(s));
    expect_same_triangles(s, build_meshlet_runs(s));
    expect_same_triangles(s, build_meshlet_patches(s));
  }
}

TEST(Meshlets, ScanGetsCompactPatches) {
  // The bunny's file order scatters its vertices: runs of it need two vertices a triangle.
  Scene s = test::in_file_order(load_model(test::shared_asset("bunny/stanford-bunny.obj")));
  Meshlets runs = build_meshlet_runs(s), m = build_meshlets(s);
  EXPECT_GT(vertices_per_triangle(runs), 1.5);
  EXPECT_FALSE(in_file_order(m));
  EXPECT_LT(vertices_per_triangle(m), 0.75);
  EXPECT_GT(triangles_per_meshlet(m), 0.95 * kMeshletMaxTriangles);
  EXPECT_LT(radius_p90(m), 0.5f * radius_p90(runs));
}

TEST(Meshlets, StripOrderedSphereKeepsItsOrder) {
  // Runs of this sphere's triangles are strips: one new vertex a triangle, measured faster than
  // patches (meshlets.h). Patches of it are still compact and share more vertices.
  Scene s = make_sphere(200000);
  Meshlets m = build_meshlets(s);
  EXPECT_TRUE(in_file_order(m));
  EXPECT_TRUE(m.triangle_ids.empty()) << "file order keeps no triangle ids";
  EXPECT_LE(vertices_per_triangle(m), kKeepFileOrder);
  Meshlets patches = build_meshlet_patches(s);
  expect_same_triangles(s, patches);
  EXPECT_GT(triangles_per_meshlet(patches), 0.95 * kMeshletMaxTriangles);
  EXPECT_LT(vertices_per_triangle(patches), 0.72);
  // Nine patches in ten are about 8 x 8 quads across (radius ~0.11 of this unit sphere; a strip
  // of 64 quads along a ring is ~0.6). The rest took leftover triangles from elsewhere to stay
  // full (meshlets.h).
  EXPECT_LT(radius_p90(patches), 0.2f);
  EXPECT_GT(radius_p90(m), 0.4f);
}

TEST(Meshlets, PatchesGrownInRangesKeepTheQualityOfOneSequentialPass) {
  // The reference: vertices and meshlets a triangle (what every frame projects and sets up) of
  // patches grown in one pass over the whole mesh (what bench/prepare_bench measures). Growing
  // them in spatial ranges on every core must stay close to it. Each model
  // here spans several ranges but the bunny, whose one range still tests the spatial order's
  // seeds and fill-ups.
  constexpr double kMargin = 1.03;  // a frame 3 % slower at most: within its run-to-run spread
  struct Case {
    const char* name;
    Scene scene;
    double vertices, meshlets;  // a triangle, the sequential pass's
  };
  Case cases[] = {{"bunny", load_model(test::shared_asset("bunny/stanford-bunny.obj")), 0.6701, 0.00788},
                  {"dragon", load_model(test::shared_asset("dragon/dragon_vrip.obj")), 0.6705, 0.00789},
                  {"sphere", make_sphere(600000), 0.6760, 0.00788}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const Meshlets m = build_meshlet_patches(c.scene);
    EXPECT_LT(vertices_per_triangle(m), kMargin * c.vertices);
    EXPECT_LT((double)m.meshlets.size() / m.triangles.size(), kMargin * c.meshlets);
  }
}

TEST(Meshlets, SameSceneSamePatches) {
  Scene s = make_sphere(20000);
  Meshlets a = build_meshlet_patches(s), b = build_meshlet_patches(s);
  EXPECT_EQ(a.triangle_ids, b.triangle_ids);
  EXPECT_EQ(a.triangles, b.triangles);
}

TEST(Meshlets, EachLimitClosesAMeshlet) {
  // Disjoint triangles: 3 new vertices each, so the vertex limit closes runs at 42 triangles and
  // patches at 32.
  Scene loose;
  for (uint32_t t = 0; t < 1000; ++t) {
    for (int k = 0; k < 3; ++k) {
      loose.positions.push_back({(float)t, (float)k, 0.0f});
      loose.indices.push_back(3 * t + k);
    }
  }
  Meshlets a = build_meshlet_runs(loose), p = build_meshlet_patches(loose);
  expect_same_triangles(loose, a);
  expect_same_triangles(loose, p);
  EXPECT_EQ(a.meshlets[0].triangle_count, kMeshletMaxVertices / 3);
  EXPECT_EQ(p.meshlets[0].triangle_count, kPatchMaxVertices / 3);
  // A fan around one vertex: 2 new vertices at most per triangle; then the same triangle
  // repeated, which adds none: the triangle limit closes.
  Scene fan;
  fan.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  const int repeats = 2 * kMeshletMaxTriangles + 10;
  for (int t = 0; t < repeats; ++t) fan.indices.insert(fan.indices.end(), {0u, 1u, 2u});
  Meshlets b = build_meshlet_runs(fan);
  expect_same_triangles(fan, b);
  ASSERT_EQ(b.meshlets.size(), 3u);
  EXPECT_EQ(b.meshlets[2].triangle_count, 10);
  EXPECT_EQ(b.meshlets[0].triangle_count, kMeshletMaxTriangles);
  EXPECT_EQ(b.meshlets[0].vertex_count, 3);
  // Degenerate triangles with repeated corners count each vertex once.
  Scene degenerate;
  degenerate.positions = {{0, 0, 0}, {1, 0, 0}};
  degenerate.indices = {0, 0, 0, 0, 1, 1, 1, 0, 1};
  for (const Meshlets& c : {build_meshlet_runs(degenerate), build_meshlet_patches(degenerate)}) {
    expect_same_triangles(degenerate, c);
    EXPECT_EQ(c.meshlets[0].vertex_count, 2);
  }
}

TEST(Meshlets, OutOfRangeIndexIsRefusedWithTheTriangle) {
  Scene s;
  s.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  s.indices = {0, 1, 2, 0, 1, 7};
  for (auto build : {build_meshlets, build_meshlet_runs, build_meshlet_patches}) {
    try {
      build(s);
      ADD_FAILURE() << "no exception";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("triangle 1 uses vertex 7 of 3"), std::string::npos) << e.what();
    }
  }
}

TEST(Meshlets, EmptySceneHasNoMeshlets) {
  Meshlets m = build_meshlets(Scene{});
  EXPECT_TRUE(m.meshlets.empty());
  EXPECT_TRUE(m.triangles.empty());
}

TEST(Meshlets, FileOrderGroupingKeepsAScanInRunsThatServeOnlyTheCpuBackend) {
  // The CPU backend's grouping (scene.h): runs of the bunny's scattered file order.
  Scene s = test::in_file_order(load_model(test::shared_asset("bunny/stanford-bunny.obj")));
  MeshletBuildHooks cpu;
  cpu.grouping = MeshletGrouping::FileOrder;
  const Meshlets runs = build_meshlets_with(s, cpu), patches = build_meshlets(s);
  expect_same_triangles(s, runs);
  EXPECT_TRUE(in_file_order(runs));
  EXPECT_TRUE(runs.triangle_ids.empty());
  EXPECT_FALSE(keeps_file_order(s));
  EXPECT_FALSE(patches.triangle_ids.empty());
  EXPECT_TRUE(meshlets_serve(runs, s, MeshletGrouping::FileOrder));
  EXPECT_TRUE(meshlets_serve(patches, s, MeshletGrouping::FileOrder));
  EXPECT_TRUE(meshlets_serve(patches, s, MeshletGrouping::Auto));
  EXPECT_FALSE(meshlets_serve(runs, s, MeshletGrouping::Auto)) << "the CUDA backend would draw a scan's runs";
  // A strip-ordered mesh: its runs are what Auto builds too.
  Scene sphere = make_sphere(20000);
  EXPECT_TRUE(keeps_file_order(sphere));
  EXPECT_TRUE(meshlets_serve(build_meshlet_runs(sphere), sphere, MeshletGrouping::Auto));
}
