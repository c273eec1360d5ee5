// Sample positions of N-sample anti-aliasing (N = 1, 4, 8) in the 1/256 px fixed-point grid, as
// offsets from the pixel centre, and the per-triangle edge offsets the raster paths add to a pixel
// centre's edge values to get each sample's. Positions only: coverage and keys are raster.h's.
//
// The patterns are Direct3D 11's standard multisample patterns (D3D11_STANDARD_MULTISAMPLE_PATTERN,
// also what Vulkan's standard sample locations and Mesa's llvmpipe use), given there in 1/16 px
// from the pixel centre with y DOWN, which is our window space's direction (row 0 = top), so they
// are used with the signs as published. OpenGL specifies no pattern; llvmpipe's 4x table
// (lp_sample_pos_4x: (0.375, 0.125) (0.875, 0.375) (0.125, 0.625) (0.625, 0.875) from the pixel's
// corner, in framebuffer memory rows) is this 4x pattern, and the GL reference renders with
// glClipControl(GL_UPPER_LEFT), where memory row 0 is the image's top row: the same y down.
// Sample 0 of N = 1 is the pixel centre itself, so a 1-sample frame is today's frame exactly.
#pragma once
#include "kernels/frame/params.h"

// Keeps the loop that follows rolled, where unrolling a loop over samples would hold every
// iteration's values at once and run out of registers (the raster's and resolve's sample loops).
#if defined(__CUDACC__) || defined(__clang__)
#define FACET_NO_UNROLL _Pragma("unroll 1")
#elif defined(__GNUC__)
#define FACET_NO_UNROLL _Pragma("GCC unroll 1")
#else
#define FACET_NO_UNROLL
#endif

namespace facet {

// Largest sample count a frame may ask for (keys per pixel in the visibility buffer).
constexpr int kMaxSamples = 8;
// The pattern unit: 1/16 px, i.e. 16 of our 1/256 px steps.
constexpr int kSampleUnit = kSubpixel / 16;

struct SampleOffset {
  int8_t x, y;  // from the pixel centre, 1/16 px, y down
};

// D3D11 standard patterns (see the top of this file), 1/16 px, y down.
constexpr SampleOffset kPattern4[4] = {{-2, -6}, {6, -2}, {-6, 2}, {2, 6}};
constexpr SampleOffset kPattern8[8] = {{1, -3}, {-1, 3}, {5, 1}, {-3, -5}, {-5, 5}, {-7, -1}, {3, 7}, {7, -7}};

// One coordinate of a pattern in 1/256 px (at most 7 * 16 = 112 in magnitude), sample s in byte s
// as a two's-complement byte: a lookup that stays in registers for a sample index known only at
// run time, one shift and one sign extension where unpacking 4-bit 1/16 px fields would take 17
// instructions a sample in the raster's sample loop.
template <int kN>
constexpr uint64_t pack_steps(const SampleOffset (&pattern)[kN], bool y) {
  uint64_t w = 0;
  for (int s = 0; s < kN; ++s)
    w |= (uint64_t)(uint8_t)(int8_t)((y ? pattern[s].y : pattern[s].x) * kSampleUnit) << (8 * s);
  return w;
}
constexpr uint64_t kSteps4X = pack_steps(kPattern4, false), kSteps4Y = pack_steps(kPattern4, true);
constexpr uint64_t kSteps8X = pack_steps(kPattern8, false), kSteps8Y = pack_steps(kPattern8, true);

// Sample s's offset from the pixel centre in 1/256 px, along x and y; zero at one sample.
FACET_HD int32_t signed_byte(uint64_t w, int s) { return (int32_t)(int8_t)(uint8_t)(w >> (8 * s)); }
FACET_HD int32_t sample_step_x(int samples, int s) {
  return samples == 4 ? signed_byte(kSteps4X, s) : samples == 8 ? signed_byte(kSteps8X, s) : 0;
}
FACET_HD int32_t sample_step_y(int samples, int s) {
  return samples == 4 ? signed_byte(kSteps4Y, s) : samples == 8 ? signed_byte(kSteps8Y, s) : 0;
}

// Sample s's offset in 1/16 px, as the pattern gives it.
FACET_HD SampleOffset sample_offset(int samples, int s) {
  return {(int8_t)(sample_step_x(samples, s) / kSampleUnit), (int8_t)(sample_step_y(samples, s) / kSampleUnit)};
}

// How far (1/256 px) any sample of the pattern lies from the pixel centre along x or y: a
// triangle's pixel box grows by this much each way (setup.h).
FACET_HD int32_t sample_reach(int samples) {
  return samples == 8 ? 7 * kSampleUnit : samples == 4 ? 6 * kSampleUnit : 0;
}

// True for the sample counts a frame may use.
FACET_HD bool valid_sample_count(int samples) { return samples == 1 || samples == 4 || samples == 8; }

// A triangle's edge offsets of each sample: edge i's value at sample s is its value at the pixel
// centre plus at(s, i), exactly, since an edge function is linear in the point:
// edge_fn(c + d) - edge_fn(c) = (bx - ax) * d.y - (by - ay) * d.x = dx/kSubpixel * d.x + dy/kSubpixel * d.y
// (d in 1/256 px). Every |offset| is below one pixel step |dx| + |dy|.
// Only the six per-unit rates are kept and each offset is two multiply-adds, the sample's
// position unpacked from kSteps4/8 in registers: the raster keeps its sample loop rolled where
// registers are short (raster.h), and 12 or 24 stored offsets (48 registers in 64-bit stepping)
// made the CUDA geometry kernel spill a kilobyte a thread (ptxas -v, sm_90).
template <class Int, int kSamples>
struct SampleEdges {
  int32_t ex[3], ey[3];  // the edges' changes per 1/256 px along x and y
  FACET_HD Int at(int s, int i) const {
    return (Int)ex[i] * (Int)sample_step_x(kSamples, s) + (Int)ey[i] * (Int)sample_step_y(kSamples, s);
  }
  // From the per-pixel steps dx, dy of edge_setup (kSubpixel times these rates).
  FACET_HD static SampleEdges make(const Int (&dx)[3], const Int (&dy)[3]) {
    SampleEdges r;
    for (int i = 0; i < 3; ++i) {
      r.ex[i] = (int32_t)(dx[i] / kSubpixel);
      r.ey[i] = (int32_t)(dy[i] / kSubpixel);
    }
    return r;
  }
};

template <class Int, int kSamples>
FACET_HD SampleEdges<Int, kSamples> sample_edges(const Int (&dx)[3], const Int (&dy)[3]) {
  return SampleEdges<Int, kSamples>::make(dx, dy);
}

}  // namespace facet
