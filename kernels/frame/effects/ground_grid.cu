// The ground-grid pass (ground_grid.h): one thread a pixel, read-modify-write of the resolved
// frame. Runs only on frames that ask for the grid, after resolve.
#include "kernels/base/launch.h"
#include "kernels/frame/effects/ground_grid_launch.h"
#include "kernels/frame/tuning.h"

namespace facet {

namespace {

constexpr int kBlockX = kPixelPassBlockX, kBlockY = kPixelPassBlockY;

__global__ void ground_grid_kernel(GridParams g, const uint64_t* vis, Rgba8* out, unsigned long long surface) {
  const int x = blockIdx.x * kBlockX + threadIdx.x;
  const int y = blockIdx.y * kBlockY + threadIdx.y;
  if (x >= g.width || y >= g.height) return;
  const size_t i = (size_t)y * g.width + x;
  Rgba8 c;
  if (out) {
    c = out[i];
  } else {
    const uchar4 s = surf2Dread<uchar4>((cudaSurfaceObject_t)surface, x * 4, y);
    c = {s.x, s.y, s.z, s.w};
  }
  const Rgba8 d = ground_grid_pixel(g, x, y, nearest_pixel_key(vis, (size_t)g.width * g.height, i, g.samples), c);
  if (out)
    out[i] = d;
  else
    surf2Dwrite(make_uchar4(d.r, d.g, d.b, d.a), (cudaSurfaceObject_t)surface, x * 4, y);
}

}  // namespace

void launch_ground_grid(const GridParams& g, const uint64_t* vis, Rgba8* out, unsigned long long surface,
                        cudaStream_t stream) {
  const dim3 block(kBlockX, kBlockY);
  const dim3 grid((g.width + kBlockX - 1) / kBlockX, (g.height + kBlockY - 1) / kBlockY);
  launch_kernel(ground_grid_kernel, grid, block, stream, false, g, vis, out, surface);
}

}  // namespace facet
