// patch_ranges (meshlet_ranges.h), every pass on every core: a radix sort of the triangles by the
// Morton code of their centroid and by index, most significant digit first (the codes computed in
// its first pass), each bucket then sorted in a core's cache.
// The arrays are left uninitialised, their pages first written by these passes on every core
// (meshlet_memory.h).
#include "engine/meshlet_ranges.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "engine/meshlet_memory.h"
#include "engine/parallel.h"
#include "engine/step_timing.h"
#include "kernels/tuning.h"

namespace facet {

namespace {

constexpr int kAxisBits = 10;    // 1024 cells an axis: finer than any range, 30 bits in all
constexpr int kDigitBits = 10;   // the radix sort's digit: three, 1024 counters a block or bucket
constexpr int kPasses = 3 * kAxisBits / kDigitBits;
constexpr uint64_t kBlock = 1 << 16;  // triangles a radix-sort block
static_assert(3 * kAxisBits % kDigitBits == 0, "whole digits");

// Ten bits spread to every third bit.
uint32_t spread3(uint32_t x) {
  x &= 0x3ff;
  x = (x | x << 16) & 0x030000ff;
  x = (x | x << 8) & 0x0300f00f;
  x = (x | x << 4) & 0x030c30c3;
  x = (x | x << 2) & 0x09249249;
  return x;
}

// The cell grid of the centroids' Morton codes: the positions' bounding cube, kAxisBits an axis.
struct CodeGrid {
  double lo[3];
  double scale;  // cells a unit of length
};

CodeGrid code_grid(const Scene& scene) {
  const Bounds b = compute_bounds(scene.positions);
  const double extent = std::max({(double)b.max.x - b.min.x, (double)b.max.y - b.min.y, (double)b.max.z - b.min.z});
  return {{b.min.x, b.min.y, b.min.z}, extent > 0 ? (1 << kAxisBits) / extent : 0.0};
}

uint32_t centroid_code(const Scene& scene, uint64_t t, const CodeGrid& g) {
  uint32_t code = 0;
  for (int a = 0; a < 3; ++a) {
    double c = 0;
    for (int k = 0; k < 3; ++k) c += (&scene.positions[scene.indices[3 * t + k]].x)[a];
    const double q = (c / 3 - g.lo[a]) * g.scale;  // NaN for a non-finite corner: cell 0
    const uint32_t cell = q > 0 ? (uint32_t)std::min(q, (double)((1 << kAxisBits) - 1)) : 0u;
    code |= spread3(cell) << a;
  }
  return code;
}

// A least-significant-digit radix sort of keys[0..n) by the `passes` digits from `shift` up,
// stable, on every core: fixed blocks count their digits, and every block's slots for a digit
// follow the earlier blocks', so the order does not depend on the threads. Passes go back and
// forth between keys and scratch; the last writes each key's low 32 bits (the index) to out.
void sort_on_every_core(uint64_t* keys, uint64_t* scratch, uint32_t* out, uint64_t n, int shift, int passes) {
  const uint64_t blocks = (n + kBlock - 1) / kBlock;
  const uint32_t digits = 1u << kDigitBits;
  std::vector<uint32_t> slot((uint64_t)digits * blocks + 1);  // [digit][block], then scanned
  for (int pass = 0; pass < passes; ++pass, shift += kDigitBits) {
    auto digit = [shift](uint64_t key) { return (uint32_t)(key >> shift) & (digits - 1); };
    parallel_for(blocks, 1, [&](uint64_t begin, uint64_t end, unsigned) {
      std::vector<uint32_t> count(digits);
      for (uint64_t b = begin; b < end; ++b) {
        std::fill(count.begin(), count.end(), 0u);
        for (uint64_t i = b * kBlock; i < std::min(n, (b + 1) * kBlock); ++i) ++count[digit(keys[i])];
        for (uint32_t d = 0; d < digits; ++d) slot[d * blocks + b] = count[d];
      }
    });
    uint32_t sum = 0;
    for (uint32_t& s : slot) sum += std::exchange(s, sum);
    const bool last = pass + 1 == passes;
    parallel_for(blocks, 1, [&](uint64_t begin, uint64_t end, unsigned) {
      std::vector<uint32_t> next(digits);
      for (uint64_t b = begin; b < end; ++b) {
        for (uint32_t d = 0; d < digits; ++d) next[d] = slot[d * blocks + b];
        const uint64_t first = b * kBlock, stop = std::min(n, (b + 1) * kBlock);
        if (last) {
          for (uint64_t i = first; i < stop; ++i) out[next[digit(keys[i])]++] = (uint32_t)keys[i];
        } else {
          for (uint64_t i = first; i < stop; ++i) scratch[next[digit(keys[i])]++] = keys[i];
        }
      }
    });
    std::swap(keys, scratch);
  }
}

// The same sort on one core, for a bucket that stays in its cache.
void sort_on_one_core(uint64_t* keys, uint64_t* scratch, uint32_t* out, uint64_t n, int shift, int passes) {
  const uint32_t digits = 1u << kDigitBits;
  uint32_t next[1u << kDigitBits];
  for (int pass = 0; pass < passes; ++pass, shift += kDigitBits) {
    auto digit = [shift](uint64_t key) { return (uint32_t)(key >> shift) & (digits - 1); };
    std::fill(next, next + digits, 0u);
    for (uint64_t i = 0; i < n; ++i) ++next[digit(keys[i])];
    uint32_t sum = 0;
    for (uint32_t& s : next) sum += std::exchange(s, sum);
    if (pass + 1 == passes) {
      for (uint64_t i = 0; i < n; ++i) out[next[digit(keys[i])]++] = (uint32_t)keys[i];
    } else {
      for (uint64_t i = 0; i < n; ++i) scratch[next[digit(keys[i])]++] = keys[i];
    }
    std::swap(keys, scratch);
  }
}

// Triangles sorted by (centroid code, index): a radix sort of code << 32 | index, kDigitBits a
// digit, most significant digit first. One pass over the triangles computes the codes into the
// keys and counts their top digit, a second puts them in buckets by it (stable, fixed blocks as
// in sort_on_every_core); each bucket is then sorted by its lower digits on its own, in a core's
// cache, and its last pass writes the triangles' order itself. Two passes over the 8-byte keys in
// memory instead of a count and a scatter for every digit. A bucket too large for one core's share
// (a model whose triangles crowd one corner of its bounding cube) is sorted on every core. The
// keys are unique, so any correct sort gives this order, whatever the threads.
std::unique_ptr<uint32_t[]> sorted_by_code(const Scene& scene, BackgroundRelease& release) {
  const uint64_t n = scene.triangle_count();
  const uint64_t blocks = (n + kBlock - 1) / kBlock;
  const uint32_t digits = 1u << kDigitBits;
  const int top = 32 + (kPasses - 1) * kDigitBits;  // the top digit's shift
  auto top_digit = [top](uint64_t key) { return (uint32_t)(key >> top) & (digits - 1); };
  const CodeGrid grid = code_grid(scene);
  std::unique_ptr<uint64_t[]> keys = uninitialized_array<uint64_t>(n), bucketed = uninitialized_array<uint64_t>(n);
  std::unique_ptr<uint32_t[]> order = uninitialized_array<uint32_t>(n);
  std::vector<uint64_t> slot((uint64_t)digits * blocks + 1);  // [digit][block], then scanned
  parallel_for(blocks, 1, [&](uint64_t begin, uint64_t end, unsigned) {
    std::vector<uint32_t> count(digits);
    for (uint64_t b = begin; b < end; ++b) {
      std::fill(count.begin(), count.end(), 0u);
      for (uint64_t t = b * kBlock; t < std::min(n, (b + 1) * kBlock); ++t) {
        keys[t] = (uint64_t)centroid_code(scene, t, grid) << 32 | t;
        ++count[top_digit(keys[t])];
      }
      for (uint32_t d = 0; d < digits; ++d) slot[d * blocks + b] = count[d];
    }
  });
  uint64_t sum = 0;
  for (uint64_t& s : slot) sum += std::exchange(s, sum);
  parallel_for(blocks, 1, [&](uint64_t begin, uint64_t end, unsigned) {
    std::vector<uint64_t> next(digits);
    for (uint64_t b = begin; b < end; ++b) {
      for (uint32_t d = 0; d < digits; ++d) next[d] = slot[d * blocks + b];
      for (uint64_t i = b * kBlock; i < std::min(n, (b + 1) * kBlock); ++i) bucketed[next[top_digit(keys[i])]++] = keys[i];
    }
  });
  // Bucket d holds ranks slot[d * blocks] .. slot[(d + 1) * blocks]; keys is the scratch.
  auto bucket_begin = [&](uint32_t d) { return slot[(uint64_t)d * blocks]; };
  const uint64_t one_core = std::max<uint64_t>(kBlock, n / (4 * (uint64_t)worker_count()));
  std::vector<uint32_t> large;
  for (uint32_t d = 0; d < digits; ++d)
    if (bucket_begin(d + 1) - bucket_begin(d) > one_core) large.push_back(d);
  parallel_for(digits, 1, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t d = begin; d < end; ++d) {
      const uint64_t first = bucket_begin((uint32_t)d), count = bucket_begin((uint32_t)d + 1) - first;
      if (count <= one_core)
        sort_on_one_core(&bucketed[first], &keys[first], &order[first], count, 32, kPasses - 1);
    }
  });
  for (uint32_t d : large) {
    const uint64_t first = bucket_begin(d);
    sort_on_every_core(&bucketed[first], &keys[first], &order[first], bucket_begin(d + 1) - first, 32, kPasses - 1);
  }
  release.release(keys);
  release.release(bucketed);
  return order;
}

}  // namespace

PatchRanges patch_ranges(const Scene& scene, BackgroundRelease& release) {
  PatchRanges r;
  StepTimer timer("meshlets");
  const uint64_t tris = scene.triangle_count();
  r.order = sorted_by_code(scene, release);
  timer.step("codes, sort");
  const uint64_t ranges = std::max<uint64_t>(1, (tris + kPatchRangeTriangles / 2) / kPatchRangeTriangles);
  for (uint64_t i = 0; i <= ranges; ++i) r.first_rank.push_back((uint32_t)(tris * i / ranges));
  return r;
}

}  // namespace facet
