// The CUDA launcher of the ground-grid pass (ground_grid.cu), for host code built without nvcc.
#pragma once
#include <cuda_runtime.h>

#include "kernels/frame/effects/ground_grid.h"

namespace facet {

// Blends the grid over the frame after resolve, in stream order: into `out` (width * height,
// row 0 = top) or, when out is null, into the RGBA8 surface object `surface`.
void launch_ground_grid(const GridParams& g, const uint64_t* vis, Rgba8* out, unsigned long long surface,
                        cudaStream_t stream);

}  // namespace facet
