// Resolve: shade each pixel once from the visibility buffer (deferred shading).
#include "kernels/dependent_launch.h"
#include "kernels/shade.h"
#include "kernels/stages.h"

namespace facet {

namespace {

constexpr int kThreads = 128;

// Each thread takes kPixels pixels of a row, 32 apart so that every load and store of a warp
// stays one contiguous run, and issues all their key loads, then all their triangle loads, before
// it shades any of them: more loads in flight a thread. It costs registers (64 for one pixel, 80
// for two), so occupancy: measured (NOTES.md, v8), two pixels a thread win at 4K (sphere 2 K
// resolve 0.073 -> 0.070 ms, dragon 0.071 -> 0.066) and lose at 1080p (0.018 -> 0.019), where
// the frame has too few pixels to fill the card twice over.
template <int kPixels>
__global__ void __launch_bounds__(kThreads, kPixels == 1 ? 8 : 6) resolve_kernel(ResolveStageParams p) {
  constexpr int kWarpSpan = 32 * kPixels;
  constexpr int kBlockSpan = kWarpSpan * kThreads / 32;
  if (p.next_counters && blockIdx.x == 0 && blockIdx.y == 0) {
    // The next frame's counters: their last reader was the previous frame's copy to the host.
    uint32_t* words = reinterpret_cast<uint32_t*>(p.next_counters);
    for (uint32_t i = threadIdx.x; i < sizeof(FrameCounters) / 4; i += kThreads) words[i] = 0;
  }
  wait_for_previous_kernel();
  const int width = p.frame.width;
  const int x0 = blockIdx.x * kBlockSpan + (threadIdx.x >> 5) * kWarpSpan + (threadIdx.x & 31);
  const int y = blockIdx.y;
  if (x0 >= width) return;
  const size_t row = (size_t)y * width;
  uint64_t key[kPixels];
#pragma unroll
  for (int j = 0; j < kPixels; ++j) {
    const int x = x0 + 32 * j;
    key[j] = x < width ? p.vis[row + x] : kEmptyKey;
  }
  PixelTriangle tri[kPixels];
#pragma unroll
  for (int j = 0; j < kPixels; ++j)
    tri[j] = key_current(key[j], p.frame.vis_tag) ? pixel_triangle(p.scene, p.frame, key_triangle(key[j])) : PixelTriangle{};
#pragma unroll
  for (int j = 0; j < kPixels; ++j) {
    const int x = x0 + 32 * j;
    if (x >= width) break;
    const Rgba8 c = key_current(key[j], p.frame.vis_tag) ? shade_covered_pixel(p.scene, p.frame, x, y, tri[j])
                                                         : p.frame.background;
    if (p.out) {
      p.out[row + x] = c;
    } else {
      surf2Dwrite(make_uchar4(c.r, c.g, c.b, c.a), (cudaSurfaceObject_t)p.surface, x * 4, y);
    }
  }
}

template <int kPixels>
void launch_resolve(const ResolveStageParams& p, cudaStream_t stream) {
  constexpr int kBlockSpan = 32 * kPixels * kThreads / 32;
  dim3 grid((p.frame.width + kBlockSpan - 1) / kBlockSpan, p.frame.height);
  launch_kernel(resolve_kernel<kPixels>, grid, kThreads, stream, p.after_kernel, p);
}

}  // namespace

void launch_resolve_stage(const ResolveStageParams& p, cudaStream_t stream) {
  // Two pixels a thread from about 4 M pixels (4K: 8.3 M), one below (1080p: 2.1 M).
  if ((int64_t)p.frame.width * p.frame.height >= (int64_t)4 << 20)
    launch_resolve<2>(p, stream);
  else
    launch_resolve<1>(p, stream);
}

}  // namespace facet
