// closed_outward (closed_surface.h), every step on every core: the welding (position_weld.h,
// which marks non-finite positions), one pass that sums the edge balance (refusing non-finite
// vertices) and runs a concurrent union-find into pieces in the weld's own array, and the volumes
// summed in fixed blocks. The big intermediate arrays are left unwritten until a parallel pass
// writes them (big_array.h).
#include "engine/scene/closed_surface.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <utility>

#include "engine/base/big_array.h"
#include "engine/base/parallel.h"
#include "engine/base/step_timing.h"
#include "engine/scene/position_weld.h"
#include "engine/scene/scene.h"
#include "kernels/prepare/closed_math.h"

namespace facet {

namespace {

// Corners per parallel_for chunk: large enough that handing out chunks costs nothing.
constexpr uint64_t kCornerChunk = 3 << 16;

// Weld ids, then (link_pieces) the union-find forest, in one array: a finite vertex's entry is at
// most its index; a non-finite one's is kNonFiniteVertex, which no triangle reaching the
// union-find uses.
using Links = std::unique_ptr<std::atomic<uint32_t>[]>;

// Adds a worker's sums into the total.
void add_sums(std::mutex& mutex, const uint64_t sum[2], uint64_t total[2]) {
  std::lock_guard<std::mutex> lock(mutex);
  for (int k = 0; k < 2; ++k) total[k] += sum[k];
}

// One bit a vertex, set where it repeats an earlier vertex's position (its weld id is not its own
// index). Whole 64-bit words a worker, so that no two write one word.
std::vector<uint64_t> repeated_bits(const Links& id, size_t n) {
  std::vector<uint64_t> bits((n + 63) / 64);
  parallel_for(bits.size(), kCornerChunk / 64, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t w = begin; w < end; ++w) {
      uint64_t word = 0;
      for (uint64_t v = 64 * w; v < std::min<uint64_t>(n, 64 * w + 64); ++v) {
        const uint32_t i = id[v].load(std::memory_order_relaxed);
        word |= (uint64_t)(i != v && i != kNonFiniteVertex) << (v - 64 * w);
      }
      bits[w] = word;
    }
  });
  return bits;
}

bool is_repeated(const std::vector<uint64_t>& bits, uint32_t v) { return bits[v >> 6] >> (v & 63) & 1; }

// The root of v's piece, halving the path on the way (every parent stays at most its child),
// except at the vertices `keep` marks (may be null), whose entries stay their weld ids.
uint32_t find_root(const Links& parent, uint32_t v, const std::vector<uint64_t>* keep = nullptr) {
  for (;;) {
    uint32_t p = parent[v].load(std::memory_order_relaxed);
    if (p == v) return v;
    const uint32_t g = parent[p].load(std::memory_order_relaxed);
    const bool halve = g != p && !(keep && is_repeated(*keep, v));
    if (halve) parent[v].compare_exchange_weak(p, g, std::memory_order_relaxed);
    v = g;
  }
}

// Turns the weld ids into the connected pieces' forest, a concurrent union-find, and sums the
// edges of the welded vertices (add_edges) in the same pass: the weld already points every vertex
// at its position's first vertex (at most itself); a root is linked (by compare-and-swap) only
// under a smaller root, and path halving only points a vertex at an ancestor, so every parent is
// at most its child and each piece's root is its smallest vertex, whatever order the unions ran
// in on however many threads. A repeated vertex (`repeated`) is never a root and never halved, so
// its entry stays its weld id; any other vertex is its own weld id. False where an index names no
// vertex or a vertex with a non-finite position.
bool link_pieces(const Links& parent, size_t n, const BigVector<uint32_t>& indices,
                 const std::vector<uint64_t>& repeated, uint64_t balance[2]) {
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
      // Scalars, not arrays: a 32-bit array read back 64 bits at a time stalled every triangle.
      const uint32_t p0 = parent[v[0]].load(std::memory_order_relaxed);
      const uint32_t p1 = parent[v[1]].load(std::memory_order_relaxed);
      const uint32_t p2 = parent[v[2]].load(std::memory_order_relaxed);
      if (p0 == kNonFiniteVertex || p1 == kNonFiniteVertex || p2 == kNonFiniteVertex) {
        usable.store(false, std::memory_order_relaxed);
        break;
      }
      add_edge_balance(is_repeated(repeated, v[0]) ? p0 : v[0], is_repeated(repeated, v[1]) ? p1 : v[1],
                       is_repeated(repeated, v[2]) ? p2 : v[2], sum);
      // Corners under one parent are in one piece already (the usual case, once a piece has
      // grown): nothing to join, and no walk up to the root.
      if (p0 == p1 && p0 == p2) continue;
      // The first corner's root, kept for the second edge: any ancestor finds the same root.
      uint32_t first = v[0];
      for (int e = 1; e < 3; ++e) {
        uint32_t a = first, b = v[e];
        for (;;) {
          a = find_root(parent, a, &repeated);
          b = find_root(parent, b, &repeated);
          if (a == b) break;
          if (a < b) std::swap(a, b);
          uint32_t root = a;
          if (parent[a].compare_exchange_strong(root, b, std::memory_order_relaxed)) break;
        }
        first = std::min(a, b);  // the joined piece's root (or an ancestor of it, once re-linked)
      }
    }
    add_sums(mutex, sum, balance);
  });
  return usable.load();
}

// Whether every piece encloses a positive volume, about the centre of the positions' bounding box
// (smaller coordinates round less). Each fixed block of triangles sums its runs of one piece in
// order; the runs are then added up piece by piece in block order, into a sum kept at the piece's
// root: the same float sums for any number of threads.
bool pieces_face_outward(const BigVector<Vec3>& positions, const BigVector<uint32_t>& indices, const Links& parent,
                         const Vec3& centre) {
  const double o[3] = {centre.x, centre.y, centre.z};
  const uint64_t triangles = indices.size() / 3, blocks = (triangles + kClosedVolumeBlock - 1) / kClosedVolumeBlock;
  std::vector<std::vector<PieceRun>> block_runs(blocks);
  parallel_for(blocks, 1, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t b = begin; b < end; ++b)
      for (uint64_t t = b * kClosedVolumeBlock; t < std::min(triangles, (b + 1) * kClosedVolumeBlock); ++t) {
        const uint32_t piece = find_root(parent, indices[3 * t]);
        if (block_runs[b].empty() || block_runs[b].back().piece != piece) block_runs[b].push_back({piece, 0.0});
        const uint32_t* c = &indices[3 * t];
        block_runs[b].back().volume += tetra_volume6(positions[c[0]], positions[c[1]], positions[c[2]], o);
      }
  });
  std::vector<PieceRun> runs;
  for (const std::vector<PieceRun>& r : block_runs) runs.insert(runs.end(), r.begin(), r.end());
  return every_piece_positive(runs, positions.size());
}

}  // namespace

bool every_piece_positive(const std::vector<PieceRun>& runs, size_t vertex_count) {
  // Only the roots' entries are written, so the array's other pages are never touched.
  std::unique_ptr<double[]> volume = uninitialized_array<double>(vertex_count);
  for (const PieceRun& r : runs) volume[r.piece] = 0.0;
  for (const PieceRun& r : runs) volume[r.piece] += r.volume;
  for (const PieceRun& r : runs)
    if (!(volume[r.piece] > 0.0)) return false;
  return true;
}

bool closed_outward(const BigVector<Vec3>& positions, const BigVector<uint32_t>& indices) {
  return closed_outward(positions, indices, compute_bounds(positions).center);
}

bool closed_outward(const BigVector<Vec3>& positions, const BigVector<uint32_t>& indices, const Vec3& centre) {
  const size_t triangles = indices.size() / 3;
  if (triangles == 0) return false;
  const size_t n = positions.size();
  StepTimer timer("closed");
  const Links links = weld_by_position(positions);
  timer.step("weld");
  uint64_t balance[2] = {0, 0};
  const bool linked = link_pieces(links, n, indices, repeated_bits(links, n), balance);
  timer.step("edges, pieces");
  if (!linked || balance[0] != 0 || balance[1] != 0) return false;
  const bool outward = pieces_face_outward(positions, indices, links, centre);
  timer.step("volumes");
  return outward;
}

}  // namespace facet
