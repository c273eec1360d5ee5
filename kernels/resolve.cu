// Resolve: one thread per pixel shades the visible triangle once (deferred shading from the
// visibility buffer) and resets the buffer for the next frame in the same pass.
#include "kernels/shade.h"
#include "kernels/stages.h"

namespace facet {

__global__ void __launch_bounds__(256) resolve_kernel(ResolveStageParams p) {
  int x = blockIdx.x * 16 + threadIdx.x % 16;
  int y = blockIdx.y * 16 + threadIdx.x / 16;
  if (x >= p.frame.width || y >= p.frame.height) return;
  size_t i = (size_t)y * p.frame.width + x;
  uint64_t key = p.vis[i];
  if (p.clear_vis) p.vis[i] = kEmptyKey;
  Rgba8 c = shade_pixel(p.scene, p.clip, p.frame, x, y, key);
  if (p.out) {
    p.out[i] = c;
  } else {
    surf2Dwrite(make_uchar4(c.r, c.g, c.b, c.a), (cudaSurfaceObject_t)p.surface, x * 4, y);
  }
}

void launch_resolve_stage(const ResolveStageParams& p, cudaStream_t stream) {
  dim3 grid((p.frame.width + 15) / 16, (p.frame.height + 15) / 16);
  resolve_kernel<<<grid, 256, 0, stream>>>(p);
}

}  // namespace facet
