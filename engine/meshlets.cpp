// The two meshlet groupings (meshlets.h): runs in file order, and patches grown over the
// surface. Grouping is sequential (each choice depends on the last); the per-meshlet work after
// it, slot order and bounds, runs in parallel (meshlet_finish.h).
#include "engine/meshlets.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <stdexcept>
#include <string>

#include "engine/meshlet_finish.h"
#include "engine/parallel.h"

namespace facet {

namespace {

// Triangles grouped between two looks at the build's hooks: a few milliseconds of work.
constexpr uint32_t kHookEvery = 1 << 16;

void check_indices(const Scene& scene) {
  const uint32_t verts = scene.vertex_count();
  std::atomic<bool> bad{false};
  parallel_for(scene.indices.size(), 1 << 18, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t c = begin; c < end; ++c)
      if (scene.indices[c] >= verts) bad = true;
  });
  if (!bad) return;
  for (size_t c = 0; c < scene.indices.size(); ++c)  // the first bad one, for the message
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
  // Closes the meshlet (its order and bounds come later: finish_meshlets), opens the next one.
  void close() {
    if (m_cur.triangle_count) m_out.meshlets.push_back(m_cur);
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

// The triangles around each vertex, as offsets (first) into one array (around): a corner each,
// so a triangle with a repeated vertex is listed twice there.
struct VertexTriangles {
  std::vector<uint32_t> first;   // [vertex_count + 1]: vertex v's triangles are around[first[v]..first[v+1])
  std::vector<uint32_t> around;  // [3 * triangle_count]: triangle indices, ascending per vertex
};

VertexTriangles triangles_around_vertices(const Scene& scene) {
  const size_t corners = scene.indices.size();
  VertexTriangles vt;
  vt.first.assign((size_t)scene.vertex_count() + 1, 0);
  vt.around.resize(corners);
  for (size_t c = 0; c < corners; ++c) ++vt.first[scene.indices[c] + 1];
  for (size_t v = 0; v + 1 < vt.first.size(); ++v) vt.first[v + 1] += vt.first[v];
  std::vector<uint32_t> fill(vt.first.begin(), vt.first.end() - 1);
  for (size_t c = 0; c < corners; ++c) vt.around[fill[scene.indices[c]]++] = (uint32_t)(c / 3);
  return vt;
}

// Grows patches one after another: each from a seed, by the candidate that adds the fewest new
// vertices. Candidates are not-yet-taken triangles with corners in the open meshlet (`shared`
// counts them, 0..3: 3 costs no new vertex, 2 one, 1 two); they wait in a queue per count, oldest
// first, which grows the patch ring by ring around its seed; stale entries are skipped when met.
class PatchGrower {
 public:
  PatchGrower(const Scene& scene, Meshlets& out, const MeshletBuildHooks& hooks)
      : m_hooks(hooks), m_tris(scene.triangle_count()), m_around(triangles_around_vertices(scene)), m_open(scene, out),
        m_taken(m_tris, 0), m_shared(m_tris, 0) {
    m_open.close();  // opens the first
  }

  void run() {
    int64_t seed = -1;
    while (m_done < m_tris) {
      take(seed >= 0 && !m_taken[seed] ? (uint32_t)seed : next_in_order());
      grow();
      // The next patch starts beside this one, where its best candidate was.
      seed = best_candidate();
      m_open.close();
      forget_candidates();
      if (m_done - m_reported >= kHookEvery) {
        if (m_hooks.cancel && m_hooks.cancel->load(std::memory_order_relaxed)) return;
        if (m_hooks.progress) m_hooks.progress(m_done);
        m_reported = m_done;
      }
    }
  }

 private:
  // Adds candidates to the open meshlet until it is full or the next would pass kPatchMaxVertices.
  void grow() {
    while (m_open.meshlet().triangle_count < kMeshletMaxTriangles && m_done < m_tris) {
      int64_t t = best_candidate();
      // Nothing touches the patch (an island, or a pocket left between patches): the next
      // triangle in file order fills it up instead, so that meshlets stay full.
      if (t < 0) t = next_in_order();
      if (m_open.meshlet().vertex_count + m_open.fresh_vertices((uint32_t)t) > kPatchMaxVertices) return;
      take((uint32_t)t);
    }
  }

  void take(uint32_t t) {
    m_taken[t] = 1;
    ++m_done;
    m_open.add(t, true, [&](uint32_t g) {
      for (uint32_t a = m_around.first[g]; a < m_around.first[g + 1]; ++a) {
        const uint32_t n = m_around.around[a];
        if (m_taken[n]) continue;
        if (m_shared[n] == 0) m_touched.push_back(n);
        ++m_shared[n];
        m_queue[m_shared[n]].push_back(n);
      }
    });
  }

  // The open meshlet's best candidate: fewest new vertices, then longest waiting; or -1.
  int64_t best_candidate() {
    for (int c = 3; c >= 1; --c)
      for (; m_head[c] < m_queue[c].size(); ++m_head[c]) {
        const uint32_t t = m_queue[c][m_head[c]];
        if (!m_taken[t] && m_shared[t] == c) return t;
      }
    return -1;
  }

  uint32_t next_in_order() {
    while (m_in_order < m_tris && m_taken[m_in_order]) ++m_in_order;
    return m_in_order;
  }

  void forget_candidates() {
    for (uint32_t t : m_touched) m_shared[t] = 0;
    m_touched.clear();
    for (int c = 0; c < 4; ++c) {
      m_queue[c].clear();
      m_head[c] = 0;
    }
  }

  const MeshletBuildHooks& m_hooks;
  uint32_t m_reported = 0;  // m_done when the hooks were last called
  const uint32_t m_tris;
  const VertexTriangles m_around;
  OpenMeshlet m_open;
  std::vector<uint8_t> m_taken;   // per triangle: in a meshlet already
  std::vector<uint8_t> m_shared;  // per triangle: its corners the open meshlet holds
  std::vector<uint32_t> m_queue[4];
  size_t m_head[4] = {0, 0, 0, 0};
  std::vector<uint32_t> m_touched;  // triangles whose m_shared to reset
  uint32_t m_in_order = 0;          // every triangle before it is taken
  uint32_t m_done = 0;              // triangles taken
};

}  // namespace

namespace {

Meshlets patches_with(const Scene& scene, const MeshletBuildHooks& hooks) {
  check_indices(scene);
  Meshlets out;
  const uint32_t tris = scene.triangle_count();
  out.triangles.reserve(tris);
  out.triangle_ids.reserve(tris);
  out.positions.reserve(tris);
  out.meshlets.reserve(tris / 100 + 1);
  PatchGrower(scene, out, hooks).run();
  if (hooks.cancel && hooks.cancel->load()) return out;  // incomplete: the caller discards it
  finish_meshlets(out, true);
  return out;
}

}  // namespace

Meshlets build_meshlet_patches(const Scene& scene) { return patches_with(scene, {}); }

namespace {

// Runs grouped, without their bounds yet (finish_meshlets).
Meshlets group_runs(const Scene& scene, const MeshletBuildHooks& hooks) {
  check_indices(scene);
  Meshlets out;
  const uint32_t tris = scene.triangle_count();
  out.triangles.reserve(tris);
  out.positions.reserve(tris);  // about one vertex per triangle for meshes in strip order
  out.meshlets.reserve(tris / 100 + 1);
  OpenMeshlet open(scene, out);
  open.close();  // opens the first
  for (uint32_t t = 0; t < tris; ++t) {
    const Meshlet& m = open.meshlet();
    if (m.triangle_count == kMeshletMaxTriangles || m.vertex_count + open.fresh_vertices(t) > kMeshletMaxVertices)
      open.close();
    open.add(t, false, [](uint32_t) {});
    if ((t + 1) % kHookEvery == 0) {
      if (hooks.cancel && hooks.cancel->load(std::memory_order_relaxed)) return out;
      if (hooks.progress) hooks.progress(t + 1);
    }
  }
  open.close();
  return out;
}

}  // namespace

Meshlets build_meshlet_runs(const Scene& scene) {
  Meshlets out = group_runs(scene, {});
  finish_meshlets(out, false);
  return out;
}

Meshlets build_meshlets(const Scene& scene) { return build_meshlets_with(scene, {}); }

Meshlets build_meshlets_with(const Scene& scene, const MeshletBuildHooks& hooks) {
  Meshlets runs = group_runs(scene, hooks);  // bounds only for the grouping kept
  if (hooks.cancel && hooks.cancel->load()) return runs;
  if (runs.positions.size() > kKeepFileOrder * (double)runs.triangles.size()) return patches_with(scene, hooks);
  finish_meshlets(runs, false);
  return runs;
}

std::shared_ptr<const Meshlets> scene_meshlets(const Scene& scene) {
  if (scene.meshlets) return scene.meshlets;
  return std::make_shared<const Meshlets>(build_meshlets(scene));
}

}  // namespace facet
