// Meshlets: every triangle is found, in order, with exactly its own vertices' positions, and
// the limits hold, on real models, a generated sphere and meshes built to hit each limit.
#include <gtest/gtest.h>

#include <cstring>

#include "engine/generate.h"
#include "engine/loader.h"
#include "engine/meshlets.h"
#include "tests/support/test_scenes.h"

using namespace facet;

namespace {

// Rebuilds every triangle from the meshlets and compares it with the scene's, bit for bit.
void expect_same_triangles(const Scene& s, const Meshlets& m) {
  ASSERT_EQ(m.triangles.size(), s.triangle_count());
  uint32_t next = 0;
  for (size_t i = 0; i < m.meshlets.size(); ++i) {
    const Meshlet& ml = m.meshlets[i];
    ASSERT_EQ(ml.first_triangle, next) << "meshlet " << i << " does not continue the previous one";
    ASSERT_GE(ml.triangle_count, 1);
    ASSERT_LE(ml.triangle_count, kMeshletMaxTriangles);
    ASSERT_GE(ml.vertex_count, 1);
    ASSERT_LE(ml.vertex_count, kMeshletMaxVertices);
    ASSERT_LE(ml.first_vertex + ml.vertex_count, m.positions.size());
    for (uint32_t t = ml.first_triangle; t < ml.first_triangle + ml.triangle_count; ++t)
      for (int k = 0; k < 3; ++k) {
        uint32_t l = local_index(m.triangles[t], k);
        ASSERT_LT(l, ml.vertex_count);
        const Vec3& a = m.positions[ml.first_vertex + l];
        const Vec3& b = s.positions[s.indices[3 * t + k]];
        ASSERT_EQ(std::memcmp(&a, &b, sizeof(Vec3)), 0) << "triangle " << t << " corner " << k;
      }
    next += ml.triangle_count;
  }
  EXPECT_EQ(next, s.triangle_count());
}

}  // namespace

TEST(Meshlets, RealModelsKeepEveryTriangleInOrder) {
  for (const char* path : {"spot/spot_triangulated_with_mtl.obj", "cornell_box/CornellBox-Original.obj",
                           "teapot/teapot.obj", "bunny/stanford-bunny.obj"}) {
    SCOPED_TRACE(path);
    Scene s = load_model(test::shared_asset(path));
    Meshlets m = build_meshlets(s);
    expect_same_triangles(s, m);
  }
}

TEST(Meshlets, StripOrderedSphereNeedsAboutOneVertexPerTriangle) {
  Scene s = make_sphere(200000);
  Meshlets m = build_meshlets(s);
  expect_same_triangles(s, m);
  double tris_per_meshlet = (double)s.triangle_count() / m.meshlets.size();
  double verts_per_tri = (double)m.positions.size() / s.triangle_count();
  EXPECT_GT(tris_per_meshlet, 0.9 * kMeshletMaxTriangles);
  EXPECT_LT(verts_per_tri, 1.1);
}

TEST(Meshlets, EachLimitClosesAMeshlet) {
  // Disjoint triangles: 3 new vertices each, so the vertex limit closes at 85 triangles.
  Scene loose;
  for (uint32_t t = 0; t < 1000; ++t) {
    for (int k = 0; k < 3; ++k) {
      loose.positions.push_back({(float)t, (float)k, 0.0f});
      loose.indices.push_back(3 * t + k);
    }
  }
  Meshlets a = build_meshlets(loose);
  expect_same_triangles(loose, a);
  EXPECT_EQ(a.meshlets[0].triangle_count, kMeshletMaxVertices / 3);
  // A fan around one vertex: 2 new vertices at most per triangle; then the same triangle
  // repeated, which adds none: the triangle limit closes.
  Scene fan;
  fan.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  const int repeats = 2 * kMeshletMaxTriangles + 10;
  for (int t = 0; t < repeats; ++t) fan.indices.insert(fan.indices.end(), {0u, 1u, 2u});
  Meshlets b = build_meshlets(fan);
  expect_same_triangles(fan, b);
  ASSERT_EQ(b.meshlets.size(), 3u);
  EXPECT_EQ(b.meshlets[2].triangle_count, 10);
  EXPECT_EQ(b.meshlets[0].triangle_count, kMeshletMaxTriangles);
  EXPECT_EQ(b.meshlets[0].vertex_count, 3);
  // Degenerate triangles with repeated corners count each vertex once.
  Scene degenerate;
  degenerate.positions = {{0, 0, 0}, {1, 0, 0}};
  degenerate.indices = {0, 0, 0, 0, 1, 1, 1, 0, 1};
  Meshlets c = build_meshlets(degenerate);
  expect_same_triangles(degenerate, c);
  EXPECT_EQ(c.meshlets[0].vertex_count, 2);
}

TEST(Meshlets, OutOfRangeIndexIsRefusedWithTheTriangle) {
  Scene s;
  s.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  s.indices = {0, 1, 2, 0, 1, 7};
  try {
    build_meshlets(s);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("triangle 1 uses vertex 7 of 3"), std::string::npos) << e.what();
  }
}

TEST(Meshlets, EmptySceneHasNoMeshlets) {
  Meshlets m = build_meshlets(Scene{});
  EXPECT_TRUE(m.meshlets.empty());
  EXPECT_TRUE(m.triangles.empty());
}
