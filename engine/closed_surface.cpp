// closed_outward (closed_surface.h). The finiteness check, the welding and the edge balance run
// on every core; the union-find and the volumes, whose float sums depend on order, run in one.
#include "engine/closed_surface.h"

#include <atomic>
#include <cstring>
#include <mutex>
#include <numeric>

#include "engine/parallel.h"
#include "engine/scene.h"

namespace facet {

namespace {

// Corners per parallel_for chunk: large enough that handing out chunks costs nothing.
constexpr uint64_t kCornerChunk = 3 << 16;

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

uint32_t find_root(std::vector<uint32_t>& parent, uint32_t v) {
  while (parent[v] != v) {
    parent[v] = parent[parent[v]];  // path halving
    v = parent[v];
  }
  return v;
}

}  // namespace

bool closed_outward(const std::vector<Vec3>& positions, const std::vector<uint32_t>& indices) {
  const size_t triangles = indices.size() / 3;
  if (triangles == 0) return false;
  if (!all_finite(positions, indices)) return false;
  const std::vector<uint32_t> id = weld_by_position(positions);
  if (!edges_balance(id, indices)) return false;

  // The connected pieces (union-find over welded vertices: sequential, the merges depend on
  // each other).
  std::vector<uint32_t> parent(positions.size());
  std::iota(parent.begin(), parent.end(), 0u);
  for (size_t t = 0; t < triangles; ++t) {
    const uint32_t v0 = id[indices[3 * t]];
    for (int e = 1; e < 3; ++e) {
      const uint32_t a = find_root(parent, v0), b = find_root(parent, id[indices[3 * t + e]]);
      if (a != b) parent[a] = b;
    }
  }

  // Signed volume of each connected piece (six times it), about the centre of the positions'
  // bounding box: smaller coordinates round less.
  const Vec3 centre = compute_bounds(positions).center;
  const double o[3] = {centre.x, centre.y, centre.z};
  std::vector<double> volume(positions.size(), 0.0);
  for (size_t t = 0; t < triangles; ++t) {
    double p[3][3];
    for (int c = 0; c < 3; ++c) {
      const Vec3& q = positions[indices[3 * t + c]];
      p[c][0] = q.x - o[0];
      p[c][1] = q.y - o[1];
      p[c][2] = q.z - o[2];
    }
    const double det = p[0][0] * (p[1][1] * p[2][2] - p[1][2] * p[2][1]) -
                       p[0][1] * (p[1][0] * p[2][2] - p[1][2] * p[2][0]) +
                       p[0][2] * (p[1][0] * p[2][1] - p[1][1] * p[2][0]);
    volume[find_root(parent, id[indices[3 * t]])] += det;
  }
  for (size_t t = 0; t < triangles; ++t)
    if (!(volume[find_root(parent, id[indices[3 * t]])] > 0.0)) return false;
  return true;
}

}  // namespace facet
