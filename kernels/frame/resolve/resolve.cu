// Resolve: shade each pixel once from the visibility buffer (deferred shading); in an N-sample
// frame each distinct triangle of a pixel once (resolve_samples.h). As the frame's last kernel it
// also zeroes the counter block the next frame counts into (frame.cu says why).
#include "kernels/base/launch.h"
#include "kernels/frame/resolve/resolve_samples.h"
#include "kernels/frame/stages.h"
#include "kernels/frame/tuning.h"

namespace facet {

namespace {

// Each thread takes kPixels pixels of a row (ResolvePixels) and issues all their key loads, then
// all their triangle loads, before it shades any of them: more loads in flight a thread. A plain
// lit frame (shade.h) gets a kernel of its own: without the other modes' state it holds 56
// registers for two pixels against 80, and is bounded for more resident threads; latency-bound
// as the pass is, that paid (tuning.h).
constexpr int kThreads = kResolveThreads;
template <int kPixels, bool kPlain>
constexpr int resolve_min_blocks() {  // resident threads an SM / kThreads
  return (kPlain ? kResolvePlainThreadsPerSm
                 : (kPixels == 1 ? kResolveOnePixelThreadsPerSm : kResolveTwoPixelThreadsPerSm)) /
         kThreads;
}

// The next frame's counters, by the first block: their last reader was the previous frame's copy
// to the host.
__device__ __forceinline__ void zero_next_counters(const ResolveStageParams& p) {
  if (p.next_counters && blockIdx.x == 0 && blockIdx.y == 0) {
    uint32_t* words = reinterpret_cast<uint32_t*>(p.next_counters);
    for (uint32_t i = threadIdx.x; i < sizeof(FrameCounters) / 4; i += kThreads) words[i] = 0;
  }
}

// This frame's counters to the host slot, by the first block, once every raster kernel is done
// (after wait_for_previous_kernel): over the bus while the pixels shade.
__device__ __forceinline__ void copy_counters_to_host(const ResolveStageParams& p) {
  if (p.host_counters && blockIdx.x == 0 && blockIdx.y == 0) {
    const uint32_t* from = reinterpret_cast<const uint32_t*>(p.counters);
    uint32_t* to = reinterpret_cast<uint32_t*>(p.host_counters);
    for (uint32_t i = threadIdx.x; i < sizeof(FrameCounters) / 4; i += kThreads) to[i] = from[i];
  }
}

__device__ __forceinline__ void write_pixel(const ResolveStageParams& p, size_t row, int x, int y, Rgba8 c) {
  if (p.out) {
    p.out[row + x] = c;
  } else {
    surf2Dwrite(make_uchar4(c.r, c.g, c.b, c.a), (cudaSurfaceObject_t)p.surface, x * 4, y);
  }
}

// Where a thread's pixels are. A warp shades a row of 32 * kPixels pixels, or with kTiles
// kResolveTileRows rows of 32 / kResolveTileRows * kPixels (p.tile_warps; tuning.h says when);
// the thread's kPixels pixels lie kCols apart along its row, so that each load and store of a
// warp stays one contiguous run a row. The shape is a kernel's template argument: chosen at run
// time, the per-lane row makes the row kernels slower (docs/performance.md).
template <int kPixels, bool kTiles>
struct ResolvePixels {
  static constexpr int kRows = kTiles ? kResolveTileRows : 1;
  static constexpr int kCols = 32 / kRows;  // a warp row's pixels of each of its threads' kPixels
  static constexpr int kWarpSpan = kCols * kPixels;
  static_assert(kCols * kRows == 32 && (kCols & (kCols - 1)) == 0, "a warp's rows: a power of two");
  int x0, y;   // the thread's first pixel
  size_t row;  // y * width
};

// The thread's kPixels pixels when its warp's pixels all lie outside the box the scene can reach:
// they are background, written without a key loaded. Most warps of a small model's frame are
// such warps, and would otherwise pay the key loads' address math, the key tests and the
// shading's set-up like a warp over the model: a large share of its resolve instructions
// (docs/performance.md has the profile). False, and nothing written, otherwise.
template <int kPixels, bool kTiles>
__device__ __forceinline__ bool background_warp(const ResolveStageParams& p, const ResolvePixels<kPixels, kTiles>& px) {
  using Px = ResolvePixels<kPixels, kTiles>;
  const int lane = (int)(threadIdx.x & 31);
  const int warp_x = px.x0 - lane % Px::kCols, warp_y = px.y - lane / Px::kCols;
  const PixelBox box = p.drawable;
  if (warp_y + Px::kRows - 1 >= box.y0 && warp_y <= box.y1 && warp_x <= box.x1 && warp_x + Px::kWarpSpan - 1 >= box.x0)
    return false;
#pragma unroll
  for (int j = 0; j < kPixels; ++j) {
    const int x = px.x0 + Px::kCols * j;
    if (x >= p.frame.width) break;
    write_pixel(p, px.row, x, px.y, p.frame.background);
  }
  return true;
}

// What every resolve kernel starts with: the counters (above), the wait for the raster, and the
// thread's pixels. False when the thread has nothing more to do: its pixels lie past the frame's
// edge, or its warp was background.
template <int kPixels, bool kTiles>
__device__ __forceinline__ bool start_resolve(const ResolveStageParams& p, ResolvePixels<kPixels, kTiles>& px) {
  using Px = ResolvePixels<kPixels, kTiles>;
  zero_next_counters(p);
  wait_for_previous_kernel();
  copy_counters_to_host(p);
  const int lane = (int)(threadIdx.x & 31);
  px.y = blockIdx.y * Px::kRows + lane / Px::kCols;
  px.x0 = blockIdx.x * (Px::kWarpSpan * kThreads / 32) + (threadIdx.x >> 5) * Px::kWarpSpan + lane % Px::kCols;
  if ((Px::kRows > 1 && px.y >= p.frame.height) || px.x0 >= p.frame.width) return false;
  px.row = (size_t)px.y * p.frame.width;
  return !background_warp(p, px);
}

template <int kPixels, bool kPlain, bool kTiles>
__global__ void __launch_bounds__(kThreads, (resolve_min_blocks<kPixels, kPlain>()))
    resolve_kernel(ResolveStageParams p) {
  ResolvePixels<kPixels, kTiles> px;
  if (!start_resolve(p, px)) return;
  constexpr int cols = ResolvePixels<kPixels, kTiles>::kCols;
  const int width = p.frame.width, x0 = px.x0, y = px.y;
  const size_t row = px.row;
  // Pixels outside the box that the scene can reach are background: no key to wait on.
  const PixelBox box = p.drawable;
  const bool row_drawable = y >= box.y0 && y <= box.y1;
  uint64_t key[kPixels];
#pragma unroll
  for (int j = 0; j < kPixels; ++j) {
    const int x = x0 + cols * j;
    key[j] = row_drawable && x >= box.x0 && x <= box.x1 ? p.vis[row + x] : kEmptyKey;
  }
  PixelTriangle tri[kPixels];
#pragma unroll
  for (int j = 0; j < kPixels; ++j) {
    if (!key_current(key[j], p.frame.vis_tag)) {
      tri[j] = PixelTriangle{};
      continue;
    }
    tri[j] = pixel_triangle(p.scene, p.frame, key_triangle(key[j]));
    // Its meshlet shows: occlusion culling's first pass draws it next frame (occlusion.h).
    if (p.meshlet_seen) p.meshlet_seen[p.triangle_meshlet[key_triangle(key[j])]] = p.frame_number;
  }
#pragma unroll
  for (int j = 0; j < kPixels; ++j) {
    const int x = x0 + cols * j;
    if (x >= width) break;
    Rgba8 c = p.frame.background;
    if (key_current(key[j], p.frame.vis_tag))
      c = encode_color(kPlain ? shade_plain_lit_pixel(p.scene, p.frame, x, y, tri[j])
                              : shade_covered_pixel(p.scene, p.frame, x, y, tri[j]));
    write_pixel(p, row, x, y, c);
  }
}

// An N-sample frame: kPixels pixels a thread, as in resolve_kernel. Their N keys come from the N
// sample planes, each load of a warp one coalesced run a row of its pixels (raster.h, vis_slot).
// Each distinct triangle of a pixel is shaded once (resolve_samples); the first one's indices
// are loaded for every pixel of the thread before any shades, as resolve_kernel does, so that a
// pixel of one triangle costs what a 1-sample pixel does. Bounded like the two-pixel kernel (768
// threads an SM: 80 registers) where the general shading runs, which spilled at 64.
template <int kSamples, bool kPlain, int kPixels, bool kTiles>
__global__ void __launch_bounds__(kThreads, (resolve_min_blocks<2, kPlain>()))
    resolve_samples_kernel(ResolveStageParams p) {
  ResolvePixels<kPixels, kTiles> px;
  if (!start_resolve(p, px)) return;
  constexpr int cols = ResolvePixels<kPixels, kTiles>::kCols;
  const int width = p.frame.width, x0 = px.x0, y = px.y;
  const size_t row = px.row;
  const size_t pixels = (size_t)width * p.frame.height;
  const PixelBox box = p.drawable;
  const bool row_drawable = y >= box.y0 && y <= box.y1;
  PixelSamples<kSamples> samples[kPixels];
#pragma unroll
  for (int j = 0; j < kPixels; ++j) {
    const int x = x0 + cols * j;
    uint64_t key[kSamples];
    const bool drawable = row_drawable && x >= box.x0 && x <= box.x1;
#pragma unroll
    for (int s = 0; s < kSamples; ++s) key[s] = drawable ? p.vis[vis_slot(pixels, row + x, s)] : kEmptyKey;
    samples[j] = pixel_samples<kSamples>(p.frame, key, kSamples);
  }
  PixelTriangle first[kPixels];
#pragma unroll
  for (int j = 0; j < kPixels; ++j)
    first[j] = samples[j].covered ? pixel_triangle(p.scene, p.frame, first_triangle(samples[j])) : PixelTriangle{};
#pragma unroll
  for (int j = 0; j < kPixels; ++j) {
    const int x = x0 + cols * j;
    if (x >= width) break;
    // resolve_samples shades the first covered sample's triangle first: first[j] serves that call.
    bool first_call = true;
    const Rgba8 c = resolve_samples<kSamples>(p.frame, samples[j], kSamples, [&](uint32_t tri) {
      const PixelTriangle t = first_call ? first[j] : pixel_triangle(p.scene, p.frame, tri);
      first_call = false;
      // Its meshlet shows: occlusion culling's first pass draws it next frame (occlusion.h).
      if (p.meshlet_seen) p.meshlet_seen[p.triangle_meshlet[tri]] = p.frame_number;
      return kPlain ? shade_plain_lit_pixel(p.scene, p.frame, x, y, t) : shade_covered_pixel(p.scene, p.frame, x, y, t);
    });
    write_pixel(p, row, x, y, c);
  }
}

// The grid of blocks of kThreads threads, kPixels pixels a thread (start_resolve's layout).
template <int kPixels, bool kTiles>
dim3 resolve_grid(const ResolveStageParams& p) {
  using Px = ResolvePixels<kPixels, kTiles>;
  constexpr int kBlockSpan = Px::kWarpSpan * kThreads / 32;
  return dim3((p.frame.width + kBlockSpan - 1) / kBlockSpan, (p.frame.height + Px::kRows - 1) / Px::kRows);
}

// The kernels in the warp shape p.tile_warps asks for. The plain lit kernel at one sample is never
// asked for tiles (plan_resolve_tiles) and is compiled in rows only.
template <int kPixels, bool kPlain>
void launch_resolve(const ResolveStageParams& p, cudaStream_t stream) {
  constexpr bool kMayTile = !kPlain;
  if (kMayTile && p.tile_warps)
    launch_kernel(resolve_kernel<kPixels, kPlain, kMayTile>, resolve_grid<kPixels, kMayTile>(p), kThreads, stream,
                  p.after_kernel, p);
  else
    launch_kernel(resolve_kernel<kPixels, kPlain, false>, resolve_grid<kPixels, false>(p), kThreads, stream,
                  p.after_kernel, p);
}

template <int kSamples, bool kPlain, int kPixels>
void launch_resolve_samples(const ResolveStageParams& p, cudaStream_t stream) {
  if (p.tile_warps)
    launch_kernel(resolve_samples_kernel<kSamples, kPlain, kPixels, true>, resolve_grid<kPixels, true>(p), kThreads,
                  stream, p.after_kernel, p);
  else
    launch_kernel(resolve_samples_kernel<kSamples, kPlain, kPixels, false>, resolve_grid<kPixels, false>(p), kThreads,
                  stream, p.after_kernel, p);
}

// The plain lit kernel at 4 samples: two pixels a thread from kResolveTwoPixelsFrom pixels a frame
// (4K), one below, where fewer threads with more registers measured slower, as the 1-sample
// general kernel does; at 8 samples two pixels spill. The general kernel: one.
template <int kSamples>
void launch_resolve_samples(const ResolveStageParams& p, cudaStream_t stream) {
  const bool two = kSamples == 4 && (int64_t)p.frame.width * p.frame.height >= kResolveTwoPixelsFrom;
  if (!plain_lit_frame(p.frame, p.scene_textured))
    launch_resolve_samples<kSamples, false, 1>(p, stream);
  else if (two)
    launch_resolve_samples<kSamples, true, 2>(p, stream);
  else
    launch_resolve_samples<kSamples, true, 1>(p, stream);
}

}  // namespace

void launch_resolve_stage(const ResolveStageParams& p, cudaStream_t stream) {
  if (p.frame.samples == 4) return launch_resolve_samples<4>(p, stream);
  if (p.frame.samples == 8) return launch_resolve_samples<8>(p, stream);
  // The plain lit kernel: two pixels a thread at any size. The general one: two
  // from kResolveTwoPixelsFrom pixels, one below, where its 80 registers cost more.
  if (plain_lit_frame(p.frame, p.scene_textured)) {
    launch_resolve<2, true>(p, stream);
  } else if ((int64_t)p.frame.width * p.frame.height >= kResolveTwoPixelsFrom) {
    launch_resolve<2, false>(p, stream);
  } else {
    launch_resolve<1, false>(p, stream);
  }
}

}  // namespace facet
