// The meshlets' vertices on the model's grid (meshlet_grid.h, kernels/position_grid.h).
#include "engine/meshlet_grid.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>

#include "engine/parallel.h"

namespace facet {

namespace {

// Vertices a task of snapped_positions: a few hundred KB, cheap next to a pool hand-off.
constexpr uint64_t kSnapChunk = 1 << 15;
// Triangles whose edges and corners choose the grid's step: percentiles of 12 K lengths and
// coordinates, a fraction of a millisecond for any model.
constexpr uint64_t kGridEdgeSamples = 4096;
// The short edge the step follows (kernels/position_grid.h), and the reach the model's bulk must
// fit: percentiles, so that a few outlier vertices or triangles move neither.
constexpr double kGridEdgePercentile = 0.1;
constexpr double kGridReachPercentile = 0.99;

// The least power of two at or above x (x > 0).
double power_of_two_above(double x) {
  int e = 0;
  const double m = std::frexp(x, &e);  // x = m 2^e, m in [0.5, 1)
  return m == 0.5 ? std::ldexp(1.0, e - 1) : std::ldexp(1.0, e);
}

// A meshlet's corner cell and whether every vertex lies on the grid within kGridMaxOffset steps
// of it.
struct Corner {
  int32_t cell[3] = {0, 0, 0};
  bool fits = true;
};

Corner corner_of(const PositionGrid& g, const Vec3* pos, uint32_t count) {
  Corner c;
  int32_t lo[3] = {INT32_MAX, INT32_MAX, INT32_MAX}, hi[3] = {INT32_MIN, INT32_MIN, INT32_MIN};
  for (uint32_t v = 0; v < count; ++v) {
    if (!finite3(pos[v]) || !on_grid(pos[v].x, g.step.x) || !on_grid(pos[v].y, g.step.y) || !on_grid(pos[v].z, g.step.z)) {
      c.fits = false;  // no grid, or a vertex left off it (non-finite, or too far out)
      return c;
    }
    const int32_t k[3] = {grid_cell(pos[v].x, g.step.x), grid_cell(pos[v].y, g.step.y), grid_cell(pos[v].z, g.step.z)};
    for (int a = 0; a < 3; ++a) {
      lo[a] = std::min(lo[a], k[a]);
      hi[a] = std::max(hi[a], k[a]);
    }
  }
  const float step[3] = {g.step.x, g.step.y, g.step.z};
  for (int a = 0; a < 3; ++a) {
    c.cell[a] = lo[a];
    // The decoding's product (2^23 + offset) * step and the biased corner must be finite too.
    c.fits = c.fits && (int64_t)hi[a] - lo[a] <= kGridMaxOffset && (double)step[a] * 2 * kGridBias <= FLT_MAX;
  }
  return c;
}

void write_block(const Corner& c, const Vec3* pos, uint32_t count, const PositionGrid& g, uint16_t* block) {
  const float step[3] = {g.step.x, g.step.y, g.step.z};
  for (int a = 0; a < 3; ++a) {
    const float point = grid_coordinate(c.cell[a] - kGridBias, step[a]);  // the biased corner
    uint32_t bits = 0;
    std::memcpy(&bits, &point, sizeof bits);
    block[2 * a] = (uint16_t)(bits & 0xffffu);
    block[2 * a + 1] = (uint16_t)(bits >> 16);
  }
  block[6] = block[7] = 0;
  uint16_t* o = block + kGridHeaderHalves;
  for (uint32_t v = 0; v < count; ++v, o += 3) {
    o[0] = (uint16_t)(grid_cell(pos[v].x, g.step.x) - c.cell[0]);
    o[1] = (uint16_t)(grid_cell(pos[v].y, g.step.y) - c.cell[1]);
    o[2] = (uint16_t)(grid_cell(pos[v].z, g.step.z) - c.cell[2]);
  }
  std::fill(o, block + grid_block_halves(count), (uint16_t)0);  // the padding
}

}  // namespace

PositionGrid position_grid_for_edge(double edge) {
  // The power of two at or below edge / 2^kGridEdgeBits: a grid no coarser than the rule says.
  const double want = std::max(std::ldexp(edge, -kGridEdgeBits), (double)FLT_MIN);
  const double above = power_of_two_above(want);
  const float step = (float)(above > want ? above / 2 : above);
  PositionGrid g;
  g.step = {step, step, step};
  return g;
}

namespace {

// The value at fraction f of v (reordered).
double percentile(std::vector<double>& v, double f) {
  const size_t i = std::min(v.size() - 1, (size_t)(f * (double)v.size()));
  std::nth_element(v.begin(), v.begin() + (ptrdiff_t)i, v.end());
  return v[i];
}

}  // namespace

PositionGrid position_grid_of(const Scene& scene) {
  const uint64_t tris = scene.triangle_count();
  if (tris < kGridMinTriangles) return {};
  // Edge lengths and corner magnitudes of evenly spaced triangles, in double (a float difference
  // can overflow).
  const uint64_t samples = std::min<uint64_t>(tris, kGridEdgeSamples);
  std::vector<double> lengths, magnitude[3];
  lengths.reserve(3 * samples);
  for (uint64_t i = 0; i < samples; ++i) {
    const uint64_t t = i * (tris / samples);
    for (int k = 0; k < 3; ++k) {
      const Vec3 a = scene.positions[scene.indices[3 * t + k]], b = scene.positions[scene.indices[3 * t + (k + 1) % 3]];
      const double dx = (double)a.x - b.x, dy = (double)a.y - b.y, dz = (double)a.z - b.z;
      const double l = std::sqrt(dx * dx + dy * dy + dz * dz);
      if (!std::isfinite(l)) continue;
      if (l > 0.0) lengths.push_back(l);
      const float c[3] = {a.x, a.y, a.z};
      for (int axis = 0; axis < 3; ++axis) magnitude[axis].push_back(std::fabs((double)c[axis]));
    }
  }
  if (lengths.empty()) return {};
  PositionGrid g = position_grid_for_edge(percentile(lengths, kGridEdgePercentile));
  // Coarser where the model reaches far in steps (a tiled or far-off model): its bulk within
  // 2^22 steps of zero, so that all but outliers stay on the 2^23-step grid.
  float* step[3] = {&g.step.x, &g.step.y, &g.step.z};
  for (int axis = 0; axis < 3; ++axis) {
    const double reach = percentile(magnitude[axis], kGridReachPercentile);
    *step[axis] = std::max(*step[axis], (float)power_of_two_above(std::max(std::ldexp(reach, -22), (double)FLT_MIN)));
  }
  return g;
}

void snap_meshlet_positions(Meshlets& part, const PositionGrid& grid) {
  part.grid = grid;
  for (Vec3& p : part.positions) p = snap_to_grid(grid, p);
}

void encode_meshlet_vertices(Meshlets& part) {
  const PositionGrid& g = part.grid;
  std::vector<Corner> corners(part.meshlets.size());
  size_t floats = 0, halves = 0;
  for (size_t i = 0; i < part.meshlets.size(); ++i) {
    const Meshlet& m = part.meshlets[i];
    corners[i] = corner_of(g, &part.positions[m.first_vertex], m.vertex_count);
    if (corners[i].fits) halves += grid_block_halves(m.vertex_count);
    else floats += m.vertex_count;
  }
  BigVector<Vec3> kept(floats);
  BigVector<uint16_t> blocks(halves);
  floats = halves = 0;
  for (size_t i = 0; i < part.meshlets.size(); ++i) {
    Meshlet& m = part.meshlets[i];
    const Vec3* pos = &part.positions[m.first_vertex];
    if (corners[i].fits) {
      write_block(corners[i], pos, m.vertex_count, g, &blocks[halves]);
      m.encoding = kMeshletGrid;
      m.first_vertex = (uint32_t)halves;
      halves += grid_block_halves(m.vertex_count);
    } else {
      std::copy(pos, pos + m.vertex_count, kept.begin() + floats);
      m.encoding = kMeshletFloats;
      m.first_vertex = (uint32_t)floats;
      floats += m.vertex_count;
    }
  }
  part.positions = std::move(kept);
  part.grid_vertices = std::move(blocks);
}

uint64_t meshlet_vertex_count(const Meshlets& all) {
  uint64_t n = 0;
  for (const Meshlet& m : all.meshlets) n += m.vertex_count;
  return n;
}

Vec3 meshlet_vertex(const Meshlets& all, const Meshlet& m, uint32_t v) {
  if (m.encoding == kMeshletGrid) return grid_block_vertex(all.grid, &all.grid_vertices[m.first_vertex], v);
  return all.positions[m.first_vertex + v];
}

BigVector<Vec3> snapped_positions(const Scene& scene, const PositionGrid& grid) {
  BigVector<Vec3> out(scene.positions.size());
  parallel_for(out.size(), kSnapChunk, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t i = begin; i < end; ++i) out[i] = snap_to_grid(grid, scene.positions[i]);
  });
  return out;
}

}  // namespace facet
