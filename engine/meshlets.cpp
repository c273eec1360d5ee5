#include "engine/meshlets.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

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

// The bounding sphere and normal cone of meshlet m (cluster.h), in double precision from the
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

  // Unit normals; a triangle without one (its corners in a line) leaves the cone open.
  D3 sum{0, 0, 0};
  D3 normals[kMeshletMaxTriangles];
  for (uint32_t t = 0; t < m.triangle_count; ++t) {
    D3 p0 = d3(pos[local_index(packed[t], 0)]), p1 = d3(pos[local_index(packed[t], 1)]);
    D3 p2 = d3(pos[local_index(packed[t], 2)]);
    D3 e1 = sub(p1, p0), e2 = sub(p2, p0);
    D3 n = cross(e1, e2);
    double len = std::sqrt(dot(n, n));
    if (!(len > 1e-9 * std::sqrt(dot(e1, e1) * dot(e2, e2)))) return;
    normals[t] = {n.x / len, n.y / len, n.z / len};
    sum = {sum.x + normals[t].x, sum.y + normals[t].y, sum.z + normals[t].z};
  }
  double len = std::sqrt(dot(sum, sum));
  if (!(len > 1e-6)) return;
  D3 axis{sum.x / len, sum.y / len, sum.z / len};
  double cos_min = 1.0;
  for (uint32_t t = 0; t < m.triangle_count; ++t) cos_min = std::min(cos_min, dot(normals[t], axis));
  // Float rounding of the axis moves it by ~1e-7 radians; 1e-6 of slack covers it.
  cos_min -= 1e-6;
  if (!(cos_min > 1e-3)) return;  // the normals span (nearly) a half-space or more
  m.cone_axis = {(float)axis.x, (float)axis.y, (float)axis.z};
  m.cone_cos = round_down(cos_min);
  m.cone_sin = std::min(1.0f, round_up(std::sqrt(1.0 - cos_min * cos_min) + 1e-6));
}

}  // namespace

Meshlets build_meshlets(const Scene& scene) {
  Meshlets out;
  const uint32_t tris = scene.triangle_count(), verts = scene.vertex_count();
  out.triangles.reserve(tris);
  out.positions.reserve(tris);  // about one vertex per triangle for meshes in strip order
  out.meshlets.reserve(tris / 200 + 1);
  std::vector<int32_t> local(verts, -1);  // scene vertex -> index in the open meshlet
  std::vector<uint32_t> used;             // scene vertices of the open meshlet, to reset `local`
  Meshlet cur{};
  auto close = [&] {
    if (cur.triangle_count) {
      set_bounds(cur, &out.positions[cur.first_vertex], &out.triangles[cur.first_triangle]);
      out.meshlets.push_back(cur);
    }
    for (uint32_t g : used) local[g] = -1;
    used.clear();
  };
  for (uint32_t t = 0; t < tris; ++t) {
    const uint32_t* g = &scene.indices[3 * (size_t)t];
    int fresh = 0;
    for (int k = 0; k < 3; ++k) {
      if (g[k] >= verts)
        throw std::invalid_argument("triangle " + std::to_string(t) + " uses vertex " + std::to_string(g[k]) +
                                    " of " + std::to_string(verts));
      bool repeat = (k > 0 && g[k] == g[0]) || (k > 1 && g[k] == g[1]);
      fresh += local[g[k]] < 0 && !repeat;
    }
    if (cur.triangle_count == kMeshletMaxTriangles || cur.vertex_count + fresh > kMeshletMaxVertices) {
      close();
      cur = Meshlet{};
      cur.first_triangle = t;
      cur.first_vertex = (uint32_t)out.positions.size();
    }
    uint32_t packed = 0;
    for (int k = 0; k < 3; ++k) {
      if (local[g[k]] < 0) {
        local[g[k]] = cur.vertex_count++;
        used.push_back(g[k]);
        out.positions.push_back(scene.positions[g[k]]);
      }
      packed |= (uint32_t)local[g[k]] << (8 * k);
    }
    out.triangles.push_back(packed);
    ++cur.triangle_count;
  }
  close();
  return out;
}

}  // namespace facet
