// closed_outward (closed_surface.h), every step on every core: the welding (position_weld.h,
// which marks non-finite positions), the edge balance (which refuses them), a concurrent
// union-find into pieces in the weld's own array, and the volumes summed in fixed blocks. The big
// intermediate arrays are left unwritten until a parallel pass writes them (big_array.h).
#include "engine/closed_surface.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <utility>

#include "engine/big_array.h"
#include "engine/bit_mix.h"
#include "engine/parallel.h"
#include "engine/position_weld.h"
#include "engine/scene.h"

namespace facet {

namespace {

// Corners per parallel_for chunk: large enough that handing out chunks costs nothing.
constexpr uint64_t kCornerChunk = 3 << 16;
// Triangles a block of the volume sums: fixed, so the float sums do not depend on the threads.
constexpr uint64_t kVolumeBlock = 1 << 16;

// Weld ids, then (link_pieces) the union-find forest, in one array: a finite vertex's entry is at
// most its index; a non-finite one's is kNonFiniteVertex, which no triangle reaching the
// union-find uses.
using Links = std::unique_ptr<std::atomic<uint32_t>[]>;

// Each directed edge adds the hash of its undirected key (smaller vertex first) when it runs from
// the smaller vertex, and takes it away when it runs the other way: zero when every edge is used as
// often in one direction as in the other. One hash an edge and seed (hashing each direction
// apart would double the arithmetic, most of this pass); the sum still weighs each undirected
// edge's imbalance by an independent 64-bit value. Sums modulo 2^64, so any order gives the same
// value. Adds triangle (v[0], v[1], v[2])'s three edges to sum.
[[gnu::always_inline]] inline void add_edges(const uint32_t v[3], uint64_t sum[2]) {
  const uint64_t kSeed[2] = {0x6a09e667f3bcc909ull, 0xbb67ae8584caa73bull};
  for (int e = 0; e < 3; ++e) {
    const uint32_t a = v[e], b = v[(e + 1) % 3];
    const uint64_t key = a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a;
    for (int k = 0; k < 2; ++k) {
      const uint64_t h = mix_bits(key ^ kSeed[k]);
      sum[k] += a < b ? h : a > b ? 0 - h : 0;  // a loop edge (a == b) balances itself
    }
  }
}

// Adds a worker's sums into the total.
void add_sums(std::mutex& mutex, const uint64_t sum[2], uint64_t total[2]) {
  std::lock_guard<std::mutex> lock(mutex);
  for (int k = 0; k < 2; ++k) total[k] += sum[k];
}

// Whether the edges of the welded vertices balance (add_edges). False too where an index names no
// vertex or a vertex with a non-finite position.
bool edges_balance(const Links& id, size_t n, const std::vector<uint32_t>& indices) {
  std::mutex mutex;
  uint64_t balance[2] = {0, 0};
  std::atomic<bool> usable{true};
  parallel_for(indices.size() / 3, kCornerChunk / 3, [&](uint64_t begin, uint64_t end, unsigned) {
    uint64_t sum[2] = {0, 0};
    bool ok = true;
    for (uint64_t t = begin; t < end && ok; ++t) {
      uint32_t v[3];
      for (int c = 0; c < 3; ++c) {
        const uint32_t i = indices[3 * t + c];
        v[c] = i < n ? id[i].load(std::memory_order_relaxed) : kNonFiniteVertex;
        ok &= v[c] != kNonFiniteVertex;
      }
      add_edges(v, sum);
    }
    if (!ok) usable.store(false, std::memory_order_relaxed);
    add_sums(mutex, sum, balance);
  });
  return usable.load() && balance[0] == 0 && balance[1] == 0;
}

// Whether two finite vertices share a position (their weld ids are not all their own indices).
bool any_repeated_position(const Links& id, size_t n) {
  std::atomic<bool> any{false};
  parallel_for(n, kCornerChunk, [&](uint64_t begin, uint64_t end, unsigned) {
    bool found = false;
    for (uint64_t v = begin; v < end; ++v) {
      const uint32_t w = id[v].load(std::memory_order_relaxed);
      found |= w != v && w != kNonFiniteVertex;
    }
    if (found) any.store(true, std::memory_order_relaxed);
  });
  return any.load();
}

// The root of v's piece, halving the path on the way (every parent stays at most its child).
uint32_t find_root(const Links& parent, uint32_t v) {
  for (;;) {
    uint32_t p = parent[v].load(std::memory_order_relaxed);
    if (p == v) return v;
    const uint32_t g = parent[p].load(std::memory_order_relaxed);
    if (g != p) parent[v].compare_exchange_weak(p, g, std::memory_order_relaxed);
    v = g;
  }
}

// Turns the weld ids into the connected pieces' forest, a concurrent union-find: the weld already
// points every vertex at its position's first vertex (at most itself); a root is linked (by
// compare-and-swap) only under a smaller root, and path halving only points a vertex at an
// ancestor, so every parent is at most its child and each piece's root is its smallest vertex,
// whatever order the unions ran in on however many threads. Where `balance` is given (no two
// vertices share a position, so the indices are the weld ids) the edges are summed into it in the
// same pass, which then also refuses an index past the vertices or a non-finite vertex (false):
// the separate edge pass would only gather the same ids again.
bool link_pieces(const Links& parent, size_t n, const std::vector<uint32_t>& indices, uint64_t* balance) {
  std::mutex mutex;
  std::atomic<bool> usable{true};
  parallel_for(indices.size() / 3, kCornerChunk / 3, [&](uint64_t begin, uint64_t end, unsigned) {
    uint64_t sum[2] = {0, 0};
    for (uint64_t t = begin; t < end && usable.load(std::memory_order_relaxed); ++t) {
      const uint32_t* v = &indices[3 * t];
      if (v[0] >= n || v[1] >= n || v[2] >= n) {
        usable.store(false, std::memory_order_relaxed);
        break;
      }
      // Corners under one parent are in one piece already (the usual case, once a piece has
      // grown): nothing to join, and no walk up to the root.
      const uint32_t p0 = parent[v[0]].load(std::memory_order_relaxed);
      const uint32_t p1 = parent[v[1]].load(std::memory_order_relaxed);
      const uint32_t p2 = parent[v[2]].load(std::memory_order_relaxed);
      if (p0 == kNonFiniteVertex || p1 == kNonFiniteVertex || p2 == kNonFiniteVertex) {
        usable.store(false, std::memory_order_relaxed);
        break;
      }
      if (balance) add_edges(v, sum);
      if (p0 == p1 && p0 == p2) continue;
      // The first corner's root, kept for the second edge: any ancestor finds the same root.
      uint32_t first = v[0];
      for (int e = 1; e < 3; ++e) {
        uint32_t a = first, b = v[e];
        for (;;) {
          a = find_root(parent, a);
          b = find_root(parent, b);
          if (a == b) break;
          if (a < b) std::swap(a, b);
          uint32_t root = a;
          if (parent[a].compare_exchange_strong(root, b, std::memory_order_relaxed)) break;
        }
        first = std::min(a, b);  // the joined piece's root (or an ancestor of it, once re-linked)
      }
    }
    if (balance) add_sums(mutex, sum, balance);
  });
  return usable.load();
}

// Six times the signed volume of triangle t's tetrahedron with the origin o.
double tetra_volume(const std::vector<Vec3>& positions, const uint32_t* corner, const double o[3]) {
  double p[3][3];
  for (int c = 0; c < 3; ++c) {
    const Vec3& q = positions[corner[c]];
    p[c][0] = q.x - o[0];
    p[c][1] = q.y - o[1];
    p[c][2] = q.z - o[2];
  }
  return p[0][0] * (p[1][1] * p[2][2] - p[1][2] * p[2][1]) - p[0][1] * (p[1][0] * p[2][2] - p[1][2] * p[2][0]) +
         p[0][2] * (p[1][0] * p[2][1] - p[1][1] * p[2][0]);
}

// Whether every piece encloses a positive volume, about the centre of the positions' bounding box
// (smaller coordinates round less). Each fixed block of triangles sums its runs of one piece in
// order; the runs are then added up piece by piece in block order, into a sum kept at the piece's
// root: the same float sums for any number of threads.
bool pieces_face_outward(const std::vector<Vec3>& positions, const std::vector<uint32_t>& indices,
                         const Links& parent, const Vec3& centre) {
  const double o[3] = {centre.x, centre.y, centre.z};
  const uint64_t triangles = indices.size() / 3, blocks = (triangles + kVolumeBlock - 1) / kVolumeBlock;
  using Run = std::pair<uint32_t, double>;  // a piece's root, the volume of a run of its triangles
  std::vector<std::vector<Run>> block_runs(blocks);
  parallel_for(blocks, 1, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t b = begin; b < end; ++b)
      for (uint64_t t = b * kVolumeBlock; t < std::min(triangles, (b + 1) * kVolumeBlock); ++t) {
        const uint32_t piece = find_root(parent, indices[3 * t]);
        if (block_runs[b].empty() || block_runs[b].back().first != piece) block_runs[b].push_back({piece, 0.0});
        block_runs[b].back().second += tetra_volume(positions, &indices[3 * t], o);
      }
  });
  // Only the roots' entries are written, so the array's other pages are never touched.
  std::unique_ptr<double[]> volume = uninitialized_array<double>(positions.size());
  for (const std::vector<Run>& runs : block_runs)
    for (const Run& r : runs) volume[r.first] = 0.0;
  for (const std::vector<Run>& runs : block_runs)
    for (const Run& r : runs) volume[r.first] += r.second;
  for (const std::vector<Run>& runs : block_runs)
    for (const Run& r : runs)
      if (!(volume[r.first] > 0.0)) return false;
  return true;
}

}  // namespace

bool closed_outward(const std::vector<Vec3>& positions, const std::vector<uint32_t>& indices) {
  return closed_outward(positions, indices, compute_bounds(positions).center);
}

bool closed_outward(const std::vector<Vec3>& positions, const std::vector<uint32_t>& indices,
                    const Vec3& centre) {
  const size_t triangles = indices.size() / 3;
  if (triangles == 0) return false;
  const size_t n = positions.size();
  const Links links = weld_by_position(positions);
  // Without repeated positions the indices are the weld ids: the edges are summed while linking.
  const bool repeats = any_repeated_position(links, n);
  if (repeats && !edges_balance(links, n, indices)) return false;
  uint64_t balance[2] = {0, 0};
  if (!link_pieces(links, n, indices, repeats ? nullptr : balance)) return false;
  if (balance[0] != 0 || balance[1] != 0) return false;
  return pieces_face_outward(positions, indices, links, centre);
}

}  // namespace facet
