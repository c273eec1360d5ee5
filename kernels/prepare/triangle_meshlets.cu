// Each scene triangle's meshlet (triangle_meshlets_launch.h): a block a meshlet, a thread a slot.
#include <cuda_runtime.h>

#include "kernels/base/launch.h"
#include "kernels/frame/tuning.h"
#include "kernels/prepare/triangle_meshlets_launch.h"

namespace facet {

namespace {

constexpr unsigned kMaxBlocks = kTriangleMeshletsMaxBlocks;

__global__ void __launch_bounds__(kMeshletMaxTriangles)
    triangle_meshlets(const Meshlet* meshlets, uint32_t count, const uint32_t* ids, uint32_t* out) {
  for (uint32_t i = blockIdx.x; i < count; i += gridDim.x) {
    const uint32_t first = meshlets[i].first_triangle, n = meshlets[i].triangle_count;
    if (threadIdx.x < n) {
      const uint32_t slot = first + threadIdx.x;
      out[ids ? ids[slot] : slot] = i;
    }
  }
}

}  // namespace

void launch_triangle_meshlets(const Meshlet* meshlets, uint32_t count, const uint32_t* triangle_ids, uint32_t* out,
                              cudaStream_t stream) {
  if (count == 0) return;
  const unsigned blocks = count < kMaxBlocks ? count : kMaxBlocks;
  launch_kernel(triangle_meshlets, blocks, kMeshletMaxTriangles, stream, false, meshlets, count, triangle_ids, out);
}

}  // namespace facet
