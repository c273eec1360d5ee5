// Vertex projection: world -> clip space, one thread per vertex. The NumPy snippet's operation;
// bandwidth-bound (12 bytes in, 16 out per vertex).
#include "kernels/project.h"
#include "kernels/stages.h"

namespace facet {

__global__ void vertex_kernel(VertexStageParams p) {
  uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= p.count) return;
  p.clip[v] = project_vertex(p.view_proj, p.positions[v]);
}

void launch_vertex_stage(const VertexStageParams& p, cudaStream_t stream) {
  if (p.count == 0) return;
  const int block = 256;
  vertex_kernel<<<(p.count + block - 1) / block, block, 0, stream>>>(p);
}

}  // namespace facet
