// Geometry: whole meshlets culled (meshlet_cull.h), vertices projected and snapped into shared memory,
// the triangle front end (clip, cull, snap, setup) from there, and the small survivors
// rasterized by the same block. Medium and large triangles are queued for warp_raster.cu.
//
// Two shapes of the same work (engine/render/frame_plan.h picks, by scene and frame size):
//  - a block per meshlet (kGeometryMeshletThreads), one vertex and one triangle a thread. The
//    hardware hands blocks out as others finish; one thread tests the meshlet while the others
//    project, and the verdict comes with the barrier they pass anyway.
//  - claiming blocks: one resident wave of kGeometryClaimingThreads-thread blocks, two vertices
//    and two triangles a thread, that claim chunks of meshlets from a frame-wide cursor
//    (dynamic, so that blocks that drew cheap meshlets take more), test a chunk at once, one
//    meshlet a thread, and work through the survivors: the launch, bookkeeping and barriers of
//    a meshlet are shared by more triangles.
#include <cooperative_groups.h>

#include <algorithm>

#include "kernels/base/launch.h"
#include "kernels/base/occupancy.h"
#include "kernels/frame/geometry/meshlet_cull.h"
#include "kernels/frame/geometry/occlusion.h"
#include "kernels/frame/geometry/triangle.h"
#include "kernels/frame/geometry/vertex.h"
#include "kernels/frame/raster/cutout_visit.h"
#include "kernels/frame/raster/raster_variants.h"
#include "kernels/frame/raster/vis_write.h"
#include "kernels/frame/stages.h"
#include "kernels/frame/tuning.h"

namespace facet {

namespace cg = cooperative_groups;

namespace {

static_assert(kGeometryMeshletThreads == kMeshletMaxTriangles, "a thread a triangle of a full meshlet");
static_assert(kGeometryClaimingThreads * 2 == kMeshletMaxTriangles, "two triangles a thread");

// The scene's meshlet arrays are read once a frame and stream through L2: loaded evict-first, so
// that they do not push out what the frame reuses (the visibility buffer that the raster atomics
// and resolve hit, resolve's vertex records).
__device__ __forceinline__ uint32_t stream_load(const uint32_t* a) { return __ldcs(a); }
__device__ __forceinline__ Vec3 stream_load(const MeshletPoint* a) {
  const float4 v = __ldcs(reinterpret_cast<const float4*>(a));
  return {v.x, v.y, v.z};
}

// A meshlet to work on, as the block keeps it.
struct Work {
  uint32_t first_triangle, first_vertex;
  uint32_t counts;  // triangle_count | vertex_count << 16
};

__device__ __forceinline__ Work work_of(const Meshlet& m) {
  return {m.first_triangle, m.first_vertex, (uint32_t)m.triangle_count | (uint32_t)m.vertex_count << 16};
}

// What a block keeps of the meshlet it works on.
struct GeometryShared {
  ProjectedVertex vertex[kMeshletMaxVertices];  // the meshlet's vertices, projected and snapped
  RasterTri small[kMeshletMaxTriangles];        // its small survivors, rasterized together so
                                                //   that no lane idles in a loop
  uint32_t small_count[2];                      // by meshlet parity: a slow thread may still read the last count
                                                //   while the next fills, without another barrier
  TriCounters count;                            // the block's totals: one global atomic per field
};

// A claiming block's, besides: the meshlets it claimed.
struct ClaimingShared : GeometryShared {
  Work work[2][kGeometryClaimingThreads];  // surviving meshlets of a claimed chunk, by chunk parity
  uint32_t work_count[2];
  uint32_t chunk[2];  // first meshlet of the next claimed chunk, by chunk parity
};

// What one thread of a block holds of a meshlet while the block projects its vertices.
template <int kItems>
struct ThreadItems {
  uint32_t packed[kItems];    // local indices of the thread's triangles (local_index)
  uint32_t triangle[kItems];  // their scene triangles (what their keys carry)
  Vec3 position[kItems];      // the thread's vertices, world space
};

// Every load of the thread issued before any projection: the projection's branches keep the
// compiler from hoisting a second position load above the first projection, so a thread with
// two vertices would wait on two load latencies a meshlet.
template <int kThreads, bool kSlotsInCorners, int kItems>
__device__ __forceinline__ void load_meshlet(const RasterStageParams& params, const Work& work,
                                             ThreadItems<kItems>& items) {
  const uint32_t triangle_count = work.counts & 0xffffu, vertex_count = work.counts >> 16;
  const MeshletPoint* positions = params.meshlet_points + work.first_vertex;
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const uint32_t t = threadIdx.x + j * kThreads;
    const uint32_t slot = work.first_triangle + t;
    items.packed[j] = t < triangle_count ? stream_load(params.meshlet_triangles + slot) : 0u;
    items.triangle[j] = !kSlotsInCorners && params.meshlet_triangle_ids && t < triangle_count
                            ? stream_load(params.meshlet_triangle_ids + slot)
                            : slot;
  }
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const uint32_t v = threadIdx.x + j * kThreads;
    items.position[j] = v < vertex_count ? stream_load(positions + v) : Vec3{0.0f, 0.0f, 0.0f};
  }
}

// A triangle with the cut-out test, rasterized where set up (a full queue: rare), as a call: inlined
// into the set-up loop, whose registers it would share, it made the geometry kernels with
// cut-outs spill three times as much (ptxas -v, sm_90). Arguments by value: a reference to the
// kernel's parameters would copy all of them to the stack in every thread.
template <int kSamples>
__device__ __noinline__ void raster_cutout_call(RasterTri tri, uint64_t* vis, FrameParams frame, SceneView scene) {
  auto write = [&](int px, int py, int sample, uint64_t key) { vis_min<kSamples>(vis, frame, px, py, sample, key); };
  raster_rect_samples<kSamples>(tri, tri.px0, tri.py0, tri.px1, tri.py1, cutout_visit<true>(scene, frame, write));
}

// Pushes a medium or large triangle to the warp queue (one atomic per group of lanes pushing
// together: every pusher of the grid hits that word), or rasterizes it here when the queue is
// full (counted: the host grows the queue for later frames).
template <int kSamples, class RasterHere>
__device__ __forceinline__ void push_to_warp_queue(const RasterStageParams& params, const RasterTri& tri,
                                                   RasterHere&& raster_here) {
  if (size_class(tri, kSamples, params.small_tri_pixels) == SizeClass::Large)
    atomicAdd(&params.counters->tile_items_wanted, tile_count(tri));
  cg::coalesced_group pushers = cg::coalesced_threads();
  uint32_t base = 0;
  if (pushers.thread_rank() == 0) base = atomicAdd(&params.counters->warp_queued, pushers.size());
  const uint32_t slot = pushers.shfl(base, 0) + pushers.thread_rank();
  if (slot < params.queues.warp_capacity) {
    params.queues.warp_tris[slot] = tri;
    return;
  }
  atomicAdd(&params.counters->inline_overflow, 1u);
  raster_here(tri);
}

// The triangle front end (triangle.h) for the thread's triangles, from the projected vertices in
// shared memory. A dense mesh culls most triangles; the small survivors are collected instead of
// rasterized on the spot, where 2 busy lanes would hold up 30 idle ones.
// raster_here(tri) rasterizes a triangle that finds no room in a queue (rare).
template <int kThreads, int kSamples, int kItems, class RasterHere>
__device__ __forceinline__ void set_up_triangles(const RasterStageParams& params, GeometryShared& shared,
                                                 const Work& work, const ThreadItems<kItems>& items,
                                                 uint32_t* small_count, TriCounters& counts, RasterHere&& raster_here) {
  const uint32_t triangle_count = work.counts & 0xffffu;
  const MeshletPoint* positions = params.meshlet_points + work.first_vertex;
  auto emit = [&](const RasterTri& tri) {
    if (size_class(tri, kSamples, params.small_tri_pixels) != SizeClass::Small) {
      push_to_warp_queue<kSamples>(params, tri, raster_here);
      return;
    }
    const uint32_t slot = atomicAdd(small_count, 1u);
    if (slot < kMeshletMaxTriangles)
      shared.small[slot] = tri;
    else
      raster_here(tri);  // more pieces than slots
  };
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const uint32_t t = threadIdx.x + j * kThreads;
    if (t >= triangle_count) break;
    TriangleInput in;
    in.i0 = local_index(items.packed[j], 0);
    in.i1 = local_index(items.packed[j], 1);
    in.i2 = local_index(items.packed[j], 2);
    in.v0 = shared.vertex[in.i0];
    in.v1 = shared.vertex[in.i1];
    in.v2 = shared.vertex[in.i2];
    // Clipping (rare) recomputes clip coordinates from the meshlet's own copy of the positions.
    process_loaded_triangle<kSamples>(in, positions, items.triangle[j], params.frame, params.planes, counts, emit);
  }
}

// One meshlet, by the whole block: load, project into shared memory, set up, rasterize the small
// triangles. `cull_here`: the meshlet is culled (one thread's verdict in the block-per-meshlet
// shape, false otherwise); it arrives with the barrier after the projection. small_parity
// alternates the two small-triangle counters from meshlet to meshlet.
template <int kThreads, int kSamples, bool kCutouts, bool kSlotsInCorners>
__device__ __forceinline__ void geometry_meshlet(const RasterStageParams& params, GeometryShared& shared,
                                                 const Work& work, bool cull_here, uint32_t& small_parity,
                                                 TriCounters& counts) {
  constexpr int kItems = kMeshletMaxTriangles / kThreads;  // vertices and triangles a thread
  static_assert(kItems * kThreads == kMeshletMaxTriangles && kMeshletMaxVertices <= kMeshletMaxTriangles,
                "whole items a thread");
  const uint32_t vertex_count = work.counts >> 16;
  ThreadItems<kItems> items;
  load_meshlet<kThreads, kSlotsInCorners>(params, work, items);
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const uint32_t v = threadIdx.x + j * kThreads;
    if (v < vertex_count)
      shared.vertex[v] = project_and_snap(params.frame.view_proj, items.position[j], params.planes, params.frame.width,
                                          params.frame.height);
  }
  const bool culled = __syncthreads_or(cull_here);
  if (threadIdx.x == 0) shared.small_count[small_parity ^ 1] = 0;  // its readers passed the barrier
  if (culled) {
    if (threadIdx.x == 0) counts.culled += work.counts & 0xffffu;  // once: every thread knows
    small_parity ^= 1;
    return;
  }
  auto write = [&](int px, int py, int sample, uint64_t key) {
    vis_min<kSamples>(params.vis, params.frame, px, py, sample, key);
  };
  auto visit = cutout_visit<kCutouts>(params.scene, params.frame, write);
  auto raster_here = [&](const RasterTri& tri) {
    if (kCutouts)
      raster_cutout_call<kSamples>(tri, params.vis, params.frame, params.scene);
    else
      raster_rect_samples<kSamples>(tri, tri.px0, tri.py0, tri.px1, tri.py1, visit);
  };
  uint32_t* small_count = &shared.small_count[small_parity];
  set_up_triangles<kThreads, kSamples>(params, shared, work, items, small_count, counts, raster_here);
  __syncthreads();

  // All threads: rasterize the collected small triangles, one at a time each.
  const uint32_t n = min(*small_count, (uint32_t)kMeshletMaxTriangles);
  for (uint32_t j = threadIdx.x; j < n; j += kThreads) {
    const RasterTri& tri = shared.small[j];
    raster_rect_samples<kSamples>(tri, tri.px0, tri.py0, tri.px1, tri.py1, visit);
  }
  small_parity ^= 1;
}

// The block's counters into one of the frame's copies: warp sums first (32 threads adding to one
// shared word would serialize), then one global atomic per field.
__device__ __forceinline__ void flush_counters(const RasterStageParams& p, GeometryShared& shared,
                                               const TriCounters& counts) {
  const unsigned all = 0xffffffffu;
  uint32_t culled = __reduce_add_sync(all, counts.culled), clipped = __reduce_add_sync(all, counts.clipped);
  uint32_t nan = __reduce_add_sync(all, counts.nan), drawn = __reduce_add_sync(all, counts.drawn);
  uint32_t occluded = __reduce_add_sync(all, counts.occluded);
  if ((threadIdx.x & 31) == 0) {
    if (culled) atomicAdd(&shared.count.culled, culled);
    if (clipped) atomicAdd(&shared.count.clipped, clipped);
    if (nan) atomicAdd(&shared.count.nan, nan);
    if (drawn) atomicAdd(&shared.count.drawn, drawn);
    if (occluded) atomicAdd(&shared.count.occluded, occluded);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    TriCounters& total = p.counters->tris[blockIdx.x % kTriCounterCopies];
    if (shared.count.culled) atomicAdd(&total.culled, shared.count.culled);
    if (shared.count.clipped) atomicAdd(&total.clipped, shared.count.clipped);
    if (shared.count.nan) atomicAdd(&total.nan, shared.count.nan);
    if (shared.count.drawn) atomicAdd(&total.drawn, shared.count.drawn);
    if (shared.count.occluded) atomicAdd(&total.occluded, shared.count.occluded);
  }
}

// A block per meshlet, bounded for a full SM of threads.
template <int kSamples, bool kCutouts, bool kSlotsInCorners>
__global__ void __launch_bounds__(kGeometryMeshletThreads, kGeometryThreadsPerSm / kGeometryMeshletThreads)
    geometry_per_meshlet_kernel(RasterStageParams p) {
  let_next_kernel_launch();  // the warp raster's blocks may take the SMs this grid leaves idle
  __shared__ GeometryShared s_block;
  if (threadIdx.x == 0) {
    s_block.count = TriCounters{};
    s_block.small_count[0] = 0;
  }
  const Meshlet meshlet = p.meshlets[blockIdx.x];
  // By the last thread: its warp projects the fewest vertices (a meshlet rarely uses all 128).
  const bool cull_here = threadIdx.x == kGeometryMeshletThreads - 1 && meshlet_culled<kSamples == 1>(p.cull, meshlet);
  TriCounters counts{};
  uint32_t small_parity = 0;
  // Its barrier orders the resets above before any use.
  geometry_meshlet<kGeometryMeshletThreads, kSamples, kCutouts, kSlotsInCorners>(p, s_block, work_of(meshlet),
                                                                                 cull_here, small_parity, counts);
  flush_counters(p, s_block, counts);
}

// Whether a claiming block draws meshlet `meshlet_index`. With occlusion culling (occlusion.h),
// pass 1 takes the meshlets the previous frame showed, pass 2 the rest, unless hidden behind what pass 1 drew;
// each meshlet is tested for culling (and counted) in exactly one pass.
template <bool kOcclusion, int kSamples>
__device__ __forceinline__ bool draw_meshlet(const RasterStageParams& p, uint32_t meshlet_index, Work& work,
                                             TriCounters& counts) {
  if (kOcclusion) {
    const bool seen = p.occlusion.seen[meshlet_index] == p.occlusion.previous_frame;
    if (seen != (p.occlusion.pass == 1)) return false;
  }
  const Meshlet meshlet = p.meshlets[meshlet_index];
  work = work_of(meshlet);
  if (meshlet_culled<kSamples == 1>(p.cull, meshlet)) {
    counts.culled += meshlet.triangle_count;
    return false;
  }
  if (kOcclusion && p.occlusion.pass == 2 &&
      sphere_occluded(p.occlusion.test, meshlet.center, meshlet.radius, [](const uint32_t* a) { return __ldg(a); })) {
    counts.occluded += meshlet.triangle_count;
    return false;
  }
  return true;
}

// One resident wave claiming chunks of meshlets: the first by block index, then from the frame's
// cursor (one per pass), until none are left. Bounded for a full SM of threads.
template <bool kOcclusion, int kSamples, bool kCutouts, bool kSlotsInCorners>
__global__ void __launch_bounds__(kGeometryClaimingThreads, kGeometryThreadsPerSm / kGeometryClaimingThreads)
    geometry_claiming_kernel(RasterStageParams p) {
  let_next_kernel_launch();
  // Pass 2 is launched while hiz_kernel drains: nothing below may read before it has finished.
  if (kOcclusion) wait_for_previous_kernel();
  __shared__ ClaimingShared s_block;
  if (threadIdx.x == 0) {
    s_block.count = TriCounters{};
    s_block.small_count[0] = s_block.small_count[1] = 0;
    s_block.work_count[0] = s_block.work_count[1] = 0;
  }
  __syncthreads();

  const unsigned all = 0xffffffffu;
  const uint32_t lane = threadIdx.x & 31;
  TriCounters counts{};
  uint32_t small_parity = 0, chunk_parity = 0;
  uint32_t* cursor = &p.counters->meshlet_cursor[kOcclusion && p.occlusion.pass == 2];
  const uint32_t claimed_base = gridDim.x * p.meshlet_chunk;  // where the cursor's chunks start
  for (uint32_t first = blockIdx.x * p.meshlet_chunk; first < p.meshlet_count;) {
    // The next chunk is claimed now; the atomic's latency hides behind the meshlet loads below.
    if (threadIdx.x == 0) s_block.chunk[chunk_parity ^ 1] = claimed_base + atomicAdd(cursor, p.meshlet_chunk);
    // Test one meshlet a thread; the ones to draw go to s_block.work, a warp at a time.
    const uint32_t meshlet_index = first + threadIdx.x;
    Work work{};
    const bool keep = threadIdx.x < p.meshlet_chunk && meshlet_index < p.meshlet_count &&
                      draw_meshlet<kOcclusion, kSamples>(p, meshlet_index, work, counts);
    const unsigned kept = __ballot_sync(all, keep);
    uint32_t base = 0;
    if (lane == 0 && kept) base = atomicAdd(&s_block.work_count[chunk_parity], (uint32_t)__popc(kept));
    base = __shfl_sync(all, base, 0);
    if (keep) s_block.work[chunk_parity][base + __popc(kept & ((1u << lane) - 1u))] = work;
    __syncthreads();
    const uint32_t work_count = s_block.work_count[chunk_parity];
    first = s_block.chunk[chunk_parity ^ 1];
    if (threadIdx.x == 0) s_block.work_count[chunk_parity ^ 1] = 0;  // its readers passed the barrier
    for (uint32_t k = 0; k < work_count; ++k)
      geometry_meshlet<kGeometryClaimingThreads, kSamples, kCutouts, kSlotsInCorners>(
          p, s_block, s_block.work[chunk_parity][k], false, small_parity, counts);
    chunk_parity ^= 1;
  }
  flush_counters(p, s_block, counts);
}

}  // namespace

int geometry_blocks_per_sm() {
  return resident_blocks_per_sm(geometry_claiming_kernel<false, 1, false, false>, kGeometryClaimingThreads);
}

void launch_geometry(const RasterStageParams& p, cudaStream_t stream, bool after_kernel) {
  if (p.meshlet_count == 0) return;
  auto launch = [&](auto in_corners) {
    constexpr bool kInCorners = decltype(in_corners)::value;
    launch_raster_variant(p, [&](auto samples, auto cutouts) {
      constexpr int kSamples = decltype(samples)::value;
      constexpr bool kCutouts = decltype(cutouts)::value;
      if (p.meshlet_claims && p.occlusion.enabled)
        launch_kernel(geometry_claiming_kernel<true, kSamples, kCutouts, kInCorners>, p.geometry_blocks,
                      kGeometryClaimingThreads, stream, after_kernel, p);
      else if (p.meshlet_claims)
        launch_kernel(geometry_claiming_kernel<false, kSamples, kCutouts, kInCorners>, p.geometry_blocks,
                      kGeometryClaimingThreads, stream, false, p);
      else
        launch_kernel(geometry_per_meshlet_kernel<kSamples, kCutouts, kInCorners>, p.meshlet_count,
                      kGeometryMeshletThreads, stream, false, p);
    });
  };
  if (p.slots_in_corners)
    launch(std::true_type{});
  else
    launch(std::false_type{});
}

}  // namespace facet
