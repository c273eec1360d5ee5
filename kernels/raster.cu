// Triangle front end and rasterization into the 64-bit visibility buffer (atomicMin of
// depth << 32 | triangle: nearer wins, ties to the lower index, independent of thread order).
//
// Size classes (size_classes.h): a triangle whose pixel box is at most kSmallTriPixels (dense
// meshes: most triangles) is collected in its block's shared memory and rasterized by one thread
// once the block's setup is done. Larger ones go to a queue and get a warp each: a medium one
// (under 60 px a side) is rasterized whole by that warp; a large one is cut into 8x8 tiles, and
// each tile item is rasterized by one warp, two pixels per lane.
// No silent loss: when the big queue is full the setup thread rasterizes the triangle itself;
// when the tile-item queue is full the triangle goes to a fallback list that the tile kernel
// finishes with (a warp loops over its box). Both are counted, and the host grows the queues for
// later frames.
#include <cooperative_groups.h>

#include "kernels/stages.h"
#include "kernels/raster.h"
#include "kernels/triangle.h"
#include "kernels/warp_raster.h"

namespace facet {

namespace cg = cooperative_groups;

namespace {

__device__ __forceinline__ void vis_min(uint64_t* vis, const FrameParams& fp, int px, int py, uint64_t key) {
  atomicMin(reinterpret_cast<unsigned long long*>(vis + (size_t)py * fp.width + px),
            (unsigned long long)tag_key(key, fp.vis_tag));
}

}  // namespace

// Triangles set up by each thread (their loads in flight together) and the blocks per SM the
// registers are budgeted for. Two configurations, measured (NOTES.md, v6): one triangle a thread
// at 64 registers (4 blocks an SM) while the grid is a few waves, where more threads hide more
// latency; two a thread at 80 registers (3 blocks an SM) for millions of triangles, where the
// loads in flight per thread win (20 M: 0.36 ms against 0.46 ms for one a thread).
template <int kTrianglesPerThread, int kMinBlocks>
__global__ void __launch_bounds__(256, kMinBlocks) triangle_kernel(RasterStageParams p) {
  // Small survivors a block collects: all of its triangles, uncut (clipped pieces beyond this
  // are rasterized by the thread that made them).
  constexpr uint32_t kSmallSlots = 256 * kTrianglesPerThread;
  __shared__ TriCounters s_count;              // this block's totals: one global atomic per field
  __shared__ RasterTri s_small[kSmallSlots];   // the block's small survivors, rasterized together
  __shared__ uint32_t s_small_count;           // so that no lane idles in a loop
  if (threadIdx.x == 0) {
    s_count = TriCounters{};
    s_small_count = 0;
  }
  __syncthreads();

  // All threads: set up kTrianglesPerThread triangles each, all their loads issued before any
  // arithmetic (the loads are the latency). A dense mesh culls most of them; the survivors are
  // collected instead of rasterized on the spot, where 2 busy lanes would hold up 30 idle ones.
  TriCounters c{};
  auto visit = [&](int px, int py, uint64_t key) { vis_min(p.vis, p.frame, px, py, key); };
  auto emit = [&](const RasterTri& t) {
    SizeClass size = size_class(t);
    if (size == SizeClass::Small) {
      uint32_t slot = atomicAdd(&s_small_count, 1u);
      if (slot < kSmallSlots) s_small[slot] = t;
      else raster_rect(t, t.px0, t.py0, t.px1, t.py1, visit);  // more pieces than slots
      return;
    }
    if (size == SizeClass::Large) atomicAdd(&p.counters->items_wanted, tile_count(t));
    // One atomic per group of lanes pushing together: every pusher of the grid hits this word.
    cg::coalesced_group pushers = cg::coalesced_threads();
    uint32_t base = 0;
    if (pushers.thread_rank() == 0) base = atomicAdd(&p.counters->big_count, pushers.size());
    uint32_t slot = pushers.shfl(base, 0) + pushers.thread_rank();
    if (slot < p.queues.big_capacity) {
      p.queues.big[slot] = t;
      return;
    }
    atomicAdd(&p.counters->inline_overflow, 1u);
    raster_rect(t, t.px0, t.py0, t.px1, t.py1, visit);
  };
  const ClipPlanes planes = make_clip_planes(p.frame.width, p.frame.height);
  const uint32_t first = blockIdx.x * blockDim.x * kTrianglesPerThread + threadIdx.x;
  TriangleInput in[kTrianglesPerThread];
#pragma unroll
  for (int k = 0; k < kTrianglesPerThread; ++k) {
    uint32_t tri = first + k * blockDim.x;
    if (tri < p.triangle_count) in[k] = load_triangle(p.projected, p.indices, tri);
  }
#pragma unroll
  for (int k = 0; k < kTrianglesPerThread; ++k) {
    uint32_t tri = first + k * blockDim.x;
    if (tri < p.triangle_count) process_loaded_triangle(in[k], p.positions, tri, p.frame, planes, c, emit);
  }
  // Warp sums first: 32 threads adding to one shared word would serialize.
  const unsigned all = 0xffffffffu;
  uint32_t culled = __reduce_add_sync(all, c.culled), clipped = __reduce_add_sync(all, c.clipped);
  uint32_t nan = __reduce_add_sync(all, c.nan), drawn = __reduce_add_sync(all, c.drawn);
  if ((threadIdx.x & 31) == 0) {
    if (culled) atomicAdd(&s_count.culled, culled);
    if (clipped) atomicAdd(&s_count.clipped, clipped);
    if (nan) atomicAdd(&s_count.nan, nan);
    if (drawn) atomicAdd(&s_count.drawn, drawn);
  }
  __syncthreads();

  // All threads: rasterize the collected small triangles, one at a time each.
  uint32_t n = min(s_small_count, kSmallSlots);
  for (uint32_t k = threadIdx.x; k < n; k += blockDim.x) {
    const RasterTri& t = s_small[k];
    raster_rect(t, t.px0, t.py0, t.px1, t.py1, visit);
  }
  if (threadIdx.x == 0) {
    atomicAdd(&p.counters->tris.culled, s_count.culled);
    atomicAdd(&p.counters->tris.clipped, s_count.clipped);
    atomicAdd(&p.counters->tris.nan, s_count.nan);
    atomicAdd(&p.counters->tris.drawn, s_count.drawn);
  }
}

// One warp per queued triangle. A medium one is rasterized here, whole (no tile items to write
// and read back). For a large one the lanes test the tiles of its box (a thin diagonal triangle
// touches few of them), compact the ones it may cover, lane 0 reserves their items. Items that fit
// are written even when the rest do not, so [0, min(item_count, capacity)) is always valid; a
// triangle with missing items is rasterized whole by the fallback loop of the tile kernel
// (atomicMin makes the repeat harmless).
__global__ void __launch_bounds__(256) bin_kernel(RasterStageParams p) {
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

void launch_raster_stage(const RasterStageParams& p, cudaStream_t stream) {
  if (p.triangle_count > 0) {
    // persistent_blocks * 256 threads fill the GPU at full occupancy; at 4 blocks an SM a wave
    // is half that. Up to 8 waves: one triangle a thread.
    const uint64_t few = (uint64_t)p.persistent_blocks * 256 / 2 * 8;
    if (p.triangle_count <= few)
      triangle_kernel<1, 4><<<(p.triangle_count + 255) / 256, 256, 0, stream>>>(p);
    else
      triangle_kernel<2, 3><<<(p.triangle_count + 511) / 512, 256, 0, stream>>>(p);
  }
  bin_kernel<<<p.persistent_blocks, 256, 0, stream>>>(p);
  tile_kernel<<<p.persistent_blocks, 256, 0, stream>>>(p);
}

}  // namespace facet
