// The closed-surface check's CUDA kernels (closed_check_launch.h): the same steps as the CPU's
// (engine/scene/closed_surface.cpp) with the same per-element math (closed_math.h), so that the answer
// is the same bit for bit: a weld by an atomic minimum in one open-addressing table (the smallest
// index of each position, whatever order the threads ran in), the edge balance summed modulo
// 2^64 (any order), a union-find whose roots are each piece's smallest vertex (any order), and
// the volume runs summed one block of triangles a thread, in triangle order as the CPU does.
#include <cuda_runtime.h>

#include "kernels/base/cuda_check.h"
#include "kernels/base/launch.h"
#include "kernels/frame/tuning.h"
#include "kernels/prepare/closed_check_launch.h"
#include "kernels/prepare/closed_math.h"

namespace facet {

namespace {

constexpr int kThreads = kClosedCheckThreads;
constexpr uint32_t kEmpty = 0xffffffffu;  // a free slot of the weld's table

unsigned blocks_for(uint64_t n) { return (unsigned)((n + kThreads - 1) / kThreads); }

// Vertex v of this thread (64-bit arithmetic: a grid of 2^32 threads would wrap 32 bits).
__device__ bool vertex_of_thread(const ClosedCheckArrays& a, uint32_t& v) {
  const uint64_t i = (uint64_t)blockIdx.x * kThreads + threadIdx.x;
  v = (uint32_t)i;
  return i < a.vertex_count;
}

__global__ void __launch_bounds__(kThreads) weld_insert(ClosedCheckArrays a) {
  uint32_t v;
  if (!vertex_of_thread(a, v)) return;
  const Vec3 p = a.vertices[v].p;
  uint32_t key[3];
  if (!weld_key(p, key)) {
    a.parent[v] = kNonFiniteVertex;
    return;
  }
  for (uint32_t h = (uint32_t)weld_hash(key) & a.table_mask;; h = (h + 1) & a.table_mask) {
    const uint32_t held = atomicCAS(&a.table[h], kEmpty, v);
    if (held == kEmpty) return;
    if (same_weld_position(a.vertices[held].p, p)) {  // all that reach this slot share the position
      atomicMin(&a.table[h], v);
      return;
    }
  }
}

// After every insert: the slot of v's position holds its smallest vertex.
__global__ void __launch_bounds__(kThreads) weld_lookup(ClosedCheckArrays a) {
  uint32_t v;
  if (!vertex_of_thread(a, v)) return;
  const Vec3 p = a.vertices[v].p;
  uint32_t key[3];
  if (!weld_key(p, key)) return;
  for (uint32_t h = (uint32_t)weld_hash(key) & a.table_mask;; h = (h + 1) & a.table_mask) {
    const uint32_t held = a.table[h];
    if (same_weld_position(a.vertices[held].p, p)) {
      a.parent[v] = held;
      return;
    }
  }
}

__device__ unsigned long long warp_sum(unsigned long long x) {
  for (int offset = 16; offset > 0; offset /= 2) x += __shfl_down_sync(0xffffffffu, x, offset);
  return x;
}

__global__ void __launch_bounds__(kThreads) edge_balance(ClosedCheckArrays a) {
  uint64_t sum[2] = {0, 0};
  bool bad = false;
  for (uint64_t t = (uint64_t)blockIdx.x * kThreads + threadIdx.x; t < a.triangle_count;
       t += (uint64_t)gridDim.x * kThreads) {
    uint32_t w[3];
    for (int k = 0; k < 3; ++k) {
      const uint32_t v = a.indices[3 * t + k];
      w[k] = v < a.vertex_count ? a.parent[v] : kNonFiniteVertex;
    }
    if (w[0] == kNonFiniteVertex || w[1] == kNonFiniteVertex || w[2] == kNonFiniteVertex) {
      bad = true;
      continue;
    }
    add_edge_balance(w[0], w[1], w[2], sum);
  }
  __shared__ unsigned long long partial[2][kThreads / 32];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int k = 0; k < 2; ++k) {
    const unsigned long long s = warp_sum(sum[k]);
    if (lane == 0) partial[k][warp] = s;
  }
  if (__syncthreads_or(bad) && threadIdx.x == 0) atomicOr(&a.balance[2], 1ull);
  if (threadIdx.x < 2) {
    unsigned long long s = 0;
    for (int w = 0; w < kThreads / 32; ++w) s += partial[threadIdx.x][w];
    atomicAdd(&a.balance[threadIdx.x], s);
  }
}

// The root of v's piece, pointing the vertices on the way at their grandparents (only ever an
// ancestor: every parent stays smaller than its child). Loads through L2, where the other
// threads' links land.
__device__ uint32_t find_root(uint32_t* parent, uint32_t v) {
  uint32_t p = __ldcg(&parent[v]);
  while (p != v) {
    const uint32_t g = __ldcg(&parent[p]);
    if (g != p) __stcg(&parent[v], g);
    v = p;
    p = g;
  }
  return v;
}

// Joins the pieces of a and b: the larger root is hooked under the smaller, by compare-and-swap
// on the root's own entry, retried from wherever a lost race left it.
__device__ void join(uint32_t* parent, uint32_t a, uint32_t b) {
  for (;;) {
    a = find_root(parent, a);
    b = find_root(parent, b);
    if (a == b) return;
    if (a < b) {
      const uint32_t t = a;
      a = b;
      b = t;
    }
    if (atomicCAS(&parent[a], a, b) == a) return;
  }
}

__global__ void __launch_bounds__(kThreads) link_pieces(ClosedCheckArrays a) {
  const uint64_t t = (uint64_t)blockIdx.x * kThreads + threadIdx.x;
  if (t >= a.triangle_count) return;
  const uint32_t v0 = a.indices[3 * t], v1 = a.indices[3 * t + 1], v2 = a.indices[3 * t + 2];
  join(a.parent, v0, v1);
  join(a.parent, v0, v2);
}

// Every vertex pointed at its root. The walk up writes nothing: a halving thread that read v's
// entry before another thread stored the root there would store a mere ancestor over it.
__global__ void __launch_bounds__(kThreads) flatten_pieces(ClosedCheckArrays a) {
  uint32_t v;
  if (!vertex_of_thread(a, v) || __ldcg(&a.parent[v]) == kNonFiniteVertex) return;
  uint32_t root = v, up = __ldcg(&a.parent[v]);
  while (up != root) {
    root = up;
    up = __ldcg(&a.parent[root]);
  }
  __stcg(&a.parent[v], root);
}

__global__ void __launch_bounds__(kThreads) triangle_volumes(ClosedCheckArrays a, double cx, double cy, double cz) {
  const uint64_t t = (uint64_t)blockIdx.x * kThreads + threadIdx.x;
  if (t >= a.triangle_count) return;
  const double o[3] = {cx, cy, cz};
  const uint32_t v0 = a.indices[3 * t], v1 = a.indices[3 * t + 1], v2 = a.indices[3 * t + 2];
  a.piece[t] = a.parent[v0];
  a.volume[t] = tetra_volume6(a.vertices[v0].p, a.vertices[v1].p, a.vertices[v2].p, o);
}

__device__ uint64_t block_end(const ClosedCheckArrays& a, uint64_t first) {
  return a.triangle_count - first < kClosedVolumeBlock ? a.triangle_count : first + kClosedVolumeBlock;
}

// A thread a block of triangles, walking it in order.
__global__ void __launch_bounds__(kThreads) count_runs(ClosedCheckArrays a, uint32_t* counts, uint64_t blocks) {
  const uint64_t b = (uint64_t)blockIdx.x * kThreads + threadIdx.x;
  if (b >= blocks) return;
  const uint64_t first = b * kClosedVolumeBlock;
  const uint64_t end = block_end(a, first);
  uint32_t runs = 1, last = a.piece[first];
  for (uint64_t t = first + 1; t < end; ++t) {
    const uint32_t p = a.piece[t];
    runs += p != last;
    last = p;
  }
  counts[b] = runs;
}

__global__ void __launch_bounds__(kThreads)
    sum_runs(ClosedCheckArrays a, const uint64_t* first_run, uint32_t* run_piece, double* run_volume, uint64_t blocks) {
  const uint64_t b = (uint64_t)blockIdx.x * kThreads + threadIdx.x;
  if (b >= blocks) return;
  const uint64_t first = b * kClosedVolumeBlock;
  const uint64_t end = block_end(a, first);
  uint64_t run = first_run[b];
  uint32_t piece = a.piece[first];
  double sum = 0.0;
  for (uint64_t t = first; t < end; ++t) {
    const uint32_t p = a.piece[t];
    if (p != piece) {
      run_piece[run] = piece;
      run_volume[run++] = sum;
      piece = p;
      sum = 0.0;
    }
    sum = add_rn(sum, a.volume[t]);
  }
  run_piece[run] = piece;
  run_volume[run] = sum;
}

uint64_t volume_blocks(const ClosedCheckArrays& a) {
  return (a.triangle_count + kClosedVolumeBlock - 1) / kClosedVolumeBlock;
}

}  // namespace

void launch_weld(const ClosedCheckArrays& a, cudaStream_t stream) {
  FACET_CUDA_CHECK(cudaMemsetAsync(a.table, 0xff, ((uint64_t)a.table_mask + 1) * sizeof(uint32_t), stream));
  if (a.vertex_count == 0) return;
  launch_kernel(weld_insert, blocks_for(a.vertex_count), kThreads, stream, false, a);
  launch_kernel(weld_lookup, blocks_for(a.vertex_count), kThreads, stream, false, a);
}

void launch_edge_balance(const ClosedCheckArrays& a, cudaStream_t stream) {
  if (a.triangle_count == 0) return;
  const unsigned needed = blocks_for(a.triangle_count);
  const unsigned blocks = needed < (unsigned)kClosedBalanceBlocks ? needed : (unsigned)kClosedBalanceBlocks;
  launch_kernel(edge_balance, blocks, kThreads, stream, false, a);
}

void launch_link_pieces(const ClosedCheckArrays& a, cudaStream_t stream) {
  if (a.triangle_count == 0 || a.vertex_count == 0) return;
  launch_kernel(link_pieces, blocks_for(a.triangle_count), kThreads, stream, false, a);
  launch_kernel(flatten_pieces, blocks_for(a.vertex_count), kThreads, stream, false, a);
}

void launch_triangle_volumes(const ClosedCheckArrays& a, double cx, double cy, double cz, cudaStream_t stream) {
  if (a.triangle_count == 0) return;
  launch_kernel(triangle_volumes, blocks_for(a.triangle_count), kThreads, stream, false, a, cx, cy, cz);
}

void launch_count_runs(const ClosedCheckArrays& a, uint32_t* counts, cudaStream_t stream) {
  const uint64_t blocks = volume_blocks(a);
  if (blocks == 0) return;
  launch_kernel(count_runs, blocks_for(blocks), kThreads, stream, false, a, counts, blocks);
}

void launch_sum_runs(const ClosedCheckArrays& a, const uint64_t* first, uint32_t* run_piece, double* run_volume,
                     cudaStream_t stream) {
  const uint64_t blocks = volume_blocks(a);
  if (blocks == 0) return;
  launch_kernel(sum_runs, blocks_for(blocks), kThreads, stream, false, a, first, run_piece, run_volume, blocks);
}

}  // namespace facet
