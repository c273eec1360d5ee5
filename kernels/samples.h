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
#include "kernels/params.h"

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

// D3D11 standard patterns (see the top of this file), 1/16 px, packed 4 bits a coordinate
// (two's complement, -8..7), x in the low nibble of sample s's byte, y in the high one: a
// lookup that stays in registers for a sample index known only at run time.
constexpr uint64_t kPattern4 = 0x622ae6aeull;          // (-2,-6) (6,-2) (-6,2) (2,6)
constexpr uint64_t kPattern8 = 0x9773f95bbd153fd1ull;  // (1,-3) (-1,3) (5,1) (-3,-5) (-5,5)
                                                       //   (-7,-1) (3,7) (7,-7)
FACET_HD SampleOffset sample_offset(int samples, int s) {
  if (samples != 4 && samples != 8) return {0, 0};
  const uint32_t byte = (uint32_t)(((samples == 4 ? kPattern4 : kPattern8) >> (8 * s)) & 0xffu);
  const int x = (int)(byte & 0xfu), y = (int)(byte >> 4);
  return {(int8_t)(x >= 8 ? x - 16 : x), (int8_t)(y >= 8 ? y - 16 : y)};
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
// position unpacked from kPattern4/8 in registers: the raster keeps its sample loop rolled
// (raster.h), and 12 or 24 stored offsets (48 registers in 64-bit stepping) made the CUDA
// geometry kernel spill a kilobyte a thread (ptxas -v, sm_90).
template <class Int, int kSamples>
struct SampleEdges {
  int32_t ex[3], ey[3];  // the edges' changes per 1/256 px along x and y
  FACET_HD Int at(int s, int i) const {
    const SampleOffset d = sample_offset(kSamples, s);
    return (Int)ex[i] * (Int)(d.x * kSampleUnit) + (Int)ey[i] * (Int)(d.y * kSampleUnit);
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
