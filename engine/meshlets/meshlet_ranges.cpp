// patch_ranges (meshlet_ranges.h), every pass on every core: a radix sort of the triangles by the
// Morton code of their centroid and by index, in fixed blocks of triangles (each block writes its
// own slots, so the order does not depend on the threads), the codes computed in its first pass.
// The arrays are left uninitialised, their pages first written by these passes on every core
// (meshlet_memory.h).
#include "engine/meshlets/meshlet_ranges.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "engine/base/parallel.h"
#include "engine/base/step_timing.h"
#include "engine/meshlets/meshlet_memory.h"
#include "kernels/frame/tuning.h"
#include "kernels/prepare/centroid_code.h"

namespace facet {

namespace {

constexpr int kDigitBits = 10;  // the radix sort's digit: three passes, 1024 counters a block
constexpr int kPasses = 3 * kCodeAxisBits / kDigitBits;
constexpr uint64_t kBlock = 1 << 16;  // triangles a radix-sort block
static_assert(3 * kCodeAxisBits % kDigitBits == 0, "whole digits");

// The grid of the Morton codes: the bounding cube of the positions (compute_bounds).
CodeGrid code_grid(const Scene& scene) {
  const Bounds b = compute_bounds(scene.positions);
  return code_grid_of_box(b.min, b.max);
}

uint32_t centroid_code(const Scene& scene, uint64_t t, const CodeGrid& g) {
  const uint32_t* c = &scene.indices[3 * t];
  return centroid_code(scene.positions[c[0]], scene.positions[c[1]], scene.positions[c[2]], g);
}

// Triangles sorted by (centroid code, index): a radix sort of code << 32 | index, least
// significant digit first, kDigitBits of the code a pass. Each pass is stable: fixed blocks count
// their digits, and every block's slots for a digit follow the earlier blocks', so the order does
// not depend on the threads. The codes are computed into the keys in the pass that counts the
// first digit, and the last pass writes the triangles' order itself: no array of codes, and no
// pass over the keys beyond a count and a scatter a digit.
std::unique_ptr<uint32_t[]> sorted_by_code(const Scene& scene, BackgroundRelease& release) {
  const uint64_t n = scene.triangle_count();
  const uint64_t blocks = (n + kBlock - 1) / kBlock;
  const uint32_t digits = 1u << kDigitBits;
  const CodeGrid grid = code_grid(scene);
  std::unique_ptr<uint64_t[]> keys = uninitialized_array<uint64_t>(n), moved = uninitialized_array<uint64_t>(n);
  std::unique_ptr<uint32_t[]> order = uninitialized_array<uint32_t>(n);
  std::vector<uint32_t> slot((uint64_t)digits * blocks + 1);  // [digit][block], then scanned
  for (int pass = 0; pass < kPasses; ++pass) {
    const int shift = 32 + pass * kDigitBits;
    auto digit = [&](uint64_t key) { return (uint32_t)(key >> shift) & (digits - 1); };
    parallel_for(blocks, 1, [&](uint64_t begin, uint64_t end, unsigned) {
      std::vector<uint32_t> count(digits);
      for (uint64_t b = begin; b < end; ++b) {
        std::fill(count.begin(), count.end(), 0u);
        const uint64_t first = b * kBlock, last = std::min(n, (b + 1) * kBlock);
        if (pass == 0) {
          for (uint64_t t = first; t < last; ++t) {
            keys[t] = (uint64_t)centroid_code(scene, t, grid) << 32 | t;
            ++count[digit(keys[t])];
          }
        } else {
          for (uint64_t i = first; i < last; ++i) ++count[digit(keys[i])];
        }
        for (uint32_t d = 0; d < digits; ++d) slot[d * blocks + b] = count[d];
      }
    });
    uint32_t sum = 0;
    for (uint32_t& s : slot) sum += std::exchange(s, sum);
    const bool final_pass = pass + 1 == kPasses;
    parallel_for(blocks, 1, [&](uint64_t begin, uint64_t end, unsigned) {
      std::vector<uint32_t> next(digits);
      for (uint64_t b = begin; b < end; ++b) {
        for (uint32_t d = 0; d < digits; ++d) next[d] = slot[d * blocks + b];
        const uint64_t first = b * kBlock, last = std::min(n, (b + 1) * kBlock);
        if (final_pass) {
          for (uint64_t i = first; i < last; ++i) order[next[digit(keys[i])]++] = (uint32_t)keys[i];
        } else {
          for (uint64_t i = first; i < last; ++i) moved[next[digit(keys[i])]++] = keys[i];
        }
      }
    });
    keys.swap(moved);
  }
  release.release(keys);
  release.release(moved);
  return order;
}

}  // namespace

PatchRanges patch_ranges(const Scene& scene, BackgroundRelease& release, const OrderSource& given) {
  PatchRanges r;
  StepTimer timer("meshlets");
  const uint64_t tris = scene.triangle_count();
  if (given) r.order = given(scene);
  if (r.order) {
    timer.step("order given");
  } else {
    r.order = sorted_by_code(scene, release);
    timer.step("codes, sort");
  }
  const uint64_t ranges = std::max<uint64_t>(1, (tris + kPatchRangeTriangles / 2) / kPatchRangeTriangles);
  for (uint64_t i = 0; i <= ranges; ++i) r.first_rank.push_back((uint32_t)(tris * i / ranges));
  return r;
}

}  // namespace facet
