// Triangle front end and rasterization into the 64-bit visibility buffer (atomicMin of
// depth << 32 | triangle: nearer wins, ties to the lower index, independent of thread order).
//
// Size classes: a triangle whose pixel box is at most kSmallTriPixels is rasterized by the thread
// that set it up (dense meshes: most triangles). Larger ones go to a queue, are cut into 16x16
// tiles, and each tile item is rasterized by one 256-thread block, one pixel per thread.
// No silent loss: when the big queue is full the setup thread rasterizes the triangle itself;
// when the tile-item queue is full the triangle goes to a fallback kernel (a block loops over its
// box). Both are counted, and the host grows the queues for later frames.
#include "kernels/stages.h"
#include "kernels/raster.h"
#include "kernels/triangle.h"

namespace facet {

namespace {

__device__ __forceinline__ void vis_min(uint64_t* vis, int width, int px, int py, uint64_t key) {
  atomicMin(reinterpret_cast<unsigned long long*>(vis + (size_t)py * width + px), (unsigned long long)key);
}

__device__ __forceinline__ int64_t box_pixels(const RasterTri& t) {
  return (int64_t)(t.px1 - t.px0 + 1) * (t.py1 - t.py0 + 1);
}

}  // namespace

__global__ void __launch_bounds__(256) triangle_kernel(RasterStageParams p) {
  __shared__ TriCounters s_count;  // this block's totals, one global atomic per field per block
  if (threadIdx.x == 0) s_count = TriCounters{};
  __syncthreads();

  uint32_t tri = blockIdx.x * blockDim.x + threadIdx.x;
  TriCounters c{};
  if (tri < p.triangle_count) {
    const ClipPlanes planes = make_clip_planes(p.frame.width, p.frame.height);
    const int width = p.frame.width;
    process_triangle(p.projected, p.positions, p.indices, tri, p.frame, planes, c, [&](const RasterTri& t) {
      auto visit = [&](int px, int py, uint64_t key) { vis_min(p.vis, width, px, py, key); };
      if (box_pixels(t) <= kSmallTriPixels) {
        raster_rect(t, t.px0, t.py0, t.px1, t.py1, visit);
        return;
      }
      atomicAdd(&p.counters->items_wanted, tile_count(t));
      uint32_t slot = atomicAdd(&p.counters->big_count, 1u);
      if (slot < p.queues.big_capacity) {
        p.queues.big[slot] = t;
        return;
      }
      atomicAdd(&p.counters->inline_overflow, 1u);
      raster_rect(t, t.px0, t.py0, t.px1, t.py1, visit);
    });
  }
  if (c.culled) atomicAdd(&s_count.culled, c.culled);
  if (c.clipped) atomicAdd(&s_count.clipped, c.clipped);
  if (c.nan) atomicAdd(&s_count.nan, c.nan);
  if (c.drawn) atomicAdd(&s_count.drawn, c.drawn);
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicAdd(&p.counters->tris.culled, s_count.culled);
    atomicAdd(&p.counters->tris.clipped, s_count.clipped);
    atomicAdd(&p.counters->tris.nan, s_count.nan);
    atomicAdd(&p.counters->tris.drawn, s_count.drawn);
  }
}

// One thread per large triangle: reserve its tile items. Items that fit are written even when
// the rest do not, so [0, min(item_count, capacity)) is always valid; a triangle with missing
// items is rasterized whole by the fallback kernel (atomicMin makes the repeat harmless).
__global__ void bin_kernel(RasterStageParams p) {
  uint32_t n = min(p.counters->big_count, p.queues.big_capacity);
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const RasterTri& t = p.queues.big[i];
    int tx0 = t.px0 / kTileSide, ty0 = t.py0 / kTileSide;
    uint32_t tiles_x = t.px1 / kTileSide - tx0 + 1;
    uint32_t count = tile_count(t);
    uint32_t base = atomicAdd(&p.counters->item_count, count);
    for (uint32_t k = 0; k < count && base + k < p.queues.item_capacity; ++k) {
      uint32_t tx = tx0 + k % tiles_x, ty = ty0 + k / tiles_x;
      p.queues.items[base + k] = {i, tx | (ty << 16)};
    }
    if (base + count > p.queues.item_capacity) {
      uint32_t f = atomicAdd(&p.counters->fallback_count, 1u);
      p.queues.fallback[f] = i;  // fallback has big_capacity slots: always fits
    }
  }
}

// Persistent blocks of kTileSide^2 threads; each takes tile items from a counter.
__global__ void __launch_bounds__(kTileSide * kTileSide) tile_kernel(RasterStageParams p) {
  __shared__ uint32_t s_item;
  const uint32_t n = min(p.counters->item_count, p.queues.item_capacity);
  const int lx = threadIdx.x % kTileSide, ly = threadIdx.x / kTileSide;
  for (;;) {
    if (threadIdx.x == 0) s_item = atomicAdd(&p.counters->next_item, 1u);
    __syncthreads();
    uint32_t i = s_item;
    __syncthreads();  // all threads have read s_item before thread 0 overwrites it
    if (i >= n) return;
    TileItem item = p.queues.items[i];
    const RasterTri& t = p.queues.big[item.big];
    int px = (int)(item.tile & 0xffffu) * kTileSide + lx;
    int py = (int)(item.tile >> 16) * kTileSide + ly;
    uint64_t key;
    if (px >= t.px0 && px <= t.px1 && py >= t.py0 && py <= t.py1 && pixel_key(t, px, py, key))
      vis_min(p.vis, p.frame.width, px, py, key);
  }
}

// Whatever did not fit the tile-item queue: one block per triangle over its whole box.
__global__ void __launch_bounds__(256) fallback_kernel(RasterStageParams p) {
  __shared__ uint32_t s_next;
  const uint32_t n = p.counters->fallback_count;
  for (;;) {
    if (threadIdx.x == 0) s_next = atomicAdd(&p.counters->next_fallback, 1u);
    __syncthreads();
    uint32_t f = s_next;
    __syncthreads();
    if (f >= n) return;
    const RasterTri& t = p.queues.big[p.queues.fallback[f]];
    int w = t.px1 - t.px0 + 1;
    int64_t total = box_pixels(t);
    for (int64_t k = threadIdx.x; k < total; k += blockDim.x) {
      int px = t.px0 + (int)(k % w), py = t.py0 + (int)(k / w);
      uint64_t key;
      if (pixel_key(t, px, py, key)) vis_min(p.vis, p.frame.width, px, py, key);
    }
  }
}

void launch_raster_stage(const RasterStageParams& p, cudaStream_t stream) {
  if (p.triangle_count > 0) {
    triangle_kernel<<<(p.triangle_count + 255) / 256, 256, 0, stream>>>(p);
  }
  bin_kernel<<<p.persistent_blocks, 256, 0, stream>>>(p);
  tile_kernel<<<p.persistent_blocks, kTileSide * kTileSide, 0, stream>>>(p);
  fallback_kernel<<<p.persistent_blocks, 256, 0, stream>>>(p);
}

}  // namespace facet
