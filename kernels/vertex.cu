// Vertex stage: world -> clip space -> snapped window position, one thread per vertex. The
// NumPy snippet's operation done properly; bandwidth-bound (12 bytes in, 16 out per vertex).
#include "kernels/stages.h"
#include "kernels/vertex.h"

namespace facet {

__global__ void __launch_bounds__(256) vertex_kernel(VertexStageParams p) {
  uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= p.count) return;
  const ClipPlanes planes = make_clip_planes(p.width, p.height);
  p.out[v] = project_and_snap(p.view_proj, p.positions[v], planes, p.width, p.height);
}

void launch_vertex_stage(const VertexStageParams& p, cudaStream_t stream) {
  if (p.count == 0) return;
  const int block = 256;
  vertex_kernel<<<(p.count + block - 1) / block, block, 0, stream>>>(p);
}

}  // namespace facet
