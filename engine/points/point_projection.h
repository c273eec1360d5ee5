// facet.project's engine side: the seed's point projection (kernels/points/point_projection.h) over
// host arrays on every core, or over device arrays by the CUDA kernel. No array checking here:
// callers (the Python module) check dtype, shape and contiguity before they build the params.
#pragma once
#include "kernels/points/point_projection.h"

namespace facet {

// Every pointer in p is host memory. Runs on all cores; returns when done.
void project_points_host(const PointProjectionParams& p);

// Every pointer in p is memory of the current CUDA device. Launches on the legacy default
// stream (which orders itself with PyTorch's and CuPy's default streams) and returns without
// waiting. Throws when facet was built without CUDA, when a pointer is not device memory or
// belongs to another device (naming both devices), or when the launch fails.
void project_points_device(const PointProjectionParams& p);

}  // namespace facet
