// The meshlet layout of the scene's shading (meshlet_shading_launch.h): a block a meshlet, a
// thread a slot.
#include <cuda_runtime.h>

#include "kernels/base/launch.h"
#include "kernels/frame/tuning.h"
#include "kernels/prepare/meshlet_shading_launch.h"

namespace facet {

namespace {

constexpr unsigned kMaxBlocks = kMeshletShadingMaxBlocks;

__global__ void __launch_bounds__(kMeshletMaxTriangles) meshlet_shading(MeshletShadingArrays a) {
  for (uint32_t i = blockIdx.x; i < a.meshlet_count; i += gridDim.x) {
    const Meshlet m = a.meshlets[i];
    if (threadIdx.x < m.triangle_count) gather_meshlet_slot(a, m, threadIdx.x);
  }
}

}  // namespace

void launch_meshlet_shading(const MeshletShadingArrays& a, cudaStream_t stream) {
  if (a.meshlet_count == 0) return;
  const unsigned blocks = a.meshlet_count < kMaxBlocks ? a.meshlet_count : kMaxBlocks;
  launch_kernel(meshlet_shading, blocks, kMeshletMaxTriangles, stream, false, a);
}

}  // namespace facet
