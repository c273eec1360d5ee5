// The launcher of facet.project's CUDA kernel (point_projection.cu), for engine code.
#pragma once
#include <cuda_runtime.h>

#include "kernels/points/point_projection.h"

namespace facet {

// Projects p.count points on `stream`; every pointer in p is device memory. Does not synchronize.
void launch_point_projection(const PointProjectionParams& p, cudaStream_t stream);

}  // namespace facet
