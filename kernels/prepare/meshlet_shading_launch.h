// The launcher of the kernel that builds the meshlet layout of the scene's shading on the device
// at upload (meshlet_shading.cu), from the meshlet arrays and the scene's vertex records already
// there: no host pass over the triangles and nothing more over the bus
// (tests/support/meshlet_shading.h is the host reference the tests compare it with).
#pragma once
#include <cuda_runtime.h>

#include "kernels/prepare/meshlet_shading.h"

namespace facet {

// gather_meshlet_slot for every slot of every meshlet; device pointers.
void launch_meshlet_shading(const MeshletShadingArrays& a, cudaStream_t stream);

}  // namespace facet
