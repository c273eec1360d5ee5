// Each scene triangle's meshlet (what occlusion culling marks, kernels/frame/stages.h), on every core:
// the host reference for the kernel the device upload runs (kernels/prepare/triangle_meshlets.cu), which
// the gpu tests compare with it. Plain host code with no CUDA in it, so the CPU tests check it too.
#pragma once
#include <cstdint>
#include <memory>

#include "engine/base/big_array.h"
#include "engine/base/parallel.h"
#include "engine/meshlets/meshlets.h"

namespace facet {

// Meshlets per parallel_for piece: about 64 K triangles, enough that handing out pieces costs
// nothing, small enough to spread a 1 M-triangle model over 16 cores.
constexpr uint64_t kMeshletsPerPiece = 512;

// [triangle_count] the meshlet holding each triangle. Every entry is written: the meshlets cover
// every slot once and triangle_ids is a permutation (build_meshlets; check_cached_scene for a
// cached scene), so no zero-fill is needed.
inline std::unique_ptr<uint32_t[]> triangle_meshlets(const Meshlets& m, uint64_t triangle_count) {
  std::unique_ptr<uint32_t[]> meshlet_of = uninitialized_array<uint32_t>(triangle_count);
  uint32_t* out = meshlet_of.get();
  parallel_for(m.meshlets.size(), kMeshletsPerPiece, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t i = begin; i < end; ++i) {
      const Meshlet& ml = m.meshlets[i];
      for (uint32_t k = 0; k < ml.triangle_count; ++k) out[scene_triangle(m, ml.first_triangle + k)] = (uint32_t)i;
    }
  });
  return meshlet_of;
}

}  // namespace facet
