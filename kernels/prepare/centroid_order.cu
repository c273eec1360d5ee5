// The Morton sort of triangles on the device (centroid_order_launch.h): a kernel writes each
// triangle's code and index, then CUB's radix sort, stable, orders them by the code's 30 bits, so
// that equal codes keep the order of their indices, as in the CPU's sort.
#include <cub/device/device_radix_sort.cuh>

#include "kernels/base/cuda_check.h"
#include "kernels/base/launch.h"
#include "kernels/frame/tuning.h"
#include "kernels/prepare/centroid_order_launch.h"

namespace facet {

namespace {

__global__ void __launch_bounds__(kCentroidCodeThreads) centroid_codes(CentroidOrderArrays a, CodeGrid grid) {
  const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
  for (uint64_t t = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; t < a.triangle_count; t += stride) {
    const uint32_t i0 = a.indices[3 * t], i1 = a.indices[3 * t + 1], i2 = a.indices[3 * t + 2];
    // The load refuses such indices before its meshlets are used; no read past the array here.
    const bool valid = i0 < a.vertex_count && i1 < a.vertex_count && i2 < a.vertex_count;
    a.codes[0][t] = valid ? centroid_code(a.vertices[i0].p, a.vertices[i1].p, a.vertices[i2].p, grid) : 0u;
    a.order[0][t] = (uint32_t)t;
  }
}

// Each thread's least and greatest finite coordinates, then the warp's, then one atomic a warp.
__global__ void __launch_bounds__(kCentroidCodeThreads)
    finite_box(const ShadeVertex* vertices, uint32_t count, uint32_t* box) {
  uint32_t least[3] = {~0u, ~0u, ~0u}, most[3] = {0u, 0u, 0u};
  const uint32_t stride = gridDim.x * blockDim.x;
  for (uint32_t v = blockIdx.x * blockDim.x + threadIdx.x; v < count; v += stride) {
    const Vec3 p = vertices[v].p;
    if (!isfinite(p.x) || !isfinite(p.y) || !isfinite(p.z)) continue;
    const uint32_t b[3] = {ordered_bits(p.x), ordered_bits(p.y), ordered_bits(p.z)};
    for (int a = 0; a < 3; ++a) {
      least[a] = min(least[a], b[a]);
      most[a] = max(most[a], b[a]);
    }
  }
  for (int a = 0; a < 3; ++a) {
    least[a] = __reduce_min_sync(0xffffffffu, least[a]);
    most[a] = __reduce_max_sync(0xffffffffu, most[a]);
  }
  if ((threadIdx.x & 31) == 0 && least[0] != ~0u)
    for (int a = 0; a < 3; ++a) {
      atomicMin(box + a, least[a]);
      atomicMax(box + 3 + a, most[a]);
    }
}

}  // namespace

void launch_finite_box(const ShadeVertex* vertices, uint32_t vertex_count, uint32_t* box, cudaStream_t stream) {
  if (vertex_count == 0) return;
  const uint64_t blocks = ((uint64_t)vertex_count + kCentroidCodeThreads - 1) / kCentroidCodeThreads;
  launch_kernel(finite_box, (unsigned)(blocks < kCentroidCodeMaxBlocks ? blocks : kCentroidCodeMaxBlocks),
                kCentroidCodeThreads, stream, false, vertices, vertex_count, box);
}

size_t centroid_order_scratch_bytes(uint32_t triangle_count) {
  size_t bytes = 0;
  cub::DoubleBuffer<uint32_t> keys(nullptr, nullptr), values(nullptr, nullptr);
  FACET_CUDA_CHECK(
      cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, values, (int)triangle_count, 0, 3 * kCodeAxisBits));
  return bytes;
}

int launch_centroid_order(const CentroidOrderArrays& a, const CodeGrid& grid, cudaStream_t stream) {
  if (a.triangle_count == 0) return 0;
  const uint64_t blocks = (a.triangle_count + kCentroidCodeThreads - 1) / kCentroidCodeThreads;
  launch_kernel(centroid_codes, (unsigned)(blocks < kCentroidCodeMaxBlocks ? blocks : kCentroidCodeMaxBlocks),
                kCentroidCodeThreads, stream, false, a, grid);
  cub::DoubleBuffer<uint32_t> keys(a.codes[0], a.codes[1]), values(a.order[0], a.order[1]);
  size_t bytes = a.scratch_bytes;
  FACET_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(a.scratch, bytes, keys, values, (int)a.triangle_count, 0,
                                                   3 * kCodeAxisBits, stream));
  return values.selector;
}

}  // namespace facet
