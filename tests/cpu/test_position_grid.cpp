// The model-wide position grid (kernels/position_grid.h, engine/meshlet_grid.h): its step and
// error bound, exact grid points, shared vertices that decode alike in every meshlet, the
// 16-bit blocks and the float fallback, non-finite vertices, and the bytes it saves.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <vector>

#include "engine/generate.h"
#include "engine/loader.h"
#include "engine/meshlet_grid.h"
#include "engine/meshlets.h"
#include "engine/scene_cache_check.h"
#include "engine/scene_cache_format.h"
#include "tests/support/test_scenes.h"

using namespace facet;

namespace {

bool power_of_two(float x) {
  int e = 0;
  return std::isfinite(x) && x > 0.0f && std::frexp(x, &e) == 0.5f;
}

// Random points of the box [lo, hi] (both ends included, the corners among them).
std::vector<Vec3> points_in(Vec3 lo, Vec3 hi, int count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<Vec3> out = {lo, hi, {lo.x, hi.y, lo.z}};
  for (int i = 0; i < count; ++i)
    out.push_back({(float)(lo.x + ((double)hi.x - lo.x) * u(rng)), (float)(lo.y + ((double)hi.y - lo.y) * u(rng)),
                   (float)(lo.z + ((double)hi.z - lo.z) * u(rng))});
  return out;
}

Scene with_bounds(Scene s) {
  s.bounds = compute_bounds(s.positions);
  return s;
}

}  // namespace

// The step is the power of two at or below the edge over 2^kGridEdgeBits; each point on the grid
// moves by at most half a step, lands on an exact float and stays there when snapped again, and a
// point more than 2^23 steps out is left as it is.
TEST(PositionGrid, StepAndErrorBound) {
  const struct {
    double edge;
    Vec3 lo, hi;
  } cases[] = {
      {1e-3, {-1, -1, -1}, {1, 1, 1}},                 // a scan about the origin
      {1e-3, {1000, 2000, -5}, {1001, 2000.5f, -4}},   // far from it: floats there are coarser
      {0.7, {-3e38f, -1, 0}, {3e38f, 1, 0}},           // the float range
      {1e-31, {1e-30f, 1e-30f, 1e-30f}, {3e-30f, 2e-30f, 5e-30f}},  // tiny
      {1e-45, {0, 0, 0}, {1e-40f, 1e-40f, 1e-40f}},    // a step at the least normal float
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(testing::Message() << c.edge << ": " << c.lo.x << " .. " << c.hi.x);
    const PositionGrid g = position_grid_for_edge(c.edge);
    const float step = g.step.x;
    ASSERT_TRUE(power_of_two(step)) << step;
    EXPECT_EQ(g.step.y, step);
    EXPECT_EQ(g.step.z, step);
    const double want = std::max(std::ldexp(c.edge, -kGridEdgeBits), (double)FLT_MIN);
    EXPECT_LE(step, want);
    if (want > FLT_MIN) {
      EXPECT_GT(2.0 * step, want);
    }
    int on = 0, off = 0;
    for (const Vec3& p : points_in(c.lo, c.hi, 2000, 7)) {
      const Vec3 q = snap_to_grid(g, p);
      const float pc[3] = {p.x, p.y, p.z}, qc[3] = {q.x, q.y, q.z};
      for (int a = 0; a < 3; ++a) {
        if (std::fabs((double)pc[a] / step) > kGridMaxCell) {
          ++off;
          ASSERT_EQ(qc[a], pc[a]) << "more than 2^23 steps out: left as it is";
          ASSERT_FALSE(on_grid(qc[a], step));
          continue;
        }
        ++on;
        ASSERT_TRUE(on_grid(qc[a], step));
        ASSERT_LE(std::fabs((double)qc[a] - pc[a]), step / 2.0) << pc[a];
        const int32_t k = grid_cell(qc[a], step);
        ASSERT_EQ(grid_coordinate(k, step), qc[a]) << "a grid point is an exact float";
        ASSERT_EQ(snap_coordinate(qc[a], step), qc[a]) << "snapping twice moves nothing";
      }
    }
    EXPECT_GT(on, 0);
  }
}

TEST(PositionGrid, NonFiniteCoordinatesAndNoGridLeavePointsAlone) {
  const PositionGrid g = position_grid_for_edge(1e-3);
  const Vec3 q = snap_to_grid(g, {NAN, INFINITY, 0.3f});
  EXPECT_TRUE(std::isnan(q.x));
  EXPECT_TRUE(std::isinf(q.y));
  EXPECT_EQ(q.z, snap_coordinate(0.3f, g.step.z));
  EXPECT_NE(q.z, 0.3f) << "0.3 is no multiple of a power of two";
  EXPECT_EQ(snap_coordinate(-1e-12f, g.step.x), 0.0f);
  EXPECT_FALSE(std::signbit(snap_coordinate(-1e-12f, g.step.x))) << "+0, as a decoded cell 0 gives";
  const PositionGrid none;
  const Vec3 p{0.1f, -7.3f, 1e30f};
  const Vec3 same = snap_to_grid(none, p);
  EXPECT_EQ(std::memcmp(&same, &p, sizeof p), 0);
}

// Narrow meshlets are stored as 16-bit blocks, a meshlet wider than kGridMaxOffset steps as
// floats, and both decode to the CPU's snapped positions. A shared corner of the wide and the
// narrow part comes out as the same floats from either meshlet.
TEST(PositionGrid, BlocksAndFloatsDecodeToTheSnappedPositions) {
  // A scan (compact patches: narrow meshlets), and one triangle reaching a thousand times its
  // size away that shares a vertex with it.
  Scene s = load_model(test::shared_asset("bunny/stanford-bunny.obj"));
  const uint32_t shared = s.indices[0];
  s.positions.push_back({100.0f, 0.0f, 0.0f});
  s.positions.push_back({0.0f, 100.0f, 0.0f});
  s.normals.push_back({0, 0, 1});
  s.normals.push_back({0, 0, 1});
  const uint32_t nv = (uint32_t)s.positions.size();
  for (uint32_t i : {shared, nv - 2, nv - 1}) s.indices.push_back(i);
  s.tri_material.push_back(s.tri_material.back());
  s = with_bounds(std::move(s));
  const Meshlets m = build_meshlets(s);
  size_t grid = 0, floats = 0;
  std::vector<std::vector<Vec3>> seen(s.positions.size());
  const uint32_t long_triangle = s.triangle_count() - 1;
  for (const Meshlet& ml : m.meshlets) {
    (ml.encoding == kMeshletGrid ? grid : floats) += 1;
    for (uint32_t slot = ml.first_triangle; slot < ml.first_triangle + ml.triangle_count; ++slot) {
      const uint32_t t = scene_triangle(m, slot);
      if (t == long_triangle) {
        EXPECT_EQ(ml.encoding, kMeshletFloats) << "too wide for 16 bits";
      }
      for (int k = 0; k < 3; ++k) {
        const uint32_t v = s.indices[3 * t + k];
        const Vec3 got = meshlet_vertex(m, ml, local_index(m.triangles[slot], k));
        const Vec3 want = snap_to_grid(m.grid, s.positions[v]);
        ASSERT_EQ(std::memcmp(&got, &want, sizeof got), 0) << "triangle " << t << " corner " << k;
        seen[v].push_back(got);
      }
    }
  }
  EXPECT_GE(floats, 1u);
  EXPECT_GT(grid, 10 * floats) << "the rest of the bunny is narrow on a grid made for the long triangle too";
  EXPECT_GE(seen[shared].size(), 2u);
  for (const Vec3& p : seen[shared]) EXPECT_EQ(std::memcmp(&p, &seen[shared][0], sizeof p), 0);
  // The CPU backend's copy is the same function of the same floats.
  const BigVector<Vec3> snapped = snapped_positions(s, m.grid);
  for (size_t v = 0; v < s.positions.size(); ++v) {
    const Vec3 want = snap_to_grid(m.grid, s.positions[v]);
    ASSERT_EQ(std::memcmp(&snapped[v], &want, sizeof want), 0) << v;
  }
}

// A meshlet holding a NaN or infinite vertex keeps floats (the block has no code for one), and
// gets the NaN radius that keeps it from being culled.
TEST(PositionGrid, NonFiniteVertexKeepsItsMeshletInFloats) {
  Scene s = with_bounds(make_sphere(200000));
  s.positions[5] = {NAN, 0.0f, 0.0f};
  s.positions[90000] = {0.0f, INFINITY, 0.0f};
  const Meshlets m = build_meshlets(s);
  ASSERT_GT(m.grid.step.x, 0.0f);
  int holding = 0;
  size_t grid = 0;
  for (const Meshlet& ml : m.meshlets) {
    grid += ml.encoding == kMeshletGrid;
    for (uint32_t v = 0; v < ml.vertex_count; ++v) {
      const Vec3 p = meshlet_vertex(m, ml, v);
      if (std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z)) continue;
      ++holding;
      EXPECT_EQ(ml.encoding, kMeshletFloats);
      EXPECT_TRUE(std::isnan(ml.radius)) << "a meshlet with a non-finite vertex is never culled";
    }
  }
  EXPECT_GE(holding, 2);
  EXPECT_GT(grid, 0u);
}

// What the grid is for: a scan's patch meshlets nearly all on it, at six bytes a vertex and a
// 12-byte corner a meshlet, against twelve bytes a vertex as floats.
TEST(PositionGrid, ScansStoreSixBytesAVertex) {
  std::vector<Scene> scenes;
  scenes.push_back(load_model(test::shared_asset("bunny/stanford-bunny.obj")));
  scenes.push_back(load_model(test::shared_asset("dragon/dragon_vrip.obj")));
  for (const Scene& s : scenes) {
    SCOPED_TRACE(s.source);
    const Meshlets m = build_meshlets(s);
    uint64_t vertices = 0, stored = 0;
    for (const Meshlet& ml : m.meshlets) {
      vertices += ml.vertex_count;
      if (ml.encoding == kMeshletGrid) stored += ml.vertex_count;
    }
    EXPECT_GT(stored, vertices * 9 / 10);
    const double bytes = (double)(m.grid_vertices.size() * sizeof(uint16_t) + m.positions.size() * sizeof(Vec3)) / vertices;
    EXPECT_LT(bytes, 7.0) << "bytes a meshlet vertex";
    std::printf("%s: step %g, %.1f %% of the meshlet vertices on the grid, %.2f B a vertex\n", s.source.c_str(),
                m.grid.step.x, 100.0 * stored / vertices, bytes);
  }
}

// The step follows the triangles: a far outlier vertex (its own triangle) leaves it and is left
// off the grid, and a small model has no grid at all, its meshlets' floats exactly the file's.
TEST(PositionGrid, StepFollowsTheTrianglesNotTheBox) {
  Scene s = with_bounds(make_sphere(200000));
  const PositionGrid plain = position_grid_of(s);
  ASSERT_GT(plain.step.x, 0.0f);
  s.positions.push_back({3e38f, 3e38f, 3e38f});
  s.normals.push_back({0, 0, 1});
  const uint32_t far = (uint32_t)s.positions.size() - 1;
  for (uint32_t i : {s.indices[0], s.indices[1], far}) s.indices.push_back(i);
  s.tri_material.push_back(s.tri_material.back());
  s = with_bounds(std::move(s));
  const Meshlets m = build_meshlets(s);
  EXPECT_EQ(m.grid.step.x, plain.step.x) << "the outlier moves the box, not the grid";
  const Vec3 kept = snap_to_grid(m.grid, s.positions[far]);
  EXPECT_EQ(kept.x, 3e38f) << "more than 2^23 steps out: as loaded";

  Scene small = with_bounds(make_sphere(2000));
  ASSERT_LT(small.triangle_count(), kGridMinTriangles);
  const Meshlets sm = build_meshlets(small);
  EXPECT_EQ(sm.grid.step.x, 0.0f);
  EXPECT_TRUE(sm.grid_vertices.empty());
  for (const Meshlet& ml : sm.meshlets) EXPECT_EQ(ml.encoding, kMeshletFloats);
}

// A cache file's meshlets are checked before anything reads them (scene_cache_check.cpp): grid
// blocks that break their rules are refused, never decoded.
TEST(PositionGrid, TheCacheCheckRefusesBrokenGridBlocks) {
  Scene s = with_bounds(make_sphere(200000));
  s.meshlets = std::make_shared<const Meshlets>(build_meshlets(s));
  ASSERT_NO_THROW(check_cached_scene(s));
  size_t first_grid = 0;
  while (first_grid < s.meshlets->meshlets.size() && s.meshlets->meshlets[first_grid].encoding != kMeshletGrid) ++first_grid;
  ASSERT_LT(first_grid, s.meshlets->meshlets.size());
  const auto broken = [&](const std::function<void(Meshlets&)>& change) {
    Scene copy = s;
    auto m = std::make_shared<Meshlets>(*s.meshlets);
    change(*m);
    copy.meshlets = m;
    EXPECT_THROW(check_cached_scene(copy), CacheFormatError);
  };
  broken([&](Meshlets& m) { m.meshlets[first_grid].encoding = 7; });
  broken([&](Meshlets& m) { m.meshlets[first_grid].first_vertex += 2; });  // misaligned for the 16-byte header load
  broken([&](Meshlets& m) { m.meshlets[first_grid].first_vertex = (uint32_t)m.grid_vertices.size() - kGridHeaderHalves; });
  broken([&](Meshlets& m) { m.grid_vertices[m.meshlets[first_grid].first_vertex + 1] = 0x7fc0; });  // a NaN corner
  broken([&](Meshlets& m) { m.grid.step = {3.0f, 3.0f, 3.0f}; });  // not a power of two
  broken([&](Meshlets& m) { m.grid.step = {}; });                  // grid meshlets without a grid
}

// A model many times wider than its short edges (tiles far apart, like the 100-copy dragon): its
// bulk stays within the grid's 2^23 steps, its meshlets on the grid, not in floats.
TEST(PositionGrid, AWideTiledModelStaysOnTheGrid) {
  Scene s = make_sphere(20000);
  const uint32_t nv = s.vertex_count(), nt = s.triangle_count();
  for (int copy = 1; copy < 4; ++copy) {
    for (uint32_t v = 0; v < nv; ++v) {
      Vec3 p = s.positions[v];
      p.x += 200.0f * copy;
      s.positions.push_back(p);
      s.normals.push_back(s.normals[v]);
    }
    for (uint32_t i = 0; i < 3 * nt; ++i) s.indices.push_back(s.indices[i] + copy * nv);
    for (uint32_t t = 0; t < nt; ++t) s.tri_material.push_back(s.tri_material[t]);
  }
  s = with_bounds(std::move(s));
  const Meshlets m = build_meshlets(s);
  ASSERT_GT(m.grid.step.x, 0.0f);
  EXPECT_GT(600.0 / m.grid.step.x, (double)kGridMaxCell / 4) << "no coarser than the reach needs";
  uint64_t vertices = 0, stored = 0;
  for (const Meshlet& ml : m.meshlets) {
    vertices += ml.vertex_count;
    if (ml.encoding == kMeshletGrid) stored += ml.vertex_count;
  }
  EXPECT_GT(stored, vertices * 9 / 10);
}
