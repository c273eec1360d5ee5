// The one write into the visibility buffer, shared by every CUDA raster path: a 64-bit atomicMin
// of this frame's tagged key (raster.h) into key `sample` of the pixel, so the nearest triangle
// wins whatever the thread order.
#pragma once
#include "kernels/params.h"
#include "kernels/raster.h"

namespace facet {

// kSamples is the frame's fp.samples, known to the kernel: one sample needs no plane offset.
template <int kSamples>
__device__ __forceinline__ void vis_min(uint64_t* vis, const FrameParams& fp, int px, int py, int sample,
                                        uint64_t key) {
  const size_t i = (size_t)py * fp.width + px;
  const size_t slot = kSamples == 1 ? i : vis_slot((size_t)fp.width * fp.height, i, sample);
  atomicMin(reinterpret_cast<unsigned long long*>(vis + slot), (unsigned long long)tag_key(key, fp.vis_tag));
}

}  // namespace facet
