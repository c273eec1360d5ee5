// The preparation steps that run on every core (vertex normals, bounds, the closed-surface check,
// mip chains, both meshlet groupings) give the same bytes for any number of threads: one thread
// is the plain sequential loop, and 2, 3 and 7 threads must match it exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <random>
#include <string>

#include "engine/base/parallel.h"
#include "engine/load/load_model.h"
#include "engine/meshlets/meshlets.h"
#include "engine/scene/closed_surface.h"
#include "tests/support/ply_writer.h"
#include "tests/support/scene_edits.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/test_scenes.h"

namespace facet {
namespace {

template <class T, class A, class B>
bool same_bytes(const std::vector<T, A>& a, const std::vector<T, B>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// Loads `path` with 1, 2 and 4 workers: check(scene, workers) on each load, then compare(scene,
// one) of the 2- and 4-worker loads against the 1-worker one. A fatal failure in check ends it.
template <class Check, class Compare>
void load_with_one_two_four_workers(const std::string& path, Check&& check, Compare&& compare) {
  Scene one;
  for (unsigned threads : {1u, 2u, 4u}) {
    SCOPED_TRACE(threads);
    worker_count_override() = threads;
    Scene s = load_model(path);
    worker_count_override() = 0;
    check(s, threads);
    if (::testing::Test::HasFatalFailure()) return;
    if (threads == 1)
      one = std::move(s);
    else
      compare(s, one);
  }
}

// Everything preparation computes from a scene's positions and indices, with `threads` workers.
struct Prepared {
  BigVector<Vec3> normals;
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
    for (uint32_t v = 0; v < verts; ++v)
      s.positions.push_back({s.positions[v].x + copy, s.positions[v].y, s.positions[v].z});
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
  auto check = [](const Scene& s, unsigned threads) {
    ASSERT_TRUE(s.meshlets);
    if (threads == 1) {
      ASSERT_GT(s.triangle_count(), 2 * kPatchRangeTriangles) << "too small to be cut into ranges";
    }
  };
  load_with_one_two_four_workers(test::shared_asset("dragon/dragon_vrip.obj"), check,
                                 [](const Scene& s, const Scene& one) {
                                   EXPECT_TRUE(same_bytes(s.positions, one.positions));
                                   EXPECT_TRUE(same_bytes(s.normals, one.normals));
                                   EXPECT_EQ(s.indices, one.indices);
                                   EXPECT_EQ(s.tri_material, one.tri_material);
                                   EXPECT_EQ(std::memcmp(&s.bounds.min, &one.bounds.min, 3 * sizeof(Vec3)), 0);
                                   EXPECT_EQ(s.bounds.radius, one.bounds.radius);
                                   EXPECT_EQ(s.bounds.closed, one.bounds.closed);
                                   expect_same_meshlets(*s.meshlets, *one.meshlets);
                                 });
}

// The plain one-pass definition of vertex normals: every face's cross product added to its
// corners in triangle order, then normalised in double.
std::vector<Vec3> one_pass_normals(const Scene& s) {
  std::vector<Vec3> acc(s.positions.size(), Vec3{0, 0, 0});
  for (size_t t = 0; t + 2 < s.indices.size(); t += 3) {
    const uint32_t i[3] = {s.indices[t], s.indices[t + 1], s.indices[t + 2]};
    const Vec3 c = cross(s.positions[i[1]] - s.positions[i[0]], s.positions[i[2]] - s.positions[i[0]]);
    if (!finite3(c)) continue;
    for (uint32_t k : i) acc[k] = acc[k] + c;
  }
  for (Vec3& a : acc) {
    const double l = std::sqrt((double)a.x * a.x + (double)a.y * a.y + (double)a.z * a.z);
    a = l > 0 && std::isfinite(l) ? Vec3{(float)(a.x / l), (float)(a.y / l), (float)(a.z / l)} : Vec3{0, 0, 1};
  }
  return acc;
}

Scene tiled_bunnies(uint32_t copies) {
  return test::tiled(load_model(test::shared_asset("bunny/stanford-bunny.obj")), copies, 1.0f);
}

// Parts of the vertices scan only the blocks of triangles near them (local indices), or every
// block (triangles shuffled over the whole model): the same bytes as one pass either way.
TEST(ParallelPrepare, VertexNormalsEqualOnePassWhetherIndicesAreLocalOrScattered) {
  Scene local = tiled_bunnies(6);
  Scene scattered = local;
  std::vector<uint32_t> order(scattered.triangle_count());
  for (uint32_t t = 0; t < order.size(); ++t) order[t] = t;
  std::shuffle(order.begin(), order.end(), std::mt19937(7));
  for (uint32_t t = 0; t < order.size(); ++t)
    for (int k = 0; k < 3; ++k) scattered.indices[3 * t + k] = local.indices[3 * order[t] + k];
  for (const Scene* s : {&local, &scattered}) {
    const std::vector<Vec3> expected = one_pass_normals(*s);
    for (unsigned threads : {1u, 2u, 3u, 7u}) {
      SCOPED_TRACE(threads);
      worker_count_override() = threads;
      EXPECT_TRUE(same_bytes(compute_vertex_normals(s->positions, s->indices), expected));
    }
  }
  worker_count_override() = 0;
}

// An OBJ of several parse chunks whose `usemtl` and `s` statements are in force across chunk
// boundaries: each triangle has the material last named before it, for any thread count.
TEST(ParallelPrepare, ObjMaterialsAndSmoothingAcrossChunksAreTheSameForAnyThreadCount) {
  test::ScratchDir dir;
  dir.write("m.mtl", "newmtl m0\nKd 1 0 0\nnewmtl m1\nKd 0 1 0\nnewmtl m2\nKd 0 0 1\n");
  std::string text = "mtllib m.mtl\n";
  const uint32_t side = 300;  // a grid of side^2 vertices, 2 (side-1)^2 triangles: 3 MB of text
  for (uint32_t y = 0; y < side; ++y)
    for (uint32_t x = 0; x < side; ++x)
      text += "v " + std::to_string(x) + " " + std::to_string(y) + " " + std::to_string((x * y) % 7) + "\n";
  std::vector<uint32_t> expected;  // material index in m.mtl's order per triangle
  uint32_t face = 0, material = 0;
  for (uint32_t y = 0; y + 1 < side; ++y)
    for (uint32_t x = 0; x + 1 < side; ++x, ++face) {
      if (face % 9001 == 0) text += "usemtl m" + std::to_string(material = (face / 9001) % 3) + "\n";
      if (face % 13001 == 0) text += face % 26002 ? "s off\n" : "s 1\n";
      const uint32_t a = y * side + x + 1, b = a + 1, c = a + side, d = c + 1;
      text += "f " + std::to_string(a) + " " + std::to_string(b) + " " + std::to_string(d) + "\n";
      text += "f " + std::to_string(a) + " " + std::to_string(d) + " " + std::to_string(c) + "\n";
      expected.insert(expected.end(), {material, material});
    }
  ASSERT_GT(text.size(), size_t(3) << 20) << "too small for several parse chunks";
  const std::string path = dir.write("grid.obj", text);
  auto check = [&](const Scene& s, unsigned) {
    ASSERT_EQ(s.tri_material.size(), expected.size());
    for (size_t t = 0; t < expected.size(); ++t)
      ASSERT_EQ(s.material_names[s.tri_material[t]], "m" + std::to_string(expected[s.file_index((uint32_t)t)]))
          << "triangle " << t;
  };
  load_with_one_two_four_workers(path, check, [](const Scene& s, const Scene& one) {
    EXPECT_TRUE(same_bytes(s.positions, one.positions));
    EXPECT_TRUE(same_bytes(s.normals, one.normals));
    EXPECT_EQ(s.indices, one.indices);
  });
}

// A binary PLY with file normals (some zero), and a vertex at infinity whose faces go: what
// finish_scene keeps, replaces and warns about is the same for any thread count.
TEST(ParallelPrepare, PlyNormalsAndDroppedFacesAreTheSameForAnyThreadCount) {
  const uint32_t side = 400;  // 160 K vertices: several chunks of every pass
  test::PlyBody body(test::PlyBody::LittleEndian);
  for (uint32_t i = 0; i < side * side; ++i) {
    const float z = i == 5 * side + 7 ? INFINITY : (float)((i * 31) % 5);
    body.put((float)(i % side)).put((float)(i / side)).put(z);
    const bool zero = i % 1000 == 3;
    body.put(zero ? 0.0f : 0.1f).put(zero ? 0.0f : 0.2f).put(zero ? 0.0f : 3.0f).end_row();
  }
  for (uint32_t y = 0; y + 1 < side; ++y)
    for (uint32_t x = 0; x + 1 < side; ++x) {
      const int32_t a = (int32_t)(y * side + x), b = a + 1, c = a + (int32_t)side, d = c + 1;
      body.put((uint8_t)4).put(a).put(b).put(d).put(c).end_row();
    }
  const std::string header =
      std::string("ply\n") + test::PlyBody::format_line(test::PlyBody::LittleEndian) + "element vertex " +
      std::to_string(side * side) +
      "\nproperty float x\nproperty float y\nproperty float z\nproperty float nx\nproperty float ny\n"
      "property float nz\nelement face " +
      std::to_string((side - 1) * (side - 1)) + "\nproperty list uchar int vertex_indices\nend_header\n";
  test::ScratchDir dir;
  const std::string path = dir.write("grid.ply", header + body.bytes());
  auto check = [&](const Scene& s, unsigned) {
    EXPECT_EQ(s.triangle_count(), 2u * (side - 1) * (side - 1) - 6)
        << "the 6 triangles (of 4 quads fanned) on the infinite vertex";
  };
  load_with_one_two_four_workers(path, check, [](const Scene& s, const Scene& one) {
    EXPECT_TRUE(same_bytes(s.normals, one.normals));
    EXPECT_EQ(s.indices, one.indices);
    EXPECT_EQ(s.warnings, one.warnings);
  });
}

// Four bunnies in two ranges, both grown by one worker's grower, its tables reused from the first
// range to the second; the second range alone (its triangles only, the same positions: the same
// spatial order) by a fresh grower. The last two copies' vertices are spread over twenty times
// their count of indices (unused ones between, at a used vertex's place), so the second range
// numbers its vertices through a hash table where the first uses a window over its indices
// (meshlet_patches.cpp): a grower reused across both kinds gives the second range the same bytes.
TEST(ParallelPrepare, PatchGrowerReusedFromRangeToRangeGivesTheSameBytesAsAFreshOne) {
  Scene s = tiled_bunnies(4);
  const uint32_t kept = s.vertex_count() / 2, spread = 20, half = s.triangle_count() / 2;
  BigVector<Vec3> positions(s.positions.begin(), s.positions.begin() + kept);
  positions.resize(kept + (size_t)kept * spread, s.positions[kept]);
  for (uint32_t v = kept; v < s.vertex_count(); ++v) positions[kept + (size_t)(v - kept) * spread] = s.positions[v];
  for (uint32_t& i : s.indices)
    if (i >= kept) i = kept + (i - kept) * spread;
  s.positions = std::move(positions);
  ASSERT_GT(s.triangle_count(), kPatchRangeTriangles * 3 / 2) << "two ranges";
  Scene second = s;
  second.indices.erase(second.indices.begin(), second.indices.begin() + 3 * (size_t)half);
  worker_count_override() = 1;
  const Meshlets both = build_meshlet_patches(s), alone = build_meshlet_patches(second);
  worker_count_override() = 0;
  size_t m0 = 0;  // the second range's first meshlet
  while (m0 < both.meshlets.size() && both.meshlets[m0].first_triangle < half) ++m0;
  ASSERT_EQ(both.meshlets.size() - m0, alone.meshlets.size());
  const uint32_t v0 = both.meshlets[m0].first_vertex;
  for (size_t i = 0; i < alone.meshlets.size(); ++i) {
    Meshlet m = alone.meshlets[i];
    m.first_triangle += half;
    m.first_vertex += v0;
    ASSERT_EQ(std::memcmp(&m, &both.meshlets[m0 + i], sizeof m), 0) << "meshlet " << i;
  }
  EXPECT_TRUE(same_bytes(std::vector<Vec3>(both.positions.begin() + v0, both.positions.end()), alone.positions));
  EXPECT_EQ(BigVector<uint32_t>(both.triangles.begin() + half, both.triangles.end()), alone.triangles);
  for (size_t i = 0; i < alone.triangle_ids.size(); ++i)
    ASSERT_EQ(both.triangle_ids[half + i], alone.triangle_ids[i] + half);
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
