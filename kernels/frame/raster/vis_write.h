// The one write into the visibility buffer, shared by every CUDA raster path: a 64-bit atomicMin
// of this frame's tagged key (raster.h) into key `sample` of the pixel, so the nearest triangle
// wins whatever the thread order.
#pragma once
#include "kernels/frame/params.h"
#include "kernels/frame/raster/raster.h"
#include "kernels/frame/raster/samples.h"

namespace facet {

// kSamples is the frame's fp.samples, known to the kernel: one sample needs no plane offset.
// vis_slot's index in 32 bits: a frame holds at most kMaxFrameSide^2 = 2^28 pixels and
// kMaxSamples = 8 planes of them, so every index is below 2^31; 64-bit index arithmetic would be
// a quarter of the instructions a covered sample costs in the raster loops.
static_assert((uint64_t)kMaxFrameSide * kMaxFrameSide * kMaxSamples <= (uint64_t{1} << 31), "32-bit key indices");
template <int kSamples>
__device__ __forceinline__ void vis_min(uint64_t* vis, const FrameParams& fp, int px, int py, int sample,
                                        uint64_t key) {
  const uint32_t width = (uint32_t)fp.width, i = (uint32_t)py * width + (uint32_t)px;
  const uint32_t slot = kSamples == 1 ? i : (uint32_t)sample * (width * (uint32_t)fp.height) + i;
  atomicMin(reinterpret_cast<unsigned long long*>(vis + slot), (unsigned long long)tag_key(key, fp.vis_tag));
}

}  // namespace facet
