// weld_by_position (position_weld.h) in three passes on every core, with tables that stay in
// cache: the positions are put in buckets by their hash's top bits (a count per block of
// vertices, then a scatter that keeps index order within each bucket), and each bucket is welded
// alone with an open-addressing table of its own, its first vertex of a position the smallest.
// The bucket order carries each vertex's hash, so positions are read again only where hashes match.
// Buckets and blocks depend on the vertex count only, never on the threads. A hash map of all
// positions at once would be one cache miss a vertex into a table of tens of MB.
#include "engine/scene/position_weld.h"

#include <algorithm>

#include "engine/base/big_array.h"
#include "engine/base/parallel.h"
#include "engine/scene/scene.h"

namespace facet {

namespace {

// Vertices a bucket holds on average at most: its table (twice that, 8 bytes a slot) fits in a
// core's L2 cache.
constexpr uint64_t kBucketVertices = 1 << 14;
// Buckets at most, and blocks at most: their product is the count table's size.
constexpr uint64_t kMaxBuckets = 1 << 14, kMaxBlocks = 1 << 10;
// Vertices a block counts and scatters at least: enough that handing out blocks costs nothing.
constexpr uint64_t kMinBlockVertices = 1 << 16;

struct Slot {
  uint32_t check;  // the low half of the position's hash
  uint32_t first;  // its first vertex, or kFree
};
constexpr uint32_t kFree = UINT32_MAX;

struct Layout {
  uint64_t n, block, blocks;
  unsigned bucket_shift;  // bucket = hash >> shift
  uint64_t buckets;
  // Where each block's vertices of each bucket go in the bucket order: [block * buckets + bucket].
  std::unique_ptr<uint64_t[]> offset;
  std::vector<uint64_t> bucket_start;  // buckets + 1
};

Layout make_layout(uint64_t n) {
  Layout l;
  l.n = n;
  l.buckets = 1;
  unsigned bits = 0;
  while (l.buckets < kMaxBuckets && l.buckets * kBucketVertices < n) l.buckets *= 2, ++bits;
  l.bucket_shift = 64 - bits;  // 64 (no bucket bits) is handled by bucket_of
  l.block = std::max(kMinBlockVertices, (n + kMaxBlocks - 1) / kMaxBlocks);
  l.blocks = (n + l.block - 1) / l.block;
  l.offset = uninitialized_array<uint64_t>(l.blocks * l.buckets);
  return l;
}

uint64_t bucket_of(const Layout& l, uint64_t hash) { return l.bucket_shift >= 64 ? 0 : hash >> l.bucket_shift; }

// Pass 1: each block's count per bucket (into offset), and every vertex's id set to itself (or
// kNonFiniteVertex) in index order, so that pass 3 writes, at places scattered over the array,
// only the ids of repeated positions; then the offsets, bucket by bucket and within a bucket
// block by block, so index order is kept.
void count_buckets(const BigVector<Vec3>& positions, Layout& l, std::atomic<uint32_t>* id) {
  parallel_for(l.blocks, 1, [&](uint64_t b_begin, uint64_t b_end, unsigned) {
    for (uint64_t b = b_begin; b < b_end; ++b) {
      uint64_t* count = &l.offset[b * l.buckets];
      std::fill(count, count + l.buckets, 0);
      for (uint64_t v = b * l.block; v < std::min(l.n, (b + 1) * l.block); ++v) {
        uint32_t bits[3];
        const bool finite = weld_key(positions[v], bits);
        if (finite) ++count[bucket_of(l, weld_hash(bits))];
        id[v].store(finite ? (uint32_t)v : kNonFiniteVertex, std::memory_order_relaxed);
      }
    }
  });
  // Bucket sizes and each block's place in its bucket, bucket by bucket on every core: the column
  // walks stride through the count table, which one core would pay for alone.
  l.bucket_start.assign(l.buckets + 1, 0);
  parallel_for(l.buckets, 1, [&](uint64_t k_begin, uint64_t k_end, unsigned) {
    for (uint64_t k = k_begin; k < k_end; ++k) {
      uint64_t at = 0;
      for (uint64_t b = 0; b < l.blocks; ++b) {
        const uint64_t count = l.offset[b * l.buckets + k];
        l.offset[b * l.buckets + k] = at;
        at += count;
      }
      l.bucket_start[k + 1] = at;
    }
  });
  for (uint64_t k = 0; k < l.buckets; ++k) l.bucket_start[k + 1] += l.bucket_start[k];
  parallel_for(l.buckets, 1, [&](uint64_t k_begin, uint64_t k_end, unsigned) {
    for (uint64_t k = k_begin; k < k_end; ++k)
      for (uint64_t b = 0; b < l.blocks; ++b) l.offset[b * l.buckets + k] += l.bucket_start[k];
  });
}

// Pass 2: the finite vertices in bucket order, each with the low half of its hash (high 32 bits)
// beside its index (low 32), so that the weld reads positions only to confirm a match.
void scatter_buckets(const BigVector<Vec3>& positions, Layout& l, uint64_t* order) {
  parallel_for(l.blocks, 1, [&](uint64_t b_begin, uint64_t b_end, unsigned) {
    for (uint64_t b = b_begin; b < b_end; ++b) {
      uint64_t* next = &l.offset[b * l.buckets];
      for (uint64_t v = b * l.block; v < std::min(l.n, (b + 1) * l.block); ++v) {
        uint32_t bits[3];
        if (!weld_key(positions[v], bits)) continue;
        const uint64_t hash = weld_hash(bits);
        order[next[bucket_of(l, hash)]++] = hash << 32 | v;
      }
    }
  });
}

// Pass 3: each bucket welded with its own table (one reused per worker).
void weld_buckets(const BigVector<Vec3>& positions, const Layout& l, const uint64_t* order, std::atomic<uint32_t>* id) {
  std::vector<std::vector<Slot>> tables(worker_count());
  parallel_for(l.buckets, 1, [&](uint64_t k_begin, uint64_t k_end, unsigned worker) {
    std::vector<Slot>& table = tables[worker];
    for (uint64_t k = k_begin; k < k_end; ++k) {
      const uint64_t begin = l.bucket_start[k], end = l.bucket_start[k + 1];
      size_t capacity = 16;
      while (capacity < 2 * (end - begin)) capacity *= 2;
      table.assign(capacity, Slot{0, kFree});
      for (uint64_t i = begin; i < end; ++i) {
        const uint32_t v = (uint32_t)order[i], check = (uint32_t)(order[i] >> 32);
        for (size_t h = check & (capacity - 1);; h = (h + 1) & (capacity - 1)) {
          Slot& s = table[h];
          if (s.first == kFree) {  // the first of its position: id[v] is v already
            s = Slot{check, v};
            break;
          }
          if (s.check == check && same_weld_position(positions[s.first], positions[v])) {
            id[v].store(s.first, std::memory_order_relaxed);
            break;
          }
        }
      }
    }
  });
}

}  // namespace

std::unique_ptr<std::atomic<uint32_t>[]> weld_by_position(const BigVector<Vec3>& positions) {
  const size_t n = positions.size();
  std::unique_ptr<std::atomic<uint32_t>[]> id(new std::atomic<uint32_t>[n]);
  Layout layout = make_layout(n);
  count_buckets(positions, layout, id.get());
  std::unique_ptr<uint64_t[]> order = uninitialized_array<uint64_t>(layout.bucket_start[layout.buckets]);
  scatter_buckets(positions, layout, order.get());
  weld_buckets(positions, layout, order.get(), id.get());
  return id;
}

}  // namespace facet
