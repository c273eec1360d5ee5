#include "engine/meshlets/corner_bases.h"

#include <atomic>

#include "engine/base/parallel.h"
#include "kernels/frame/params.h"

namespace facet {

namespace {
// Meshlets a task: about 64 K triangles, as the host route's other passes.
constexpr uint64_t kBaseMeshletsPerPiece = 512;

CornerBases a_base_a_triangle(const Meshlets& m, uint32_t triangle_count) {
  CornerBases b;
  b.bases = BigVector<uint32_t>(triangle_count);
  parallel_for(m.meshlets.size(), kBaseMeshletsPerPiece, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t i = begin; i < end; ++i) {
      const Meshlet& ml = m.meshlets[i];
      for (uint32_t k = 0; k < ml.triangle_count; ++k)
        b.bases[scene_triangle(m, ml.first_triangle + k)] = ml.first_vertex;
    }
  });
  return b;
}
}  // namespace

CornerBases corner_bases(const Meshlets& m, uint32_t triangle_count) {
  if (triangle_count == 0) return {};
  if (!m.triangle_ids.empty()) return a_base_a_triangle(m, triangle_count);
  CornerBases b;
  b.shift = kCornerBaseShift;
  const uint32_t block = 1u << b.shift;
  b.bases = BigVector<uint32_t>(corner_base_count(triangle_count, b.shift));
  // The meshlet holding a block's first slot gives the block its base; the slots are handed out
  // in the meshlets' order, without gaps, so every block has one.
  parallel_for(m.meshlets.size(), kBaseMeshletsPerPiece, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t i = begin; i < end; ++i) {
      const Meshlet& ml = m.meshlets[i];
      const uint32_t last = ml.first_triangle + ml.triangle_count;
      for (uint32_t s = (ml.first_triangle + block - 1) & ~(block - 1); s < last; s += block)
        b.bases[s >> b.shift] = ml.first_vertex;
    }
  });
  // A meshlet's slots after its first block's start have their own base (d = 0); its first slot
  // may share an earlier meshlet's.
  std::atomic<bool> fits{true};
  parallel_for(m.meshlets.size(), kBaseMeshletsPerPiece, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t i = begin; i < end && fits.load(std::memory_order_relaxed); ++i) {
      const Meshlet& ml = m.meshlets[i];
      const uint32_t base = b.bases[ml.first_triangle >> b.shift];
      if (ml.first_vertex < base || ml.first_vertex - base > 255u) fits.store(false, std::memory_order_relaxed);
    }
  });
  return fits.load() ? std::move(b) : a_base_a_triangle(m, triangle_count);
}

}  // namespace facet
