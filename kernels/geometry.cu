// Geometry: whole meshlets culled (cluster.h), vertices projected and snapped into shared memory,
// the triangle front end (clip, cull, snap, setup) from there, and the small survivors
// rasterized by the same block. Medium and large triangles are queued for raster.cu.
//
// Two shapes of the same work (plan_geometry_work picks, by scene size):
//  - up to a few meshlets per resident block: a block of 128 threads per meshlet, one vertex and
//    one triangle a thread. The hardware hands blocks out as others finish; one thread tests the
//    meshlet while the others project, and the verdict comes with the barrier they pass anyway.
//  - larger scenes: one resident wave of 64-thread blocks, two vertices and two triangles a
//    thread, that claim chunks of meshlets from a frame-wide cursor (dynamic, so that blocks
//    that drew cheap meshlets take more), test a chunk at once, one meshlet a thread, and work
//    through the survivors: the launch, bookkeeping and barriers of a meshlet are shared by
//    more triangles (NOTES.md, v7: 20 M triangles at 1080p 0.43 -> 0.27 ms).
#include <cooperative_groups.h>

#include <algorithm>

#include "kernels/cluster.h"
#include "kernels/dependent_launch.h"
#include "kernels/occlusion.h"
#include "kernels/occupancy.h"
#include "kernels/stages.h"
#include "kernels/triangle.h"
#include "kernels/vertex.h"
#include "kernels/vis_write.h"

namespace facet {

namespace cg = cooperative_groups;

namespace {

constexpr int kBlockPerMeshletThreads = kMeshletMaxTriangles;
constexpr int kClaimingThreads = kMeshletMaxTriangles / 2;

// The scene's meshlet arrays are read once a frame and stream through L2: loaded evict-first, so
// that they do not push out what the frame reuses (the visibility buffer that the raster atomics
// and resolve hit, resolve's vertex records). Measured (NOTES.md, v10): sphere 2 M at 1080p
// 0.0770 -> 0.0721 ms.
__device__ __forceinline__ uint32_t stream_load(const uint32_t* a) { return __ldcs(a); }
__device__ __forceinline__ Vec3 stream_load(const Vec3* a) { return {__ldcs(&a->x), __ldcs(&a->y), __ldcs(&a->z)}; }

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
  uint32_t small_count[2];  // by meshlet parity: a slow thread may still read the last count
                            //   while the next fills, without another barrier
  TriCounters count;        // the block's totals: one global atomic per field
};

// A claiming block's, besides: the meshlets it claimed.
struct ClaimingShared : GeometryShared {
  Work work[2][kClaimingThreads];  // surviving meshlets of a claimed chunk, by chunk parity
  uint32_t work_count[2];
  uint32_t chunk[2];               // first meshlet of the next claimed chunk, by chunk parity
};

// One meshlet, by the whole block. `cull_here`: the meshlet is culled (one thread's verdict in
// the block-per-meshlet shape, false otherwise); it arrives with the barrier after the projection.
template <int kThreads>
__device__ __forceinline__ void geometry_meshlet(const RasterStageParams& p, GeometryShared& s,
                                                 const Work& m, bool cull_here, uint32_t& small_parity,
                                                 TriCounters& c) {
  constexpr int kItems = kMeshletMaxTriangles / kThreads;  // vertices and triangles a thread
  static_assert(kItems * kThreads == kMeshletMaxTriangles && kMeshletMaxVertices <= kMeshletMaxTriangles,
                "whole items a thread");
  const uint32_t triangle_count = m.counts & 0xffffu, vertex_count = m.counts >> 16;
  const Vec3* positions = p.meshlet_positions + m.first_vertex;
  const ClipPlanes planes = p.planes;
  // Every load of the thread issued before any projection: the projection's branches kept the
  // compiler from hoisting a second position load above the first projection, so a thread with
  // two vertices waited on two load latencies a meshlet (NOTES.md, v8: -4 % at 20 M triangles).
  uint32_t packed[kItems], id[kItems];  // local indices and scene triangle, in flight during the projection
  Vec3 position[kItems];
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const uint32_t t = threadIdx.x + j * kThreads;
    packed[j] = t < triangle_count ? stream_load(p.meshlet_triangles + m.first_triangle + t) : 0u;
    id[j] = p.meshlet_triangle_ids && t < triangle_count ? stream_load(p.meshlet_triangle_ids + m.first_triangle + t)
                                                         : m.first_triangle + t;
  }
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const uint32_t v = threadIdx.x + j * kThreads;
    position[j] = v < vertex_count ? stream_load(positions + v) : Vec3{0.0f, 0.0f, 0.0f};
  }
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const uint32_t v = threadIdx.x + j * kThreads;
    if (v < vertex_count)
      s.vertex[v] = project_and_snap(p.frame.view_proj, position[j], planes, p.frame.width, p.frame.height);
  }
  const bool culled = __syncthreads_or(cull_here);
  if (threadIdx.x == 0) s.small_count[small_parity ^ 1] = 0;  // its readers passed the barrier
  if (culled) {
    if (threadIdx.x == 0) c.culled += triangle_count;  // once: every thread knows the verdict
    small_parity ^= 1;
    return;
  }

  // A dense mesh culls most triangles; the survivors are collected instead of rasterized on the
  // spot, where 2 busy lanes would hold up 30 idle ones.
  auto visit = [&](int px, int py, uint64_t key) { vis_min(p.vis, p.frame, px, py, key); };
  uint32_t* small_count = &s.small_count[small_parity];
  auto emit = [&](const RasterTri& t) {
    SizeClass size = size_class(t);
    if (size == SizeClass::Small) {
      uint32_t slot = atomicAdd(small_count, 1u);
      if (slot < kMeshletMaxTriangles) s.small[slot] = t;
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
#pragma unroll
  for (int j = 0; j < kItems; ++j) {
    const uint32_t t = threadIdx.x + j * kThreads;
    if (t >= triangle_count) break;
    TriangleInput in;
    in.i0 = local_index(packed[j], 0);
    in.i1 = local_index(packed[j], 1);
    in.i2 = local_index(packed[j], 2);
    in.v0 = s.vertex[in.i0];
    in.v1 = s.vertex[in.i1];
    in.v2 = s.vertex[in.i2];
    // Clipping (rare) recomputes clip coordinates from the meshlet's own copy of the positions.
    process_loaded_triangle(in, positions, id[j], p.frame, planes, c, emit);
  }
  __syncthreads();

  // All threads: rasterize the collected small triangles, one at a time each.
  const uint32_t n = min(*small_count, (uint32_t)kMeshletMaxTriangles);
  for (uint32_t j = threadIdx.x; j < n; j += kThreads) {
    const RasterTri& t = s.small[j];
    raster_rect(t, t.px0, t.py0, t.px1, t.py1, visit);
  }
  small_parity ^= 1;
}

// The block's counters into one of the frame's copies: warp sums first (32 threads adding to one
// shared word would serialize), then one global atomic per field.
__device__ __forceinline__ void flush_counters(const RasterStageParams& p, GeometryShared& s,
                                               const TriCounters& c) {
  const unsigned all = 0xffffffffu;
  uint32_t culled = __reduce_add_sync(all, c.culled), clipped = __reduce_add_sync(all, c.clipped);
  uint32_t nan = __reduce_add_sync(all, c.nan), drawn = __reduce_add_sync(all, c.drawn);
  uint32_t occluded = __reduce_add_sync(all, c.occluded);
  if ((threadIdx.x & 31) == 0) {
    if (culled) atomicAdd(&s.count.culled, culled);
    if (clipped) atomicAdd(&s.count.clipped, clipped);
    if (nan) atomicAdd(&s.count.nan, nan);
    if (drawn) atomicAdd(&s.count.drawn, drawn);
    if (occluded) atomicAdd(&s.count.occluded, occluded);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    TriCounters& total = p.counters->tris[blockIdx.x % kTriCounterCopies];
    if (s.count.culled) atomicAdd(&total.culled, s.count.culled);
    if (s.count.clipped) atomicAdd(&total.clipped, s.count.clipped);
    if (s.count.nan) atomicAdd(&total.nan, s.count.nan);
    if (s.count.drawn) atomicAdd(&total.drawn, s.count.drawn);
    if (s.count.occluded) atomicAdd(&total.occluded, s.count.occluded);
  }
}

// A block per meshlet. 64 registers: 1024 threads an SM.
__global__ void __launch_bounds__(kBlockPerMeshletThreads, 1024 / kBlockPerMeshletThreads)
    geometry_per_meshlet_kernel(RasterStageParams p) {
  let_next_kernel_launch();  // bin_kernel's blocks may take the SMs this grid leaves idle
  __shared__ GeometryShared s;
  if (threadIdx.x == 0) {
    s.count = TriCounters{};
    s.small_count[0] = 0;
  }
  const Meshlet m = p.meshlets[blockIdx.x];
  // By the last thread: its warp projects the fewest vertices (a meshlet rarely uses all 128).
  const bool cull_here = threadIdx.x == kBlockPerMeshletThreads - 1 && meshlet_culled(p.cull, m);
  TriCounters c{};
  uint32_t small_parity = 0;
  geometry_meshlet<kBlockPerMeshletThreads>(p, s, work_of(m), cull_here, small_parity, c);  // its barrier orders the resets
  flush_counters(p, s, c);
}

// Whether a claiming block draws meshlet `mi`. With occlusion culling (occlusion.h), pass 1 takes
// the meshlets the previous frame showed, pass 2 the rest, unless hidden behind what pass 1 drew;
// each meshlet is tested for culling (and counted) in exactly one pass.
template <bool kOcclusion>
__device__ __forceinline__ bool draw_meshlet(const RasterStageParams& p, uint32_t mi, Work& w, TriCounters& c) {
  if (kOcclusion) {
    const bool seen = p.occlusion.seen[mi] == p.occlusion.previous_frame;
    if (seen != (p.occlusion.pass == 1)) return false;
  }
  const Meshlet m = p.meshlets[mi];
  w = work_of(m);
  if (meshlet_culled(p.cull, m)) {
    c.culled += m.triangle_count;
    return false;
  }
  if (kOcclusion && p.occlusion.pass == 2 &&
      sphere_occluded(p.occlusion.test, m.center, m.radius, [](const uint32_t* a) { return __ldg(a); })) {
    c.occluded += m.triangle_count;
    return false;
  }
  return true;
}

// One resident wave claiming chunks of meshlets: the first by block index, then from the frame's
// cursor (one per pass), until none are left. 64 registers: 1024 threads an SM.
template <bool kOcclusion>
__global__ void __launch_bounds__(kClaimingThreads, 1024 / kClaimingThreads)
    geometry_claiming_kernel(RasterStageParams p) {
  let_next_kernel_launch();
  // Pass 2 is launched while hiz_kernel drains: nothing below may read before it has finished.
  if (kOcclusion) wait_for_previous_kernel();
  __shared__ ClaimingShared s;
  if (threadIdx.x == 0) {
    s.count = TriCounters{};
    s.small_count[0] = s.small_count[1] = 0;
    s.work_count[0] = s.work_count[1] = 0;
  }
  __syncthreads();

  const unsigned all = 0xffffffffu;
  const uint32_t lane = threadIdx.x & 31;
  TriCounters c{};
  uint32_t small_parity = 0, chunk_parity = 0;
  uint32_t* cursor = &p.counters->meshlet_cursor[kOcclusion && p.occlusion.pass == 2];
  const uint32_t claimed_base = gridDim.x * p.meshlet_chunk;  // where the cursor's chunks start
  for (uint32_t first = blockIdx.x * p.meshlet_chunk; first < p.meshlet_count;) {
    // The next chunk is claimed now; the atomic's latency hides behind the meshlet loads below.
    if (threadIdx.x == 0) s.chunk[chunk_parity ^ 1] = claimed_base + atomicAdd(cursor, p.meshlet_chunk);
    // Test one meshlet a thread; the ones to draw go to s.work, a warp at a time.
    const uint32_t mi = first + threadIdx.x;
    Work w{};
    const bool keep = threadIdx.x < p.meshlet_chunk && mi < p.meshlet_count && draw_meshlet<kOcclusion>(p, mi, w, c);
    const unsigned kept = __ballot_sync(all, keep);
    uint32_t base = 0;
    if (lane == 0 && kept) base = atomicAdd(&s.work_count[chunk_parity], (uint32_t)__popc(kept));
    base = __shfl_sync(all, base, 0);
    if (keep) s.work[chunk_parity][base + __popc(kept & ((1u << lane) - 1u))] = w;
    __syncthreads();
    const uint32_t work_count = s.work_count[chunk_parity];
    first = s.chunk[chunk_parity ^ 1];
    if (threadIdx.x == 0) s.work_count[chunk_parity ^ 1] = 0;  // its readers passed the barrier
    for (uint32_t k = 0; k < work_count; ++k)
      geometry_meshlet<kClaimingThreads>(p, s, s.work[chunk_parity][k], false, small_parity, c);
    chunk_parity ^= 1;
  }
  flush_counters(p, s, c);
}

}  // namespace

int geometry_blocks_per_sm() { return resident_blocks_per_sm(geometry_claiming_kernel<false>, kClaimingThreads); }

void plan_geometry_work(RasterStageParams& p, uint32_t resident, bool force_claims, OcclusionMode occlusion) {
  // Up to 8 meshlets a resident claiming block (about 2 M triangles on an H200): a block a
  // meshlet measured best there (the claiming blocks' longer chains of barriers cost more than
  // launches; NOTES.md, v7), unless the triangles outnumber half the frame's pixels: then most
  // cover no pixel centre, little is rasterized per meshlet, and the claiming blocks' cheaper
  // bookkeeping wins (NOTES.md, v9: 2 M triangles at 1080p 0.0855 -> 0.0827 ms; at 4K, a
  // quarter as dense, claims lost 0.162 -> 0.190). Beyond that, chunks of about an eighth of a
  // block's share: fine enough to even out, few enough that the cursor is not a queue.
  const uint64_t pixels = (uint64_t)p.frame.width * (uint64_t)p.frame.height;
  const bool dense = p.meshlet_count > resident && (uint64_t)p.meshlet_count * kMeshletMaxTriangles >= pixels / 2;
  // Occlusion culling where the frame is dense and has 16 meshlets or more a resident block: a
  // closed mesh hides about half of itself, and most of its triangles cover no pixel centre, so
  // pass 2 skips far more than the tile bounds and two more launches cost (NOTES.md, v10: the
  // 20 M sphere at 1080p 0.280 -> 0.240 ms). The 2 M sphere at 1080p, dense with 7.5 meshlets a
  // block, lost (0.072 -> 0.096 with claiming blocks, 0.095 with a block per meshlet): its one
  // pass is bound by instruction issue, each of the two passes by latency (NOTES.md, v11: pass 1
  // issued on 31 % of cycles, the single pass on 60-75 %). The passes are launches of the
  // claiming kernel. Not where back faces are culled: the normal cones already drop the hidden
  // half, and the passes lost (NOTES.md, v11: the 20 M sphere's geometry at 1080p 0.114 ms
  // without them, 0.148 with).
  p.occlusion.enabled = p.occlusion.seen && p.meshlet_count > 0 &&
                        (occlusion == OcclusionMode::Always ||
                         (occlusion == OcclusionMode::Auto && dense && !p.frame.cull_backfaces &&
                          p.meshlet_count >= 16ull * resident));
  if (p.occlusion.enabled) force_claims = true;
  if (p.meshlet_count <= 8ull * resident && !dense && !force_claims) {
    p.geometry_blocks = p.meshlet_count;
    p.meshlet_chunk = 1;
    p.meshlet_claims = false;
  } else {
    p.geometry_blocks = std::max(1u, std::min(resident, p.meshlet_count));
    p.meshlet_chunk = (uint32_t)std::min<uint64_t>(std::max<uint64_t>(p.meshlet_count / (8ull * resident), 1), kClaimingThreads);
    p.meshlet_claims = true;
  }
}

void launch_geometry(const RasterStageParams& p, cudaStream_t stream, bool after_kernel) {
  if (p.meshlet_count == 0) return;
  if (p.meshlet_claims && p.occlusion.enabled)
    launch_kernel(geometry_claiming_kernel<true>, p.geometry_blocks, kClaimingThreads, stream, after_kernel, p);
  else if (p.meshlet_claims)
    geometry_claiming_kernel<false><<<p.geometry_blocks, kClaimingThreads, 0, stream>>>(p);
  else
    geometry_per_meshlet_kernel<<<p.meshlet_count, kBlockPerMeshletThreads, 0, stream>>>(p);
}

}  // namespace facet
