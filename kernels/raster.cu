// Rasterization of the queued (medium and large) triangles into the 64-bit visibility buffer,
// and the launcher of the whole raster stage (geometry.cu first).
//
// Size classes (size_classes.h): a triangle whose pixel box is at most kSmallTriPixels (dense
// meshes: most triangles) is rasterized by the geometry block that set it up. Larger ones go to
// a queue and get a warp each: a medium one (under 60 px a side) is rasterized whole by that
// warp; a large one is cut into 8x8 tiles, and each tile item is rasterized by one warp, two
// pixels per lane.
// No silent loss: when the big queue is full the setup thread rasterizes the triangle itself;
// when the tile-item queue is full the triangle goes to a fallback list that the tile kernel
// finishes with (a warp loops over its box). Both are counted, and the host grows the queues for
// later frames.
#include "kernels/dependent_launch.h"
#include "kernels/occupancy.h"
#include "kernels/stages.h"
#include "kernels/raster.h"
#include "kernels/vis_write.h"
#include "kernels/warp_raster.h"

namespace facet {

// One warp per queued triangle. A medium one is rasterized here, whole (no tile items to write
// and read back). For a large one the lanes test the tiles of its box (a thin diagonal triangle
// touches few of them), compact the ones it may cover, lane 0 reserves their items. Items that fit
// are written even when the rest do not, so [0, min(item_count, capacity)) is always valid; a
// triangle with missing items is rasterized whole by the fallback loop of the tile kernel
// (atomicMin makes the repeat harmless).
__global__ void __launch_bounds__(256) bin_kernel(RasterStageParams p) {
  let_next_kernel_launch();
  wait_for_previous_kernel();
  const uint32_t n = min(p.counters->big_count, p.queues.big_capacity);
  const uint32_t lane = threadIdx.x & 31;
  const uint32_t warps = gridDim.x * (blockDim.x / 32);
  const unsigned all = 0xffffffffu;
  for (uint32_t i = (blockIdx.x * blockDim.x + threadIdx.x) / 32; i < n; i += warps) {
    const RasterTri t = p.queues.big[i];
    if (size_class(t) == SizeClass::Medium) {
      raster_box_lane(t, lane, [&](int px, int py, uint64_t key) { vis_min(p.vis, p.frame, px, py, key); });
      continue;
    }
    int tx0 = t.px0 / kTileSide, ty0 = t.py0 / kTileSide;
    uint32_t tiles_x = t.px1 / kTileSide - tx0 + 1;
    uint32_t count = tile_count(t);
    bool lost = false;
    for (uint32_t k0 = 0; k0 < count; k0 += 32) {
      uint32_t k = k0 + lane;
      uint32_t tx = tx0 + k % tiles_x, ty = ty0 + k / tiles_x;
      bool hit = false;
      if (k < count) {
        int x0 = maxi((int)tx * kTileSide, t.px0), y0 = maxi((int)ty * kTileSide, t.py0);
        int x1 = mini((int)tx * kTileSide + kTileSide - 1, t.px1), y1 = mini((int)ty * kTileSide + kTileSide - 1, t.py1);
        hit = rect_may_cover(t, x0, y0, x1, y1);
      }
      unsigned mask = __ballot_sync(all, hit);
      uint32_t base = 0;
      if (lane == 0 && mask) base = atomicAdd(&p.counters->item_count, (uint32_t)__popc(mask));
      base = __shfl_sync(all, base, 0);
      uint32_t slot = base + __popc(mask & ((1u << lane) - 1u));
      if (hit && slot < p.queues.item_capacity) p.queues.items[slot] = {i, tx | (ty << 16)};
      lost |= __any_sync(all, hit && slot >= p.queues.item_capacity);
    }
    if (lane == 0 && lost) {
      uint32_t f = atomicAdd(&p.counters->fallback_count, 1u);
      p.queues.fallback[f] = i;  // fallback has big_capacity slots: always fits
    }
  }
}

// One warp per tile item, items assigned by a fixed stride (no work counter: every item costs
// about the same, and an atomic per item only adds latency). Lane l covers pixel (l % 8, l / 8)
// and the one four rows below it (warp_raster.h).
__global__ void __launch_bounds__(256) tile_kernel(RasterStageParams p) {
  let_next_kernel_launch();
  wait_for_previous_kernel();
  const uint32_t n = min(p.counters->item_count, p.queues.item_capacity);
  const uint32_t lane = threadIdx.x & 31;
  const uint32_t warps = gridDim.x * (blockDim.x / 32);
  auto visit = [&](int px, int py, uint64_t key) { vis_min(p.vis, p.frame, px, py, key); };
  for (uint32_t i = (blockIdx.x * blockDim.x + threadIdx.x) / 32; i < n; i += warps) {
    TileItem item = p.queues.items[i];
    const RasterTri& t = p.queues.big[item.big];
    raster_tile_lane(t, (int)(item.tile & 0xffffu) * kTileSide, (int)(item.tile >> 16) * kTileSide, lane, visit);
  }
  // Then whatever did not fit the tile-item queue (almost never): one warp per triangle over its
  // whole box. Done here rather than in a kernel of its own, which would cost a launch per frame.
  const uint32_t nf = p.counters->fallback_count;
  for (uint32_t f = (blockIdx.x * blockDim.x + threadIdx.x) / 32; f < nf; f += warps) {
    const RasterTri& t = p.queues.big[p.queues.fallback[f]];
    int w = t.px1 - t.px0 + 1;
    int64_t total = box_pixels(t);
    for (int64_t k = lane; k < total; k += 32) {
      int px = t.px0 + (int)(k % w), py = t.py0 + (int)(k / w);
      uint64_t key;
      if (pixel_key(t, px, py, key)) vis_min(p.vis, p.frame, px, py, key);
    }
  }
}

PersistentBlocks persistent_blocks(int sm_count) {
  // The tile kernel as one resident wave; the bin kernel (64 registers: 4 blocks of 256 resident
  // an SM) asks for 8 an SM: its second wave rasterizes medium triangles that the first wave's
  // share would leave waiting (NOTES.md, v9: one wave for both lost 1-2 us on Spot and the 200 K
  // sphere at 4K, this way nothing lost).
  return {sm_count * 8, sm_count * resident_blocks_per_sm(tile_kernel, 256)};
}

void launch_raster_stage(const RasterStageParams& params, cudaStream_t stream) {
  RasterStageParams p = params;
  if (p.occlusion.enabled) {  // occlusion culling: two passes with the tile bounds between them
    p.occlusion.pass = 1;
    launch_geometry(p, stream);
    launch_hiz(p, stream);
    p.occlusion.pass = 2;
    launch_geometry(p, stream, p.chain_launches);
  } else {
    launch_geometry(p, stream);
  }
  // Chained to the geometry kernel only when there is one (a scene without meshlets launches none).
  launch_kernel(bin_kernel, p.persistent.bin, 256, stream, p.chain_launches && p.meshlet_count > 0, p);
  launch_kernel(tile_kernel, p.persistent.tile, 256, stream, p.chain_launches, p);
}

}  // namespace facet
