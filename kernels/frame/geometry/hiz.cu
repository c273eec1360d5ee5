// Tile bounds for occlusion culling's second pass (occlusion.h): the farthest depth that the
// first pass left in each kHizTile-square tile, and in each coarse tile of kHizCoarse^2 of them.
#include "kernels/base/launch.h"
#include "kernels/frame/stages.h"

namespace facet {

namespace {

constexpr int kWarps = kHizCoarse * kHizCoarse;  // a warp a fine tile, a block a coarse tile
constexpr int kRowsALane = kHizTile * kHizTile / 32;

__global__ void __launch_bounds__(32 * kWarps) hiz_kernel(RasterStageParams p) {
  let_next_kernel_launch();
  wait_for_previous_kernel();  // the first pass's keys
  const OcclusionTest& o = p.occlusion.test;
  const int warp = threadIdx.x / 32, lane = threadIdx.x & 31;
  const int tx = blockIdx.x * kHizCoarse + warp % kHizCoarse, ty = blockIdx.y * kHizCoarse + warp / kHizCoarse;
  // Lane l reads column l % 16 of rows l / 16, l / 16 + 2, ...: each load of the warp two runs
  // of 128 bytes. Pixels outside the frame bound nothing (nothing is drawn there).
  const int x = tx * kHizTile + lane % kHizTile;
  uint32_t bound = 0;
  if (tx < o.tiles_x && ty < o.tiles_y && x < o.width) {
#pragma unroll
    for (int k = 0; k < kRowsALane; ++k) {
      const int y = ty * kHizTile + lane / kHizTile + 2 * k;
      if (y >= o.height) continue;
      // A pixel's bound is its farthest sample's depth (an uncovered sample's is the far plane).
      const size_t i = (size_t)y * o.width + x, pixels = (size_t)o.width * o.height;
      for (int s = 0; s < p.frame.samples; ++s)
        bound = max(bound, hiz_depth_bits(p.vis[vis_slot(pixels, i, s)], p.frame.vis_tag));
    }
  }
  bound = __reduce_max_sync(0xffffffffu, bound);
  __shared__ uint32_t s_warp_bound[kWarps];
  if (lane == 0) {
    s_warp_bound[warp] = bound;
    if (tx < o.tiles_x && ty < o.tiles_y) p.occlusion.hiz[(size_t)ty * o.tiles_x + tx] = bound;
  }
  __syncthreads();
  if (threadIdx.x < 32) {
    uint32_t coarse = __reduce_max_sync(0xffffffffu, threadIdx.x < kWarps ? s_warp_bound[threadIdx.x] : 0u);
    if (threadIdx.x == 0) p.occlusion.hiz_coarse[(size_t)blockIdx.y * o.coarse_x + blockIdx.x] = coarse;
  }
}

}  // namespace

void launch_hiz(const RasterStageParams& p, cudaStream_t stream) {
  const OcclusionTest& o = p.occlusion.test;
  launch_kernel(hiz_kernel, dim3(o.coarse_x, o.coarse_y), 32 * kWarps, stream, p.chain_launches, p);
}

}  // namespace facet
