// group_patches (meshlet_patches.h): a PatchGrower a range, ranges spread over the cores. Each
// range finds its own triangles' neighbours (RangeAround), so nothing is shared between ranges
// but the read-only scene and order, and a range's working set stays in cache.
#include "engine/meshlets/meshlet_patches.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <optional>

#include "engine/base/parallel.h"
#include "engine/base/step_timing.h"
#include "engine/meshlets/meshlet_fill.h"
#include "engine/meshlets/meshlet_finish.h"
#include "engine/meshlets/meshlet_ranges.h"

namespace facet {

namespace {

// Triangles grouped between two looks at the build's hooks: a few milliseconds of work.
constexpr uint32_t kHookEvery = 1 << 16;
// A range whose vertex indices span fewer than this many a triangle numbers its vertices through
// an array over the span (4 B an entry: 2 MB for a range of 128 K triangles, in cache).
constexpr uint32_t kWindowPerTriangle = 4;
// Triangles (or corners) ahead that the gathers from the scene's arrays ask for: enough misses
// in flight to cover a trip to memory, few enough that the lines are still cached when used.
constexpr uint32_t kPrefetch = 16;

// A range's triangles around each of its vertices. Triangles are named by their rank within the
// range ("local rank"), vertices by their order of first use in the range ("local vertex").
class RangeAround {
 public:
  // Tables of the n triangles whose scene indices are at tris[0..n), replacing the last range's
  // (the arrays keep their capacity: one allocation a worker, not a range).
  void build(const Scene& scene, const uint32_t* tris, uint32_t n) {
    m_corner.resize(3 * (size_t)n);
    m_position.clear();
    uint32_t vertices = number_corners(scene, tris, n);
    m_first.assign((size_t)vertices + 1, 0);
    for (uint32_t v : m_corner) ++m_first[v + 1];
    for (uint32_t v = 0; v < vertices; ++v) m_first[v + 1] += m_first[v];
    m_next.assign(m_first.begin(), m_first.end() - 1);
    m_around.resize(m_corner.size());
    // Corners in rank order: each vertex's triangles come out ascending.
    for (size_t c = 0; c < m_corner.size(); ++c) m_around[m_next[m_corner[c]]++] = (uint32_t)(c / 3);
  }
  // The local vertices at the corners of the triangle of local rank p.
  const uint32_t* corners(uint32_t p) const { return &m_corner[3 * (size_t)p]; }
  uint32_t vertex_count() const { return (uint32_t)m_first.size() - 1; }
  const Vec3& position(uint32_t v) const { return m_position[v]; }
  // The local ranks of the triangles around local vertex v, ascending (a triangle with a repeated
  // corner twice).
  const uint32_t* begin(uint32_t v) const { return &m_around[m_first[v]]; }
  const uint32_t* end(uint32_t v) const { return m_around.data() + m_first[v + 1]; }

 private:
  // Numbers the scene vertices of n triangles (scene indices of `tris`) in order of first use;
  // returns how many there are. Where the range's vertex indices span fewer than
  // kWindowPerTriangle a triangle (a mesh in a coherent order, or one model of a few hundred
  // thousand vertices) an array over that span numbers them, else a hash table.
  uint32_t number_corners(const Scene& scene, const uint32_t* tris, uint32_t n) {
    uint32_t lo = ~0u, hi = 0;
    for (uint32_t p = 0; p < n; ++p) {
      // The range's triangles are scattered over the scene's index array: ask for one kPrefetch
      // triangles ahead, so that many misses are under way at once.
      if (p + kPrefetch < n) __builtin_prefetch(&scene.indices[3 * (size_t)tris[p + kPrefetch]]);
      for (int k = 0; k < 3; ++k) {
        const uint32_t g = scene.indices[3 * (size_t)tris[p] + k];
        m_corner[3 * (size_t)p + k] = g;
        lo = std::min(lo, g);
        hi = std::max(hi, g);
      }
    }
    if (n > 0 && hi - lo < kWindowPerTriangle * n) return number_in_window(scene, lo, hi);
    return number_by_hash(scene, n);
  }

  uint32_t number_in_window(const Scene& scene, uint32_t lo, uint32_t hi) {
    m_number.assign(hi - lo + 1, ~0u);
    uint32_t count = 0;
    const size_t corners = m_corner.size();
    for (size_t i = 0; i < corners; ++i) {
      if (i + 3 * kPrefetch < corners) {
        const uint32_t ahead = m_corner[i + 3 * kPrefetch];
        __builtin_prefetch(&m_number[ahead - lo]);
        __builtin_prefetch(&scene.positions[ahead]);
      }
      uint32_t& c = m_corner[i];
      uint32_t& v = m_number[c - lo];
      if (v == ~0u) {
        v = count++;
        m_position.push_back(scene.positions[c]);
      }
      c = v;
    }
    return count;
  }

  // An open-addressing table of at least 4 slots a triangle (a closed mesh uses about half a
  // vertex a triangle, loose triangles 3).
  uint32_t number_by_hash(const Scene& scene, uint32_t n) {
    size_t capacity = 16;
    while (capacity < 4 * (size_t)n) capacity *= 2;
    const uint64_t kFree = ~0ull;
    m_slot.assign(capacity, kFree);  // vertex << 32 | its number: one load a probe
    std::vector<uint64_t>& slot = m_slot;
    uint32_t count = 0;
    auto home = [&](uint32_t g) { return (g * 0x9e3779b97f4a7c15ull) >> 40 & (capacity - 1); };
    const size_t corners = m_corner.size();
    for (size_t i = 0; i < corners; ++i) {
      if (i + 3 * kPrefetch < corners) {
        const uint32_t ahead = m_corner[i + 3 * kPrefetch];
        __builtin_prefetch(&slot[home(ahead)]);
        __builtin_prefetch(&scene.positions[ahead]);
      }
      uint32_t& c = m_corner[i];
      const uint32_t g = c;
      size_t s = home(g);
      while (slot[s] != kFree && slot[s] >> 32 != g) s = (s + 1) & (capacity - 1);
      if (slot[s] == kFree) {
        slot[s] = (uint64_t)g << 32 | count++;
        m_position.push_back(scene.positions[g]);
      }
      c = (uint32_t)slot[s];
    }
    return count;
  }

  std::vector<uint32_t> m_corner;  // [3 * triangles]: local vertex of each corner, by local rank
  std::vector<uint32_t> m_first;   // [vertices + 1]: vertex v's triangles at m_around[m_first[v]..]
  std::vector<uint32_t> m_around;  // [3 * triangles]: local ranks
  std::vector<Vec3> m_position;    // [vertices]: gathered once, read in the range's order after
  // Scratch of build: each vertex's next free place in m_around; the window's or hash table's
  // numbers of scene vertices.
  std::vector<uint32_t> m_next, m_number;
  std::vector<uint64_t> m_slot;
};

// Grows one range's patches one after another: each from a seed, by the candidate that adds the
// fewest new vertices. Candidates are not-yet-taken triangles of the range with corners in the
// open meshlet (`m_state` counts them, 0..3: 3 costs no new vertex, 2 one, 1 two); they wait in
// a queue per count, oldest first, which grows the patch ring by ring around its seed; stale
// entries are skipped when met. Triangles are named by local rank throughout. A triangle's taken
// flag and count share one byte, and the queues are bare arrays sized once a range: the inner loop
// over a new vertex's triangles (most of the grower's time) is one load, two stores and no branch
// a neighbour.
class PatchGrower {
 public:
  // Grows every patch of ranks [first, end) into `out`; false when hooks.cancel was set. Adds the
  // triangles grouped to `done` now and then, and tells hooks.progress when `report`. A grower
  // runs one range after another (a worker's), keeping its tables' memory.
  bool run(const Scene& scene, const PatchRanges& ranges, uint32_t first, uint32_t end, Meshlets& out,
           const MeshletBuildHooks& hooks, std::atomic<uint64_t>& done, bool report) {
    m_order = &ranges.order[first];
    m_count = end - first;
    m_around.build(scene, m_order, m_count);
    m_state.resize(m_count);
    for (uint32_t p = 0; p < m_count; ++p) {
      const uint32_t* c = m_around.corners(p);
      m_state[p] = c[0] == c[1] || c[1] == c[2] || c[0] == c[2] ? kRepeat : 0;
    }
    // A triangle enters queue c at most once a meshlet (its count passes c once); one slot more
    // for take's write of a taken neighbour past the end.
    for (std::vector<uint32_t>& q : m_queue)
      if (q.size() < m_count + 1) q.resize(m_count + 1);
    m_in_order = m_done = 0;
    m_local.reset(m_around.vertex_count());
    m_open.emplace(out, std::move(m_local));
    m_open->close();  // opens the first
    const bool complete = grow_all(hooks, done, report);
    forget_candidates();
    m_local = m_open->take_local();
    m_open.reset();
    return complete;
  }

 private:
  bool grow_all(const MeshletBuildHooks& hooks, std::atomic<uint64_t>& done, bool report) {
    int64_t seed = -1;
    uint32_t reported = 0;
    while (m_done < m_count) {
      take(seed >= 0 && !(m_state[seed] & kTaken) ? (uint32_t)seed : next_in_order());
      grow();
      // The next patch starts beside this one, where its best candidate was.
      seed = best_candidate();
      m_open->close();
      forget_candidates();
      if (m_done - reported >= kHookEvery) {
        if (hooks.cancel && hooks.cancel->load(std::memory_order_relaxed)) return false;
        const uint64_t all = done.fetch_add(m_done - reported) + (m_done - reported);
        if (report && hooks.progress) hooks.progress(all);
        reported = m_done;
      }
    }
    done.fetch_add(m_done - reported);
    return true;
  }

  // Adds candidates to the open meshlet until it is full or the next would pass kPatchMaxVertices.
  void grow() {
    while (m_open->meshlet().triangle_count < kMeshletMaxTriangles && m_done < m_count) {
      int64_t p = best_candidate();
      // Nothing touches the patch (an island, or a pocket left between patches or at the range's
      // border): the range's next triangle fills it up instead, so that meshlets stay full.
      if (p < 0) p = next_in_order();
      // A count of c corners in the meshlet is 3 - c new vertices, but for a repeated corner.
      const uint8_t state = m_state[p];
      const int fresh = state & kRepeat ? m_open->fresh_vertices(m_around.corners(p)) : 3 - (state & 3);
      if (m_open->meshlet().vertex_count + fresh > kPatchMaxVertices) return;
      take((uint32_t)p);
    }
  }

  void take(uint32_t p) {
    m_state[p] = kTaken;
    ++m_done;
    const uint32_t* corners = m_around.corners(p);
    m_open->add(
        m_order[p], corners, [&](int k) { return m_around.position(corners[k]); }, true,
        [&](int k) {
          const uint32_t v = corners[k];
          // Locals, not members: a store to the byte-wide states may alias any member (a char type
          // aliases everything), which would reload the queues' pointers and ends every neighbour.
          uint8_t* const state_of = m_state.data();
          uint32_t* const queue[3] = {m_queue[0].data(), m_queue[1].data(), m_queue[2].data()};
          uint32_t queued[3] = {m_queued[0], m_queued[1], m_queued[2]};
          for (const uint32_t *a = m_around.begin(v), *end = m_around.end(v); a != end; ++a) {
            const uint32_t n = *a;
            // Without a branch (whether a neighbour is taken is a coin toss on a patch's ring): a
            // taken one keeps its state, and is written past the end of the first queue, not kept.
            const uint8_t state = state_of[n];
            const uint32_t open = !(state & kTaken), shared = state & 3u;
            state_of[n] = (uint8_t)(state + open);
            queue[shared][queued[shared]] = n;  // queue c - 1 holds count c
            queued[shared] += open;
          }
          for (int c = 0; c < 3; ++c) m_queued[c] = queued[c];
        });
  }

  // The open meshlet's best candidate: fewest new vertices, then longest waiting; or -1.
  int64_t best_candidate() {
    for (int c = 3; c >= 1; --c)
      for (; m_head[c - 1] < m_queued[c - 1]; ++m_head[c - 1]) {
        const uint32_t p = m_queue[c - 1][m_head[c - 1]];
        if ((m_state[p] & (kTaken | 3)) == c) return p;  // neither taken nor counted up since
      }
    return -1;
  }

  uint32_t next_in_order() {
    while (m_in_order < m_count && (m_state[m_in_order] & kTaken)) ++m_in_order;
    return m_in_order;
  }

  void forget_candidates() {
    // Every triangle counted entered the first queue when its count left 0.
    for (uint32_t i = 0; i < m_queued[0]; ++i) m_state[m_queue[0][i]] &= kTaken | kRepeat;
    for (int c = 0; c < 3; ++c) m_queued[c] = m_head[c] = 0;
  }

  const uint32_t* m_order = nullptr;  // the range's scene triangles, by local rank
  uint32_t m_count = 0;               // triangles in the range
  RangeAround m_around;
  LocalVertexArray m_local{0};                                 // the open meshlet's, between ranges
  std::optional<MeshletBeingFilled<LocalVertexArray>> m_open;  // on the range's Meshlets while it runs
  static constexpr uint8_t kTaken = 0x80;                      // in m_state: in a meshlet already
  static constexpr uint8_t kRepeat = 0x40;                     // in m_state: two corners the same vertex
  std::vector<uint8_t> m_state;      // per local rank: kTaken, or kRepeat and the corners the open
                                     //   meshlet holds (low two bits)
  std::vector<uint32_t> m_queue[3];  // [c - 1]: local ranks whose count reached c, oldest first
  uint32_t m_queued[3] = {0, 0, 0};  // entries in each queue
  uint32_t m_head[3] = {0, 0, 0};    // each queue's first entry not yet looked at
  uint32_t m_in_order = 0;           // every local rank before it is taken
  uint32_t m_done = 0;               // triangles taken
};

}  // namespace

Meshlets group_patches(const Scene& scene, const MeshletBuildHooks& hooks) {
  BackgroundRelease release;  // the ranges' scratch, freed while the growers run
  PatchRanges ranges = patch_ranges(scene, release, hooks.centroid_order);
  StepTimer timer("meshlets");
  const size_t count = ranges.first_rank.size() - 1;
  std::vector<Meshlets> parts(count);
  std::atomic<uint64_t> done{0};
  std::atomic<bool> cancelled{false};
  // A worker's grower, made on first use. A range's task starts no parallel work of its own, so a
  // worker never steals a second range while one of its ranges is half grown.
  std::vector<std::unique_ptr<PatchGrower>> growers(worker_count());
  parallel_for(count, 1, [&](uint64_t begin, uint64_t end, unsigned worker) {
    if (!growers[worker]) growers[worker] = std::make_unique<PatchGrower>();
    for (uint64_t r = begin; r < end && !cancelled; ++r) {
      if (hooks.cancel && hooks.cancel->load(std::memory_order_relaxed)) cancelled = true;
      if (cancelled) break;
      const uint32_t first = ranges.first_rank[r], last = ranges.first_rank[r + 1];
      Meshlets& out = parts[r];
      out.triangles.reserve(last - first);
      out.triangle_ids.reserve(last - first);
      out.positions.reserve(last - first);
      if (!growers[worker]->run(scene, ranges, first, last, out, hooks, done, worker == 0))
        cancelled = true;
      else
        finish_meshlets(out);
    }
  });
  if (cancelled) return Meshlets();                            // incomplete: the caller discards it
  if (hooks.progress) hooks.progress(scene.triangle_count());  // whichever threads grew the ranges
  growers.clear();
  release.release(ranges.order);
  timer.step("grow");
  Meshlets out = join_meshlets(parts);
  release.wait();
  timer.step("join");
  return out;
}

}  // namespace facet
