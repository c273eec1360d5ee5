// The bench's vertex projection alone (`facet bench`'s vertex figure): world -> clip space ->
// snapped window position, one thread per vertex. Not a stage of the frame, whose vertices are
// projected per meshlet inside the geometry kernel. Bandwidth-bound: 12 bytes in, 16 out a vertex.
#include "kernels/base/launch.h"
#include "kernels/frame/geometry/vertex.h"
#include "kernels/frame/stages.h"
#include "kernels/frame/tuning.h"

namespace facet {

namespace {

__global__ void __launch_bounds__(kProjectPointsThreads) project_points_kernel(ProjectPointsParams p) {
  const uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= p.count) return;
  const ClipPlanes planes = make_clip_planes(p.width, p.height);
  p.out[v] = project_and_snap(p.view_proj, p.positions[v], planes, p.width, p.height);
}

}  // namespace

void launch_project_points(const ProjectPointsParams& p, cudaStream_t stream) {
  if (p.count == 0) return;
  const uint32_t blocks = (p.count + kProjectPointsThreads - 1) / kProjectPointsThreads;
  launch_kernel(project_points_kernel, blocks, kProjectPointsThreads, stream, false, p);
}

}  // namespace facet
