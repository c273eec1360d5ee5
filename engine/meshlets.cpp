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

// Two 8-bit coordinates interleaved bit by bit (a Z-order curve).
uint32_t morton2(uint32_t x, uint32_t y) {
  uint32_t code = 0;
  for (int b = 0; b < 8; ++b) code |= ((x >> b) & 1u) << (2 * b) | ((y >> b) & 1u) << (2 * b + 1);
  return code;
}

// Reorders one finished meshlet's slots along a Z-order curve over the patch's surface, then
// numbers its vertices in order of first use. A patch grows ring by ring, so its slots come out
// scattered, and neighbouring lanes of a geometry warp read unrelated vertices from shared
// memory; in curve order, 32 consecutive slots are a small area sharing most of its vertices,
// closer to what a strip of the file's triangles gives. Measured on the 20 M sphere built as
// patches: geometry 0.273 -> 0.270 ms, still short of its strips' 0.258 (NOTES.md, v8).
void order_meshlet(Meshlet& m, std::vector<Vec3>& positions, std::vector<uint32_t>& triangles,
                   std::vector<uint32_t>& ids) {
  const uint32_t n = m.triangle_count, first = m.first_triangle;
  const Vec3* pos = &positions[m.first_vertex];
  D3 centroid[kMeshletMaxTriangles], normal{0, 0, 0};
  for (uint32_t t = 0; t < n; ++t) {
    D3 p0 = d3(pos[local_index(triangles[first + t], 0)]), p1 = d3(pos[local_index(triangles[first + t], 1)]);
    D3 p2 = d3(pos[local_index(triangles[first + t], 2)]);
    centroid[t] = {(p0.x + p1.x + p2.x) / 3, (p0.y + p1.y + p2.y) / 3, (p0.z + p1.z + p2.z) / 3};
    D3 c = cross(sub(p1, p0), sub(p2, p0));
    double len = std::sqrt(dot(c, c));
    if (len > 0 && std::isfinite(len)) normal = {normal.x + c.x / len, normal.y + c.y / len, normal.z + c.z / len};
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
  uint32_t key[kMeshletMaxTriangles], order[kMeshletMaxTriangles];
  for (uint32_t t = 0; t < n; ++t) {
    uint32_t q[2];
    for (int a = 0; a < 2; ++a) {
      double f = hi[a] > lo[a] ? (uv[t][a] - lo[a]) / (hi[a] - lo[a]) : 0.0;
      q[a] = std::isfinite(f) ? (uint32_t)std::clamp(f * 255.0, 0.0, 255.0) : 0u;
    }
    key[t] = morton2(q[0], q[1]);
    order[t] = t;
  }
  std::stable_sort(order, order + n, [&](uint32_t a, uint32_t b) { return key[a] < key[b]; });

  uint32_t packed[kMeshletMaxTriangles], id[kMeshletMaxTriangles];
  int32_t renumber[kMeshletMaxVertices];
  Vec3 moved[kMeshletMaxVertices];
  std::fill(renumber, renumber + m.vertex_count, -1);
  uint32_t next = 0;
  for (uint32_t s = 0; s < n; ++s) {
    const uint32_t old = triangles[first + order[s]];
    uint32_t p = 0;
    for (int k = 0; k < 3; ++k) {
      const uint32_t l = local_index(old, k);
      if (renumber[l] < 0) {
        renumber[l] = (int32_t)next;
        moved[next++] = pos[l];
      }
      p |= (uint32_t)renumber[l] << (8 * k);
    }
    packed[s] = p;
    id[s] = ids[first + order[s]];
  }
  std::copy(packed, packed + n, triangles.begin() + first);
  std::copy(id, id + n, ids.begin() + first);
  std::copy(moved, moved + m.vertex_count, positions.begin() + m.first_vertex);
}

void check_indices(const Scene& scene) {
  const uint32_t verts = scene.vertex_count();
  for (size_t c = 0; c < scene.indices.size(); ++c)
    if (scene.indices[c] >= verts)
      throw std::invalid_argument("triangle " + std::to_string(c / 3) + " uses vertex " +
                                  std::to_string(scene.indices[c]) + " of " + std::to_string(verts));
}

// The meshlet being filled, appended to `out` as triangles join it; both builders use it.
class OpenMeshlet {
 public:
  OpenMeshlet(const Scene& scene, Meshlets& out) : m_scene(scene), m_out(out), m_local(scene.vertex_count(), -1) {}

  const Meshlet& meshlet() const { return m_cur; }
  // Vertices triangle t would add (a repeated corner counts once).
  int fresh_vertices(uint32_t t) const {
    const uint32_t* g = &m_scene.indices[3 * (size_t)t];
    int fresh = 0;
    for (int k = 0; k < 3; ++k) {
      bool repeat = (k > 0 && g[k] == g[0]) || (k > 1 && g[k] == g[1]);
      fresh += m_local[g[k]] < 0 && !repeat;
    }
    return fresh;
  }
  // Appends triangle t (and, with ids, its index); calls new_vertex(g) for each vertex it adds.
  template <class NewVertex>
  void add(uint32_t t, bool ids, NewVertex&& new_vertex) {
    const uint32_t* g = &m_scene.indices[3 * (size_t)t];
    uint32_t packed = 0;
    for (int k = 0; k < 3; ++k) {
      if (m_local[g[k]] < 0) {
        m_local[g[k]] = m_cur.vertex_count++;
        m_used.push_back(g[k]);
        m_out.positions.push_back(m_scene.positions[g[k]]);
        new_vertex(g[k]);
      }
      packed |= (uint32_t)m_local[g[k]] << (8 * k);
    }
    m_out.triangles.push_back(packed);
    if (ids) m_out.triangle_ids.push_back(t);
    ++m_cur.triangle_count;
  }
  // Finishes the meshlet (slots ordered first when `order`), and opens the next one.
  void close(bool order) {
    if (m_cur.triangle_count) {
      if (order) order_meshlet(m_cur, m_out.positions, m_out.triangles, m_out.triangle_ids);
      set_bounds(m_cur, &m_out.positions[m_cur.first_vertex], &m_out.triangles[m_cur.first_triangle]);
      m_out.meshlets.push_back(m_cur);
    }
    for (uint32_t g : m_used) m_local[g] = -1;
    m_used.clear();
    m_cur = Meshlet{};
    m_cur.first_triangle = (uint32_t)m_out.triangles.size();
    m_cur.first_vertex = (uint32_t)m_out.positions.size();
  }

 private:
  const Scene& m_scene;
  Meshlets& m_out;
  std::vector<int32_t> m_local;  // scene vertex -> index in the open meshlet, or -1
  std::vector<uint32_t> m_used;  // scene vertices of the open meshlet, to reset m_local
  Meshlet m_cur{};
};

}  // namespace

Meshlets build_meshlet_patches(const Scene& scene) {
  check_indices(scene);
  Meshlets out;
  const uint32_t tris = scene.triangle_count(), verts = scene.vertex_count();
  out.triangles.reserve(tris);
  out.triangle_ids.reserve(tris);
  out.positions.reserve(tris);
  out.meshlets.reserve(tris / 100 + 1);

  // The triangles around each vertex (a corner each, so a triangle with a repeated vertex is
  // listed twice there).
  std::vector<uint32_t> first(verts + 1, 0), around(3 * (size_t)tris);
  for (size_t c = 0; c < 3 * (size_t)tris; ++c) ++first[scene.indices[c] + 1];
  for (uint32_t v = 0; v < verts; ++v) first[v + 1] += first[v];
  {
    std::vector<uint32_t> fill(first.begin(), first.end() - 1);
    for (size_t c = 0; c < 3 * (size_t)tris; ++c) around[fill[scene.indices[c]]++] = (uint32_t)(c / 3);
  }

  std::vector<uint8_t> taken(tris, 0);
  // Corners of a not-yet-taken triangle whose vertex the open meshlet holds (0..3): 3 costs no
  // new vertex, 2 one, 1 two. Candidates wait in a queue per count, oldest first, which grows
  // the patch ring by ring around its seed; stale entries are skipped when met.
  std::vector<uint8_t> shared(tris, 0);
  std::vector<uint32_t> queue[4];
  size_t head[4] = {0, 0, 0, 0};
  std::vector<uint32_t> touched;  // triangles whose `shared` to reset
  OpenMeshlet open(scene, out);
  open.close(false);  // opens the first

  auto take = [&](uint32_t t) {
    taken[t] = 1;
    open.add(t, true, [&](uint32_t g) {
      for (uint32_t a = first[g]; a < first[g + 1]; ++a) {
        const uint32_t n = around[a];
        if (taken[n]) continue;
        if (shared[n] == 0) touched.push_back(n);
        ++shared[n];
        queue[shared[n]].push_back(n);
      }
    });
  };
  // The open meshlet's best candidate: fewest new vertices, then longest waiting; or none.
  auto best_candidate = [&]() -> int64_t {
    for (int c = 3; c >= 1; --c)
      for (; head[c] < queue[c].size(); ++head[c]) {
        const uint32_t t = queue[c][head[c]];
        if (!taken[t] && shared[t] == c) return t;
      }
    return -1;
  };
  uint32_t in_order = 0;  // every triangle before it is taken
  auto next_in_order = [&]() {
    while (in_order < tris && taken[in_order]) ++in_order;
    return in_order;
  };

  int64_t seed = -1;
  for (uint32_t done = 0; done < tris;) {
    take(seed >= 0 && !taken[seed] ? (uint32_t)seed : next_in_order());
    ++done;
    while (open.meshlet().triangle_count < kMeshletMaxTriangles && done < tris) {
      int64_t t = best_candidate();
      // Nothing touches the patch (an island, or a pocket left between patches): the next
      // triangle in file order fills it up instead, so that meshlets stay full.
      if (t < 0) t = next_in_order();
      if (open.meshlet().vertex_count + open.fresh_vertices((uint32_t)t) > kPatchMaxVertices) break;
      take((uint32_t)t);
      ++done;
    }
    // The next patch starts beside this one, where its best candidate was.
    seed = best_candidate();
    open.close(true);
    for (uint32_t t : touched) shared[t] = 0;
    touched.clear();
    for (int c = 0; c < 4; ++c) {
      queue[c].clear();
      head[c] = 0;
    }
  }
  return out;
}

Meshlets build_meshlet_runs(const Scene& scene) {
  check_indices(scene);
  Meshlets out;
  const uint32_t tris = scene.triangle_count();
  out.triangles.reserve(tris);
  out.positions.reserve(tris);  // about one vertex per triangle for meshes in strip order
  out.meshlets.reserve(tris / 100 + 1);
  OpenMeshlet open(scene, out);
  open.close(false);  // opens the first
  for (uint32_t t = 0; t < tris; ++t) {
    const Meshlet& m = open.meshlet();
    if (m.triangle_count == kMeshletMaxTriangles || m.vertex_count + open.fresh_vertices(t) > kMeshletMaxVertices)
      open.close(false);
    open.add(t, false, [](uint32_t) {});
  }
  open.close(false);
  return out;
}

Meshlets build_meshlets(const Scene& scene) {
  Meshlets runs = build_meshlet_runs(scene);
  if (runs.positions.size() <= kKeepFileOrder * (double)runs.triangles.size()) return runs;
  return build_meshlet_patches(scene);
}

std::shared_ptr<const Meshlets> scene_meshlets(const Scene& scene) {
  if (scene.meshlets) return scene.meshlets;
  return std::make_shared<const Meshlets>(build_meshlets(scene));
}

}  // namespace facet
