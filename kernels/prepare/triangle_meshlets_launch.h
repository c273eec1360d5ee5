// The launcher of the kernel that writes each scene triangle's meshlet on the device
// (triangle_meshlets.cu), from the meshlet arrays already there: no host pass over the triangles
// and no 4 bytes a triangle over the bus (tests/support/triangle_meshlets.h is the host reference
// the tests compare it with).
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/frame/params.h"

namespace facet {

// out[triangle_ids[slot]] (or out[slot] where triangle_ids is null: slot i holds triangle i) =
// the meshlet holding the slot, for every slot of the `count` meshlets; device pointers.
void launch_triangle_meshlets(const Meshlet* meshlets, uint32_t count, const uint32_t* triangle_ids, uint32_t* out,
                              cudaStream_t stream);

}  // namespace facet
