// facet.project on the device: checks where the arrays live, then launches the kernel
// (kernels/points/point_projection.cu) on the legacy default stream.
#include <cuda_runtime.h>

#include "engine/cuda/device_pointer.h"
#include "engine/points/point_projection.h"
#include "kernels/base/cuda_check.h"
#include "kernels/points/point_projection_launch.h"

namespace facet {

void project_points_device(const PointProjectionParams& p) {
  if (p.count == 0) return;
  check_device_pointer(p.points, "points");
  check_device_pointer(p.xy, "out xy");
  check_device_pointer(p.depth, "out depth");
  check_device_pointer(p.valid, "out valid");
  launch_point_projection(p, cudaStreamLegacy);
  FACET_CUDA_CHECK(cudaGetLastError());
}

}  // namespace facet
