// Warp raster: one warp per triangle of the warp queue (medium and large triangles after setup).
// A medium one (its box fits 32-bit edge stepping) is rasterized whole by the warp; a large one
// is cut into kTileSide-square tile items for tile_raster.cu.
// No silent loss: when the tile-item queue is full the triangle goes to a fallback list that the
// tile raster finishes with (a warp loops over its box). It is counted, and the host grows the
// queue for later frames.
#include "kernels/base/launch.h"
#include "kernels/frame/raster/cutout_visit.h"
#include "kernels/frame/raster/raster.h"
#include "kernels/frame/raster/raster_variants.h"
#include "kernels/frame/raster/vis_write.h"
#include "kernels/frame/raster/warp_raster.h"
#include "kernels/frame/stages.h"
#include "kernels/frame/tuning.h"

namespace facet {

namespace {

// The lanes test the tiles of a large triangle's box (a thin diagonal triangle touches few of
// them), compact the ones it may cover, lane 0 reserves their items. Items that fit are written
// even when the rest do not, so [0, min(tile_items, capacity)) is always valid; a triangle with
// missing items goes to the fallback list (rasterized whole: atomicMin makes the repeat harmless).
template <int kSamples>
__device__ __forceinline__ void cut_into_tile_items(const RasterStageParams& p, const RasterTri& tri, uint32_t index,
                                                    uint32_t lane) {
  const unsigned all = 0xffffffffu;
  const int tx0 = tri.px0 / kTileSide, ty0 = tri.py0 / kTileSide;
  const uint32_t tiles_x = tri.px1 / kTileSide - tx0 + 1;
  const uint32_t count = tile_count(tri);
  bool lost = false;
  for (uint32_t k0 = 0; k0 < count; k0 += 32) {
    const uint32_t k = k0 + lane;
    const uint32_t tx = tx0 + k % tiles_x, ty = ty0 + k / tiles_x;
    bool hit = false;
    if (k < count) {
      const int x0 = maxi((int)tx * kTileSide, tri.px0), y0 = maxi((int)ty * kTileSide, tri.py0);
      const int x1 = mini((int)tx * kTileSide + kTileSide - 1, tri.px1);
      const int y1 = mini((int)ty * kTileSide + kTileSide - 1, tri.py1);
      hit = rect_may_cover(tri, x0, y0, x1, y1, sample_reach(kSamples));
    }
    const unsigned mask = __ballot_sync(all, hit);
    uint32_t base = 0;
    if (lane == 0 && mask) base = atomicAdd(&p.counters->tile_items, (uint32_t)__popc(mask));
    base = __shfl_sync(all, base, 0);
    const uint32_t slot = base + __popc(mask & ((1u << lane) - 1u));
    if (hit && slot < p.queues.tile_item_capacity) p.queues.tile_items[slot] = {index, tx | (ty << 16)};
    lost |= __any_sync(all, hit && slot >= p.queues.tile_item_capacity);
  }
  if (lane == 0 && lost) {
    const uint32_t f = atomicAdd(&p.counters->fallback_count, 1u);
    p.queues.fallback[f] = index;  // fallback has warp_capacity slots: always fits
  }
}

template <int kSamples, bool kCutouts>
__global__ void __launch_bounds__(kRasterThreads) warp_raster_kernel(RasterStageParams p) {
  let_next_kernel_launch();
  wait_for_previous_kernel();
  const uint32_t n = min(p.counters->warp_queued, p.queues.warp_capacity);
  const uint32_t lane = threadIdx.x & 31;
  const uint32_t warps = gridDim.x * (blockDim.x / 32);
  auto write = [&](int px, int py, int sample, uint64_t key) {
    vis_min<kSamples>(p.vis, p.frame, px, py, sample, key);
  };
  auto visit = cutout_visit<kCutouts>(p.scene, p.frame, write);
  for (uint32_t i = (blockIdx.x * blockDim.x + threadIdx.x) / 32; i < n; i += warps) {
    const RasterTri tri = p.queues.warp_tris[i];
    if (size_class(tri, kSamples, p.small_tri_pixels) == SizeClass::Medium)
      raster_box_lane_samples<kSamples>(tri, lane, visit);
    else
      cut_into_tile_items<kSamples>(p, tri, i, lane);
  }
}

}  // namespace

void launch_warp_raster(const RasterStageParams& p, cudaStream_t stream, bool after_kernel) {
  launch_raster_variant(p, [&](auto samples, auto cutouts) {
    launch_kernel(warp_raster_kernel<decltype(samples)::value, decltype(cutouts)::value>, p.persistent.warp_raster,
                  kRasterThreads, stream, after_kernel, p);
  });
}

}  // namespace facet
