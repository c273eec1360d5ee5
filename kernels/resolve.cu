// Resolve: one thread per pixel shades the visible triangle once (deferred shading from the
// visibility buffer).
#include "kernels/shade.h"
#include "kernels/stages.h"

namespace facet {

// One block of 256 threads per 256 consecutive pixels of a row: streaming rows is what the
// memory system likes (16x16 tiles measured 1.6x slower on the same pass, NOTES.md).
__global__ void __launch_bounds__(256, 4) resolve_kernel(ResolveStageParams p) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  if (x >= p.frame.width) return;
  size_t i = (size_t)y * p.frame.width + x;
  Rgba8 c = shade_pixel(p.scene, p.frame, x, y, p.vis[i]);
  if (p.out) {
    p.out[i] = c;
  } else {
    surf2Dwrite(make_uchar4(c.r, c.g, c.b, c.a), (cudaSurfaceObject_t)p.surface, x * 4, y);
  }
}

void launch_resolve_stage(const ResolveStageParams& p, cudaStream_t stream) {
  dim3 grid((p.frame.width + 255) / 256, p.frame.height);
  resolve_kernel<<<grid, 256, 0, stream>>>(p);
}

}  // namespace facet
