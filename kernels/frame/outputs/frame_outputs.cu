// Depth, triangle id and barycentrics of every pixel from the visibility buffer, one thread a
// pixel (kernels/frame/outputs/frame_outputs.h holds the math, shared with the CPU backend).
#include "kernels/base/launch.h"
#include "kernels/frame/outputs/frame_outputs_launch.h"
#include "kernels/frame/tuning.h"

namespace facet {

namespace {
constexpr int kTileX = kPixelPassBlockX, kTileY = kFrameOutputsBlockY;
}  // namespace

__global__ void __launch_bounds__(kTileX* kTileY) frame_outputs_kernel(FrameOutputParams p) {
  const int px = blockIdx.x * kTileX + threadIdx.x;
  const int py = blockIdx.y * kTileY + threadIdx.y;
  if (px >= p.frame.width || py >= p.frame.height) return;
  write_pixel_outputs(p, px, py);
}

void launch_frame_outputs(const FrameOutputParams& p, cudaStream_t stream) {
  if (p.frame.width <= 0 || p.frame.height <= 0) return;
  const dim3 block(kTileX, kTileY);
  const dim3 grid((p.frame.width + kTileX - 1) / kTileX, (p.frame.height + kTileY - 1) / kTileY);
  launch_kernel(frame_outputs_kernel, grid, block, stream, false, p);
}

}  // namespace facet
