// Geometry (vertex projection, triangle front end) and rasterization into the 64-bit visibility
// buffer (atomicMin of depth << 32 | triangle: nearer wins, ties to the lower index, independent
// of thread order).
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
#include "kernels/vertex.h"
#include "kernels/warp_raster.h"

namespace facet {

namespace cg = cooperative_groups;

namespace {

__device__ __forceinline__ void vis_min(uint64_t* vis, const FrameParams& fp, int px, int py, uint64_t key) {
  atomicMin(reinterpret_cast<unsigned long long*>(vis + (size_t)py * fp.width + px),
            (unsigned long long)tag_key(key, fp.vis_tag));
}

}  // namespace

// One block per meshlet (params.h): its vertices are projected and snapped into shared memory
// (the vertex stage, done where its results are used), then each thread sets up one triangle
// from there. Positions and local indices stream in order; nothing waits on an index before
// fetching a vertex.
// 64 registers: 1024 threads an SM.
__global__ void __launch_bounds__(kMeshletMaxTriangles, 1024 / kMeshletMaxTriangles) geometry_kernel(RasterStageParams p) {
  static_assert(kMeshletMaxVertices <= kMeshletMaxTriangles && kMeshletMaxVertices <= 256,
                "one thread per vertex and triangle; 8-bit local indices");
  // Small survivors the block collects: all of its triangles, uncut (clipped pieces beyond this
  // are rasterized by the thread that made them).
  constexpr uint32_t kSmallSlots = kMeshletMaxTriangles;
  __shared__ ProjectedVertex s_vertex[kMeshletMaxVertices];
  __shared__ TriCounters s_count;              // this block's totals: one global atomic per field
  __shared__ RasterTri s_small[kSmallSlots];   // the block's small survivors, rasterized together
  __shared__ uint32_t s_small_count;           // so that no lane idles in a loop

  const Meshlet m = p.meshlets[blockIdx.x];
  const Vec3* positions = p.meshlet_positions + m.first_vertex;
  const bool has_tri = threadIdx.x < m.triangle_count;
  const uint32_t tri = m.first_triangle + threadIdx.x;
  const uint32_t packed = has_tri ? p.meshlet_triangles[tri] : 0u;  // in flight during the projection
  const ClipPlanes planes = p.planes;
  if (threadIdx.x < m.vertex_count)
    s_vertex[threadIdx.x] = project_and_snap(p.frame.view_proj, positions[threadIdx.x], planes,
                                             p.frame.width, p.frame.height);
  if (threadIdx.x == 0) {
    s_count = TriCounters{};
    s_small_count = 0;
  }
  __syncthreads();

  // A dense mesh culls most triangles; the survivors are collected instead of rasterized on the
  // spot, where 2 busy lanes would hold up 30 idle ones.
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
  if (has_tri) {
    TriangleInput in;
    in.i0 = local_index(packed, 0);
    in.i1 = local_index(packed, 1);
    in.i2 = local_index(packed, 2);
    in.v0 = s_vertex[in.i0];
    in.v1 = s_vertex[in.i1];
    in.v2 = s_vertex[in.i2];
    // Clipping (rare) recomputes clip coordinates from the meshlet's own copy of the positions.
    process_loaded_triangle(in, positions, tri, p.frame, planes, c, emit);
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
    TriCounters& total = p.counters->tris[blockIdx.x % kTriCounterCopies];
    if (s_count.culled) atomicAdd(&total.culled, s_count.culled);
    if (s_count.clipped) atomicAdd(&total.clipped, s_count.clipped);
    if (s_count.nan) atomicAdd(&total.nan, s_count.nan);
    if (s_count.drawn) atomicAdd(&total.drawn, s_count.drawn);
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
  if (p.meshlet_count > 0) geometry_kernel<<<p.meshlet_count, kMeshletMaxTriangles, 0, stream>>>(p);
  bin_kernel<<<p.persistent_blocks, 256, 0, stream>>>(p);
  tile_kernel<<<p.persistent_blocks, 256, 0, stream>>>(p);
}

}  // namespace facet
