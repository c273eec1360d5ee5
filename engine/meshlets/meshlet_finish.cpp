// finish_meshlets (meshlet_finish.h): slot order and culling bounds per meshlet, in double
// precision, rounded so the float bounds stay conservative; one part's meshlets in order.
#include "engine/meshlets/meshlet_finish.h"

#include <algorithm>
#include <cmath>

namespace facet {

namespace {

struct D3 { double x, y, z; };
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
// over its length), that length, and whether the triangle has a normal at all (a length above
// 1e-9 of |e1| |e2|: else its corners are in a line). The slot order computes them on its way, so
// that the bounds after it need not.
struct SlotNormals {
  D3 unit[kMeshletMaxTriangles];
  double length[kMeshletMaxTriangles];
  bool has_normal[kMeshletMaxTriangles];
};

// Inlined into the loops over slots (GCC kept it out of line, two callers): each slot's square
// root and division then overlap the next slot's products.
inline __attribute__((always_inline)) void slot_normal(D3 p0, D3 p1, D3 p2, SlotNormals& out, uint32_t s) {
  const D3 e1 = sub(p1, p0), e2 = sub(p2, p0), n = cross(e1, e2);
  const double n2 = dot(n, n), len = std::sqrt(n2), inv = 1.0 / len;  // one division, not three
  out.unit[s] = {n.x * inv, n.y * inv, n.z * inv};
  out.length[s] = len;
  // len > 1e-9 |e1| |e2|, that floor's square root taken only near it: twice its square is
  // beyond any rounding of either side (a false or NaN comparison takes the exact test).
  const double e = dot(e1, e1) * dot(e2, e2);
  out.has_normal[s] = n2 > 2e-18 * e || len > 1e-9 * std::sqrt(e);
}

// The bounding sphere and normal cone of meshlet m (meshlet_cull.h), in double precision from the
// float positions the projection reads, rounded so that they stay conservative as floats.
// `normals`: its slots' (SlotNormals), or null to compute them here.
void set_bounds(Meshlet& m, const Vec3* pos, const uint32_t* packed, const SlotNormals* normals) {
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

  SlotNormals own;
  if (!normals) {
    for (uint32_t t = 0; t < m.triangle_count; ++t)
      slot_normal(d3(pos[local_index(packed[t], 0)]), d3(pos[local_index(packed[t], 1)]),
                  d3(pos[local_index(packed[t], 2)]), own, t);
    normals = &own;
  }
  // A triangle without a normal leaves the cone open.
  D3 sum{0, 0, 0};
  for (uint32_t t = 0; t < m.triangle_count; ++t) {
    if (!normals->has_normal[t]) return;
    sum = {sum.x + normals->unit[t].x, sum.y + normals->unit[t].y, sum.z + normals->unit[t].z};
  }
  double len = std::sqrt(dot(sum, sum));
  if (!(len > 1e-6)) return;
  D3 axis{sum.x / len, sum.y / len, sum.z / len};
  double cos_min = 1.0;
  for (uint32_t t = 0; t < m.triangle_count; ++t) cos_min = std::min(cos_min, dot(normals->unit[t], axis));
  // Float rounding of the axis moves it by ~1e-7 radians; 1e-6 of slack covers it.
  cos_min -= 1e-6;
  if (!(cos_min > 1e-3)) return;  // the normals span (nearly) a half-space or more
  m.cone_axis = {(float)axis.x, (float)axis.y, (float)axis.z};
  m.cone_cos = round_down(cos_min);
  m.cone_sin = std::min(1.0f, round_up(std::sqrt(1.0 - cos_min * cos_min) + 1e-6));
}

// Eight bits spread to every other bit.
uint32_t spread2(uint32_t x) {
  x &= 0xffu;
  x = (x | x << 4) & 0x0f0fu;
  x = (x | x << 2) & 0x3333u;
  return (x | x << 1) & 0x5555u;
}

// Two 8-bit coordinates interleaved bit by bit (a Z-order curve), x in the even bits.
uint32_t morton2(uint32_t x, uint32_t y) { return spread2(x) | spread2(y) << 1; }

// slot[0..n) (n <= kMeshletMaxTriangles) ordered by key (16 bits), equal keys in slot order: two
// stable passes of a byte each, where a comparison sort of 128 slots cost a fifth of the ordering.
void sort_slots(const uint16_t* key, uint32_t n, uint32_t* slot) {
  uint32_t scratch[kMeshletMaxTriangles];
  for (uint32_t t = 0; t < n; ++t) slot[t] = t;
  uint32_t* from = slot;
  uint32_t* to = scratch;
  for (int shift = 0; shift < 16; shift += 8) {
    uint32_t start[257] = {};
    for (uint32_t i = 0; i < n; ++i) ++start[(key[from[i]] >> shift & 0xffu) + 1];
    for (int d = 0; d < 256; ++d) start[d + 1] += start[d];
    for (uint32_t i = 0; i < n; ++i) to[start[key[from[i]] >> shift & 0xffu]++] = from[i];
    std::swap(from, to);  // after the second pass the result is back in slot
  }
}

// Reorders one finished meshlet's slots along a Z-order curve over the patch's surface, then
// numbers its vertices in order of first use. A patch grows ring by ring, so its slots come out
// scattered, and neighbouring lanes of a geometry warp read unrelated vertices from shared
// memory; in curve order, 32 consecutive slots are a small area sharing most of its vertices,
// closer to what a strip of the file's triangles gives. Measured on the 20 M sphere built as
// patches: geometry 0.273 -> 0.270 ms, still short of its strips' 0.258 (NOTES.md, v8).
// `normals`: the slots' SlotNormals in the new order.
void order_meshlet(Meshlet& m, BigVector<Vec3>& positions, BigVector<uint32_t>& triangles,
                   BigVector<uint32_t>& ids, SlotNormals& normals) {
  const uint32_t n = m.triangle_count, first = m.first_triangle;
  const Vec3* pos = &positions[m.first_vertex];
  D3 centroid[kMeshletMaxTriangles], normal{0, 0, 0};
  SlotNormals before;  // in the old slot order
  for (uint32_t t = 0; t < n; ++t) {
    D3 p0 = d3(pos[local_index(triangles[first + t], 0)]), p1 = d3(pos[local_index(triangles[first + t], 1)]);
    D3 p2 = d3(pos[local_index(triangles[first + t], 2)]);
    // Three times the centroid: the curve below scales by the patch's extent, so no division.
    centroid[t] = {p0.x + p1.x + p2.x, p0.y + p1.y + p2.y, p0.z + p1.z + p2.z};
    slot_normal(p0, p1, p2, before, t);
    const double len = before.length[t];
    if (len > 0 && std::isfinite(len))
      normal = {normal.x + before.unit[t].x, normal.y + before.unit[t].y, normal.z + before.unit[t].z};
  }
  // Two directions across the patch: perpendicular to its mean normal (any pair if it has none).
  D3 helper = std::fabs(normal.x) < std::fabs(normal.y) ? D3{1, 0, 0} : D3{0, 1, 0};
  if (!(dot(normal, normal) > 1e-12)) {
    normal = {0, 0, 1};
    helper = {1, 0, 0};
  }
  D3 u = cross(normal, helper), v = cross(normal, u);
  double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY}, uv[kMeshletMaxTriangles][2];
  for (uint32_t t = 0; t < n; ++t) {
    uv[t][0] = dot(centroid[t], u);
    uv[t][1] = dot(centroid[t], v);
    for (int a = 0; a < 2; ++a)
      if (std::isfinite(uv[t][a])) {
        lo[a] = std::min(lo[a], uv[t][a]);
        hi[a] = std::max(hi[a], uv[t][a]);
      }
  }
  // Slots by curve position, ties in slot order.
  uint16_t curve[kMeshletMaxTriangles];
  uint32_t order[kMeshletMaxTriangles];
  double scale[2];  // cells an unit of u and v: one division a meshlet, not one a slot
  for (int a = 0; a < 2; ++a) scale[a] = hi[a] > lo[a] ? 255.0 / (hi[a] - lo[a]) : 0.0;
  for (uint32_t t = 0; t < n; ++t) {
    uint32_t q[2];
    for (int a = 0; a < 2; ++a) {
      const double f = (uv[t][a] - lo[a]) * scale[a];
      q[a] = std::isfinite(f) ? (uint32_t)std::clamp(f, 0.0, 255.0) : 0u;
    }
    curve[t] = (uint16_t)morton2(q[0], q[1]);
  }
  sort_slots(curve, n, order);

  uint32_t packed[kMeshletMaxTriangles], id[kMeshletMaxTriangles];
  int32_t renumber[kMeshletMaxVertices];
  Vec3 moved[kMeshletMaxVertices + 1];  // one more: the write below a corner already numbered
  std::fill(renumber, renumber + m.vertex_count, -1);
  uint32_t next = 0;
  for (uint32_t s = 0; s < n; ++s) {
    const uint32_t old = triangles[first + order[s]];
    uint32_t p = 0;
    for (int k = 0; k < 3; ++k) {
      // Without a branch (whether a corner is new is a coin toss): a corner numbered already
      // writes its position where the next new one will overwrite it.
      const uint32_t l = local_index(old, k);
      const bool fresh = renumber[l] < 0;
      const int32_t number = fresh ? (int32_t)next : renumber[l];
      renumber[l] = number;
      moved[next] = pos[l];
      next += fresh;
      p |= (uint32_t)number << (8 * k);
    }
    packed[s] = p;
    id[s] = ids[first + order[s]];
    normals.unit[s] = before.unit[order[s]];
    normals.length[s] = before.length[order[s]];
    normals.has_normal[s] = before.has_normal[order[s]];
  }
  std::copy(packed, packed + n, triangles.begin() + first);
  std::copy(id, id + n, ids.begin() + first);
  std::copy(moved, moved + m.vertex_count, positions.begin() + m.first_vertex);
}

}  // namespace

void finish_meshlets(Meshlets& part, bool order) {
  SlotNormals normals;
  for (Meshlet& m : part.meshlets) {
    if (order) order_meshlet(m, part.positions, part.triangles, part.triangle_ids, normals);
    set_bounds(m, &part.positions[m.first_vertex], &part.triangles[m.first_triangle], order ? &normals : nullptr);
  }
}

}  // namespace facet
