// Tile raster: one warp per tile item of a large triangle, then, in the same kernel, whatever did
// not fit the tile-item queue. Lane l covers pixel (l % 8, l / 8) and the one four rows below it
// (warp_raster.h).
#include "kernels/base/launch.h"
#include "kernels/base/occupancy.h"
#include "kernels/frame/raster/cutout_visit.h"
#include "kernels/frame/raster/raster.h"
#include "kernels/frame/raster/raster_variants.h"
#include "kernels/frame/raster/vis_write.h"
#include "kernels/frame/raster/warp_raster.h"
#include "kernels/frame/stages.h"
#include "kernels/frame/tuning.h"

namespace facet {

namespace {

// Items assigned by a fixed stride (no work counter: every item costs about the same, and an
// atomic per item only adds latency).
template <int kSamples, bool kCutouts>
__global__ void __launch_bounds__(kRasterThreads) tile_raster_kernel(RasterStageParams p) {
  let_next_kernel_launch();
  wait_for_previous_kernel();
  const uint32_t n = min(p.counters->tile_items, p.queues.tile_item_capacity);
  const uint32_t lane = threadIdx.x & 31;
  const uint32_t warps = gridDim.x * (blockDim.x / 32);
  auto write = [&](int px, int py, int sample, uint64_t key) {
    vis_min<kSamples>(p.vis, p.frame, px, py, sample, key);
  };
  auto visit = cutout_visit<kCutouts>(p.scene, p.frame, write);
  for (uint32_t i = (blockIdx.x * blockDim.x + threadIdx.x) / 32; i < n; i += warps) {
    const TileItem item = p.queues.tile_items[i];
    const RasterTri& tri = p.queues.warp_tris[item.tri];
    raster_tile_lane_samples<kSamples>(tri, (int)(item.tile & 0xffffu) * kTileSide, (int)(item.tile >> 16) * kTileSide,
                                       lane, visit);
  }
  // Then whatever did not fit the tile-item queue (almost never): one warp per triangle over its
  // whole box. Done here rather than in a kernel of its own, which would cost a launch per frame.
  const uint32_t fallback_count = p.counters->fallback_count;
  for (uint32_t f = (blockIdx.x * blockDim.x + threadIdx.x) / 32; f < fallback_count; f += warps) {
    const RasterTri& tri = p.queues.warp_tris[p.queues.fallback[f]];
    const int width = tri.px1 - tri.px0 + 1;
    const int64_t total = box_pixels(tri);
    for (int64_t k = lane; k < total; k += 32) {
      const int px = tri.px0 + (int)(k % width), py = tri.py0 + (int)(k / width);
      raster_pixel_samples<kSamples>(tri, px, py, visit);
    }
  }
}

}  // namespace

int tile_raster_blocks_per_sm() { return resident_blocks_per_sm(tile_raster_kernel<1, false>, kRasterThreads); }

void launch_tile_raster(const RasterStageParams& p, cudaStream_t stream, bool after_kernel) {
  launch_raster_variant(p, [&](auto samples, auto cutouts) {
    launch_kernel(tile_raster_kernel<decltype(samples)::value, decltype(cutouts)::value>, p.persistent.tile_raster,
                  kRasterThreads, stream, after_kernel, p);
  });
}

}  // namespace facet
