// finish_meshlets (meshlet_finish.h): culling bounds per meshlet, in double precision, rounded
// so the float bounds stay conservative; one part's meshlets in order.
#include "engine/meshlets/meshlet_finish.h"

#include <algorithm>
#include <cmath>

namespace facet {

namespace {

struct D3 {
  double x, y, z;
};
D3 d3(Vec3 v) { return {v.x, v.y, v.z}; }
D3 sub(D3 a, D3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
double dot(D3 a, D3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
D3 cross(D3 a, D3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }

float round_up(double v) {
  float f = (float)v;
  return (double)f < v ? std::nextafter(f, INFINITY) : f;
}
float round_down(double v) {
  float f = (float)v;
  return (double)f > v ? std::nextafter(f, -INFINITY) : f;
}

// Each slot's triangle normal as the cone needs it: the unit normal (the corners' cross product
// over its length) and whether the triangle has a normal at all (a length above 1e-9 of
// |e1| |e2|: else its corners are in a line).
struct SlotNormals {
  D3 unit[kMeshletMaxTriangles];
  bool has_normal[kMeshletMaxTriangles];
};

// Inlined into the loop over slots: each slot's square root and division then overlap the next
// slot's products.
inline __attribute__((always_inline)) void slot_normal(D3 p0, D3 p1, D3 p2, SlotNormals& out, uint32_t s) {
  const D3 e1 = sub(p1, p0), e2 = sub(p2, p0), n = cross(e1, e2);
  const double n2 = dot(n, n), len = std::sqrt(n2), inv = 1.0 / len;  // one division, not three
  out.unit[s] = {n.x * inv, n.y * inv, n.z * inv};
  // len > 1e-9 |e1| |e2|, that floor's square root taken only near it: twice its square is
  // beyond any rounding of either side (a false or NaN comparison takes the exact test).
  const double e = dot(e1, e1) * dot(e2, e2);
  out.has_normal[s] = n2 > 2e-18 * e || len > 1e-9 * std::sqrt(e);
}

// The bounding sphere and normal cone of meshlet m (meshlet_cull.h), in double precision from the
// float positions the projection reads, rounded so that they stay conservative as floats.
void set_bounds(Meshlet& m, const Vec3* pos, const uint32_t* packed) {
  m.cone_axis = {0.0f, 0.0f, 0.0f};
  m.cone_cos = 0.0f;  // with cone_sin 1: never culled as back-facing
  m.cone_sin = 1.0f;
  D3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
  for (uint32_t v = 0; v < m.vertex_count; ++v) {
    D3 p = d3(pos[v]);
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) {
      m.center = {0.0f, 0.0f, 0.0f};
      m.radius = NAN;
      return;
    }
    lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
    hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
  }
  m.center = {(float)((lo.x + hi.x) / 2), (float)((lo.y + hi.y) / 2), (float)((lo.z + hi.z) / 2)};
  double r2 = 0.0;
  for (uint32_t v = 0; v < m.vertex_count; ++v) {
    D3 e = sub(d3(pos[v]), d3(m.center));
    r2 = std::max(r2, dot(e, e));
  }
  m.radius = round_up(std::sqrt(r2) * (1.0 + 1e-6));

  SlotNormals normals;
  for (uint32_t t = 0; t < m.triangle_count; ++t)
    slot_normal(d3(pos[local_index(packed[t], 0)]), d3(pos[local_index(packed[t], 1)]),
                d3(pos[local_index(packed[t], 2)]), normals, t);
  // A triangle without a normal leaves the cone open.
  D3 sum{0, 0, 0};
  for (uint32_t t = 0; t < m.triangle_count; ++t) {
    if (!normals.has_normal[t]) return;
    sum = {sum.x + normals.unit[t].x, sum.y + normals.unit[t].y, sum.z + normals.unit[t].z};
  }
  double len = std::sqrt(dot(sum, sum));
  if (!(len > 1e-6)) return;
  D3 axis{sum.x / len, sum.y / len, sum.z / len};
  double cos_min = 1.0;
  for (uint32_t t = 0; t < m.triangle_count; ++t) cos_min = std::min(cos_min, dot(normals.unit[t], axis));
  // Float rounding of the axis moves it by ~1e-7 radians; 1e-6 of slack covers it.
  cos_min -= 1e-6;
  if (!(cos_min > 1e-3)) return;  // the normals span (nearly) a half-space or more
  m.cone_axis = {(float)axis.x, (float)axis.y, (float)axis.z};
  m.cone_cos = round_down(cos_min);
  m.cone_sin = std::min(1.0f, round_up(std::sqrt(1.0 - cos_min * cos_min) + 1e-6));
}

}  // namespace

void finish_meshlets(Meshlets& part) {
  for (Meshlet& m : part.meshlets) set_bounds(m, &part.positions[m.first_vertex], &part.triangles[m.first_triangle]);
}

}  // namespace facet
