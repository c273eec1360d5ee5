// group_patches (meshlet_patches.h): a PatchGrower a range, ranges spread over the cores.
#include "engine/meshlet_patches.h"

#include <algorithm>
#include <atomic>

#include "engine/meshlet_open.h"
#include "engine/meshlet_ranges.h"
#include "engine/parallel.h"

namespace facet {

namespace {

// Triangles grouped between two looks at the build's hooks: a few milliseconds of work.
constexpr uint32_t kHookEvery = 1 << 16;

// What every range's grower shares: the spatial order, the triangles around each vertex, and a
// flag a triangle (by rank); each grower writes only its own range's flags.
struct GrowerShared {
  const Scene& scene;
  const PatchRanges& ranges;
  std::vector<uint8_t>& taken;   // per rank: in a meshlet already
  std::vector<uint8_t>& shared;  // per rank: its corners the open meshlet of its range holds
  const MeshletBuildHooks& hooks;
  std::atomic<uint64_t>& done;  // triangles grouped, all ranges together
};

// Grows one range's patches one after another: each from a seed, by the candidate that adds the
// fewest new vertices. Candidates are not-yet-taken triangles of the range with corners in the
// open meshlet (`shared` counts them, 0..3: 3 costs no new vertex, 2 one, 1 two); they wait in a
// queue per count, oldest first, which grows the patch ring by ring around its seed; stale
// entries are skipped when met.
class PatchGrower {
 public:
  PatchGrower(const GrowerShared& s, uint32_t first, uint32_t end, Meshlets& out)
      : m_s(s), m_first(first), m_end(end), m_in_order(first), m_open(s.scene, out) {
    m_open.close();  // opens the first
  }

  // False when cancelled.
  bool run(bool report) {
    int64_t seed = -1;
    uint32_t reported = 0;
    while (m_done < m_end - m_first) {
      take(seed >= 0 && !m_s.taken[seed] ? (uint32_t)seed : next_in_order());
      grow();
      // The next patch starts beside this one, where its best candidate was.
      seed = best_candidate();
      m_open.close();
      forget_candidates();
      if (m_done - reported >= kHookEvery) {
        if (m_s.hooks.cancel && m_s.hooks.cancel->load(std::memory_order_relaxed)) return false;
        const uint64_t all = m_s.done.fetch_add(m_done - reported) + (m_done - reported);
        if (report && m_s.hooks.progress) m_s.hooks.progress(all);
        reported = m_done;
      }
    }
    m_s.done.fetch_add(m_done - reported);
    return true;
  }

 private:
  // Adds candidates to the open meshlet until it is full or the next would pass kPatchMaxVertices.
  void grow() {
    while (m_open.meshlet().triangle_count < kMeshletMaxTriangles && m_done < m_end - m_first) {
      int64_t p = best_candidate();
      // Nothing touches the patch (an island, or a pocket left between patches): the next
      // triangle of the range fills it up instead, so that meshlets stay full.
      if (p < 0) p = next_in_order();
      const uint32_t t = m_s.ranges.order[p];
      if (m_open.meshlet().vertex_count + m_open.fresh_vertices(t) > kPatchMaxVertices) return;
      take((uint32_t)p);
    }
  }

  void take(uint32_t p) {
    m_s.taken[p] = 1;
    ++m_done;
    const std::vector<uint32_t>& first = m_s.ranges.first;
    const std::vector<uint32_t>& around = m_s.ranges.around;
    m_open.add(m_s.ranges.order[p], true, [&](uint32_t g) {
      for (uint32_t a = first[g]; a < first[g + 1]; ++a) {
        const uint32_t n = around[a];
        if (n < m_first || n >= m_end || m_s.taken[n]) continue;
        if (m_s.shared[n] == 0) m_touched.push_back(n);
        ++m_s.shared[n];
        m_queue[m_s.shared[n]].push_back(n);
      }
    });
  }

  // The open meshlet's best candidate (a rank): fewest new vertices, then longest waiting; or -1.
  int64_t best_candidate() {
    for (int c = 3; c >= 1; --c)
      for (; m_head[c] < m_queue[c].size(); ++m_head[c]) {
        const uint32_t p = m_queue[c][m_head[c]];
        if (!m_s.taken[p] && m_s.shared[p] == c) return p;
      }
    return -1;
  }

  uint32_t next_in_order() {
    while (m_in_order < m_end && m_s.taken[m_in_order]) ++m_in_order;
    return m_in_order;
  }

  void forget_candidates() {
    for (uint32_t p : m_touched) m_s.shared[p] = 0;
    m_touched.clear();
    for (int c = 0; c < 4; ++c) {
      m_queue[c].clear();
      m_head[c] = 0;
    }
  }

  const GrowerShared& m_s;
  const uint32_t m_first, m_end;  // the range's ranks
  uint32_t m_in_order;            // every rank of the range before it is taken
  uint32_t m_done = 0;            // triangles of the range taken
  OpenMeshlet m_open;
  std::vector<uint32_t> m_queue[4];
  size_t m_head[4] = {0, 0, 0, 0};
  std::vector<uint32_t> m_touched;  // ranks whose `shared` to reset
};

}  // namespace

Meshlets group_patches(const Scene& scene, const MeshletBuildHooks& hooks) {
  const PatchRanges ranges = patch_ranges(scene);
  const uint32_t tris = scene.triangle_count();
  std::vector<uint8_t> taken(tris, 0), shared(tris, 0);
  std::atomic<uint64_t> done{0};
  const GrowerShared s{scene, ranges, taken, shared, hooks, done};
  const size_t count = ranges.first_rank.size() - 1;
  std::vector<Meshlets> parts(count);
  std::atomic<bool> cancelled{false};
  parallel_for(count, 1, [&](uint64_t begin, uint64_t end, unsigned worker) {
    for (uint64_t r = begin; r < end && !cancelled; ++r) {
      const uint32_t first = ranges.first_rank[r], last = ranges.first_rank[r + 1];
      Meshlets& out = parts[r];
      out.triangles.reserve(last - first);
      out.triangle_ids.reserve(last - first);
      out.positions.reserve(last - first);
      if (!PatchGrower(s, first, last, out).run(worker == 0)) cancelled = true;
    }
  });
  if (cancelled) return Meshlets();  // incomplete: the caller discards it
  if (hooks.progress) hooks.progress(tris);  // whichever threads grew the ranges
  return join_meshlets(parts);
}

}  // namespace facet
