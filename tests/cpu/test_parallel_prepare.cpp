// The preparation steps that run on every core (vertex normals, bounds, the closed-surface check,
// mip chains, both meshlet groupings) give the same bytes for any number of threads: one thread
// is the plain sequential loop, and 2, 3 and 7 threads must match it exactly.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>

#include "engine/closed_surface.h"
#include "engine/loader.h"
#include "engine/meshlets.h"
#include "engine/parallel.h"
#include "tests/support/test_scenes.h"

namespace facet {
namespace {

template <class T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// Everything preparation computes from a scene's positions and indices, with `threads` workers.
struct Prepared {
  std::vector<Vec3> normals;
  Bounds bounds;
  bool closed = false;
  Meshlets runs, patches;
  std::vector<Rgba8> texels;
};

Prepared prepare_with(unsigned threads, const Scene& s) {
  worker_count_override() = threads;
  Prepared p;
  p.normals = compute_vertex_normals(s.positions, s.indices);
  p.bounds = compute_bounds(s.positions);
  p.closed = closed_outward(s.positions, s.indices);
  p.runs = build_meshlet_runs(s);
  p.patches = build_meshlet_patches(s);
  Scene textured;
  std::vector<Rgba8> image(317 * 203);
  for (size_t i = 0; i < image.size(); ++i) image[i] = {(uint8_t)i, (uint8_t)(i >> 3), (uint8_t)(i * 7), 255};
  add_texture(textured, "noise", 317, 203, image);
  p.texels = std::move(textured.texels);
  worker_count_override() = 0;
  return p;
}

void expect_same_meshlets(const Meshlets& a, const Meshlets& b) {
  EXPECT_TRUE(same_bytes(a.meshlets, b.meshlets));
  EXPECT_TRUE(same_bytes(a.positions, b.positions));
  EXPECT_EQ(a.triangles, b.triangles);
  EXPECT_EQ(a.triangle_ids, b.triangle_ids);
}

TEST(ParallelPrepare, EveryStepGivesTheSameBytesForAnyThreadCount) {
  // A scan's file order for patches, and triangles for several ranges of them and chunks of
  // runs: four copies of the bunny side by side.
  Scene s = load_model(test::shared_asset("bunny/stanford-bunny.obj"));
  const uint32_t verts = s.vertex_count(), corners = (uint32_t)s.indices.size();
  for (uint32_t copy = 1; copy < 4; ++copy) {
    for (uint32_t v = 0; v < verts; ++v) s.positions.push_back({s.positions[v].x + copy, s.positions[v].y, s.positions[v].z});
    for (uint32_t c = 0; c < corners; ++c) s.indices.push_back(s.indices[c] + copy * verts);
  }
  const Prepared one = prepare_with(1, s);
  ASSERT_GT(one.patches.meshlets.size(), 100u);
  ASSERT_GT(s.triangle_count(), 2 * kPatchRangeTriangles);
  for (unsigned threads : {2u, 3u, 7u}) {
    SCOPED_TRACE(threads);
    const Prepared many = prepare_with(threads, s);
    EXPECT_TRUE(same_bytes(many.normals, one.normals));
    EXPECT_EQ(std::memcmp(&many.bounds.min, &one.bounds.min, 3 * sizeof(Vec3)), 0);
    EXPECT_EQ(many.bounds.radius, one.bounds.radius);
    EXPECT_EQ(many.closed, one.closed);
    expect_same_meshlets(many.runs, one.runs);
    expect_same_meshlets(many.patches, one.patches);
    EXPECT_TRUE(same_bytes(many.texels, one.texels));
  }
}

// The dragon: patches grown in several ranges (meshlet_ranges.h), a closed surface, and a mesh
// built on every core; what load_model returns is what the scene cache stores and both backends
// upload.
TEST(ParallelPrepare, LoadedSceneIsTheSameWithOneTwoOrFourWorkers) {
  Scene one;
  for (unsigned threads : {1u, 2u, 4u}) {
    SCOPED_TRACE(threads);
    worker_count_override() = threads;
    Scene s = load_model(test::shared_asset("dragon/dragon_vrip.obj"));
    worker_count_override() = 0;
    ASSERT_TRUE(s.meshlets);
    if (threads == 1) {
      ASSERT_GT(s.triangle_count(), 2 * kPatchRangeTriangles) << "too small to be cut into ranges";
      one = std::move(s);
      continue;
    }
    EXPECT_TRUE(same_bytes(s.positions, one.positions));
    EXPECT_TRUE(same_bytes(s.normals, one.normals));
    EXPECT_EQ(s.indices, one.indices);
    EXPECT_EQ(s.tri_material, one.tri_material);
    EXPECT_EQ(std::memcmp(&s.bounds.min, &one.bounds.min, 3 * sizeof(Vec3)), 0);
    EXPECT_EQ(s.bounds.radius, one.bounds.radius);
    EXPECT_EQ(s.bounds.closed, one.bounds.closed);
    expect_same_meshlets(*s.meshlets, *one.meshlets);
  }
}

TEST(ParallelPrepare, ClosedCheckAgreesForAnyThreadCountOnAClosedModel) {
  const Scene spot = load_model(test::shared_asset("spot/spot_triangulated_with_mtl.obj"));
  for (unsigned threads : {1u, 2u, 5u}) {
    worker_count_override() = threads;
    EXPECT_TRUE(closed_outward(spot.positions, spot.indices)) << threads << " threads";
  }
  worker_count_override() = 0;
}

TEST(ParallelPrepare, MeshletBuildReportsProgressAndStopsWhenCancelled) {
  Scene s = load_model(test::shared_asset("bunny/stanford-bunny.obj"));  // patches: both groupings
  std::vector<uint64_t> reports;
  MeshletBuildHooks hooks;
  hooks.progress = [&](uint64_t grouped) { reports.push_back(grouped); };
  Meshlets whole = build_meshlets_with(s, hooks);
  ASSERT_FALSE(reports.empty());
  for (uint64_t r : reports) EXPECT_LE(r, s.triangle_count());
  EXPECT_EQ(whole.triangles.size(), s.triangle_count());

  std::atomic<bool> cancel{true};  // set before: the build stops at its first look
  hooks.cancel = &cancel;
  Meshlets cut = build_meshlets_with(s, hooks);
  EXPECT_LT(cut.triangles.size(), s.triangle_count());
}

}  // namespace
}  // namespace facet
