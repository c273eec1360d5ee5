// closed_outward (closed_surface.h), every step on every core: the finiteness check, the welding,
// the edge balance, a concurrent union-find into pieces, and the volumes summed in fixed blocks.
#include "engine/closed_surface.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <utility>

#include "engine/parallel.h"
#include "engine/scene.h"

namespace facet {

namespace {

// Corners per parallel_for chunk: large enough that handing out chunks costs nothing.
constexpr uint64_t kCornerChunk = 3 << 16;
// Triangles a block of the volume sums: fixed, so the float sums do not depend on the threads.
constexpr uint64_t kVolumeBlock = 1 << 16;

// -0 and +0 project to the same pixel: one position.
uint32_t float_bits(float f) {
  if (f == 0.0f) f = 0.0f;
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// splitmix64's finalizer: every input bit moves every output bit.
uint64_t mix(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

bool same_position(const Vec3& a, const Vec3& b) {
  return float_bits(a.x) == float_bits(b.x) && float_bits(a.y) == float_bits(b.y) && float_bits(a.z) == float_bits(b.z);
}

size_t position_hash(const Vec3& p) {
  return mix(float_bits(p.x) | (uint64_t)float_bits(p.y) << 32) ^ mix(float_bits(p.z) + 0x9e3779b97f4a7c15ull);
}

// For each vertex, the first vertex with the same position (open addressing, linear probing).
// The positions are split by their hash's top bits into one table per worker: equal positions
// land in the same table, each table sees its vertices in index order, so the first is the
// same for any number of workers.
std::vector<uint32_t> weld_by_position(const std::vector<Vec3>& positions) {
  const size_t n = positions.size();
  std::vector<size_t> hashes(n);
  parallel_for(n, kCornerChunk, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t v = begin; v < end; ++v) hashes[v] = position_hash(positions[v]);
  });
  std::vector<uint32_t> id(n);
  const unsigned parts = worker_count();
  parallel_for(parts, 1, [&](uint64_t part_begin, uint64_t part_end, unsigned) {
    for (uint64_t part = part_begin; part < part_end; ++part) {
      auto mine = [&](size_t h) { return (h >> 40) % parts == part; };
      size_t count = 0;
      for (size_t h : hashes) count += mine(h);
      size_t capacity = 16;
      while (capacity < 2 * count) capacity *= 2;
      const uint32_t kFree = ~0u;
      std::vector<uint32_t> table(capacity, kFree);
      for (uint32_t v = 0; v < n; ++v) {
        size_t h = hashes[v];
        if (!mine(h)) continue;
        for (h &= capacity - 1;; h = (h + 1) & (capacity - 1)) {
          if (table[h] == kFree) {
            table[h] = v;
            id[v] = v;
            break;
          }
          if (same_position(positions[table[h]], positions[v])) {
            id[v] = table[h];
            break;
          }
        }
      }
    }
  });
  return id;
}

// Every index names a vertex with a finite position.
bool all_finite(const std::vector<Vec3>& positions, const std::vector<uint32_t>& indices) {
  std::atomic<bool> ok{true};
  parallel_for(indices.size(), kCornerChunk, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t c = begin; c < end && ok.load(std::memory_order_relaxed); ++c)
      if (indices[c] >= positions.size() || !finite3(positions[indices[c]])) ok = false;
  });
  return ok;
}

// Each directed edge adds its hash and takes away its reverse's: zero when every edge is used as
// often in one direction as in the other. Sums modulo 2^64, so any order gives the same value.
bool edges_balance(const std::vector<uint32_t>& id, const std::vector<uint32_t>& indices) {
  const uint64_t kSeed[2] = {0x6a09e667f3bcc909ull, 0xbb67ae8584caa73bull};
  std::mutex mutex;
  uint64_t balance[2] = {0, 0};
  parallel_for(indices.size() / 3, kCornerChunk / 3, [&](uint64_t begin, uint64_t end, unsigned) {
    uint64_t sum[2] = {0, 0};
    for (uint64_t t = begin; t < end; ++t) {
      const uint32_t v[3] = {id[indices[3 * t]], id[indices[3 * t + 1]], id[indices[3 * t + 2]]};
      for (int e = 0; e < 3; ++e) {
        const uint64_t forward = (uint64_t)v[e] << 32 | v[(e + 1) % 3];
        const uint64_t reverse = (uint64_t)v[(e + 1) % 3] << 32 | v[e];
        for (int k = 0; k < 2; ++k) sum[k] += mix(forward ^ kSeed[k]) - mix(reverse ^ kSeed[k]);
      }
    }
    std::lock_guard<std::mutex> lock(mutex);
    for (int k = 0; k < 2; ++k) balance[k] += sum[k];
  });
  return balance[0] == 0 && balance[1] == 0;
}

// The connected pieces, a concurrent union-find: a root is linked (by compare-and-swap) only
// under a smaller root, and path halving only points a vertex at an ancestor, so every parent is
// at most its child and each piece's root is its smallest vertex, whatever order the unions ran
// in on however many threads. Returns each vertex's root.
std::vector<uint32_t> piece_labels(const std::vector<uint32_t>& id, const std::vector<uint32_t>& indices) {
  std::vector<std::atomic<uint32_t>> parent(id.size());
  parallel_for(id.size(), kCornerChunk, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t v = begin; v < end; ++v) parent[v].store((uint32_t)v, std::memory_order_relaxed);
  });
  auto find = [&](uint32_t v) {
    for (;;) {
      uint32_t p = parent[v].load(std::memory_order_relaxed);
      if (p == v) return v;
      const uint32_t g = parent[p].load(std::memory_order_relaxed);
      if (g != p) parent[v].compare_exchange_weak(p, g, std::memory_order_relaxed);
      v = g;
    }
  };
  parallel_for(indices.size() / 3, kCornerChunk / 3, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t t = begin; t < end; ++t)
      for (int e = 1; e < 3; ++e) {
        uint32_t a = id[indices[3 * t]], b = id[indices[3 * t + e]];
        for (;;) {
          a = find(a);
          b = find(b);
          if (a == b) break;
          if (a < b) std::swap(a, b);
          uint32_t root = a;
          if (parent[a].compare_exchange_strong(root, b, std::memory_order_relaxed)) break;
        }
      }
  });
  std::vector<uint32_t> label(id.size());
  parallel_for(id.size(), kCornerChunk, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t v = begin; v < end; ++v) label[v] = find((uint32_t)v);
  });
  return label;
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
// order; the runs are then added up piece by piece in block order: the same float sums for any
// number of threads.
bool pieces_face_outward(const std::vector<Vec3>& positions, const std::vector<uint32_t>& indices,
                         const std::vector<uint32_t>& id, const std::vector<uint32_t>& label) {
  const Vec3 centre = compute_bounds(positions).center;
  const double o[3] = {centre.x, centre.y, centre.z};
  const uint64_t triangles = indices.size() / 3, blocks = (triangles + kVolumeBlock - 1) / kVolumeBlock;
  using Run = std::pair<uint32_t, double>;  // a piece, the volume of a run of its triangles
  std::vector<std::vector<Run>> block_runs(blocks);
  parallel_for(blocks, 1, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t b = begin; b < end; ++b)
      for (uint64_t t = b * kVolumeBlock; t < std::min(triangles, (b + 1) * kVolumeBlock); ++t) {
        const uint32_t piece = label[id[indices[3 * t]]];
        if (block_runs[b].empty() || block_runs[b].back().first != piece) block_runs[b].push_back({piece, 0.0});
        block_runs[b].back().second += tetra_volume(positions, &indices[3 * t], o);
      }
  });
  std::vector<Run> runs;
  for (const std::vector<Run>& r : block_runs) runs.insert(runs.end(), r.begin(), r.end());
  std::stable_sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) { return a.first < b.first; });
  for (size_t i = 0; i < runs.size();) {
    double volume = 0.0;
    size_t j = i;
    for (; j < runs.size() && runs[j].first == runs[i].first; ++j) volume += runs[j].second;
    if (!(volume > 0.0)) return false;
    i = j;
  }
  return true;
}

}  // namespace

bool closed_outward(const std::vector<Vec3>& positions, const std::vector<uint32_t>& indices) {
  const size_t triangles = indices.size() / 3;
  if (triangles == 0) return false;
  if (!all_finite(positions, indices)) return false;
  const std::vector<uint32_t> id = weld_by_position(positions);
  if (!edges_balance(id, indices)) return false;
  return pieces_face_outward(positions, indices, id, piece_labels(id, indices));
}

}  // namespace facet
