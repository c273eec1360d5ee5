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

namespace facet {

// Largest sample count a frame may ask for (keys per pixel in the visibility buffer).
constexpr int kMaxSamples = 8;
// The pattern unit: 1/16 px, i.e. 16 of our 1/256 px steps.
constexpr int kSampleUnit = kSubpixel / 16;

struct SampleOffset {
  int8_t x, y;  // from the pixel centre, 1/16 px, y down
};

// D3D11 standard patterns (see the top of this file), 1/16 px.
FACET_HD SampleOffset sample_offset(int samples, int s) {
  constexpr SampleOffset k4[4] = {{-2, -6}, {6, -2}, {-6, 2}, {2, 6}};
  constexpr SampleOffset k8[8] = {{1, -3}, {-1, 3}, {5, 1}, {-3, -5}, {-5, 5}, {-7, -1}, {3, 7}, {7, -7}};
  if (samples == 4) return k4[s];
  if (samples == 8) return k8[s];
  return {0, 0};
}

// How far (1/256 px) any sample of the pattern lies from the pixel centre along x or y: a
// triangle's pixel box grows by this much each way (setup.h).
FACET_HD int32_t sample_reach(int samples) {
  return samples == 8 ? 7 * kSampleUnit : samples == 4 ? 6 * kSampleUnit : 0;
}

// True for the sample counts a frame may use.
FACET_HD bool valid_sample_count(int samples) { return samples == 1 || samples == 4 || samples == 8; }

// A triangle's edge offsets of each sample: edge i's value at sample s is its value at the pixel
// centre plus o[s][i], exactly, since an edge function is linear in the point:
// edge_fn(c + d) - edge_fn(c) = (bx - ax) * d.y - (by - ay) * d.x = dx/kSubpixel * d.x + dy/kSubpixel * d.y
// (d in 1/256 px). Every |o| is below one pixel step |dx| + |dy|.
template <class Int, int kSamples>
struct SampleEdges {
  Int o[kSamples][3];
};

// From the per-pixel steps dx, dy of edge_setup (kSubpixel times the edge's per-unit rates).
template <class Int, int kSamples>
FACET_HD SampleEdges<Int, kSamples> sample_edges(const Int (&dx)[3], const Int (&dy)[3]) {
  SampleEdges<Int, kSamples> r;
FACET_UNROLL
  for (int s = 0; s < kSamples; ++s) {
    const SampleOffset d = sample_offset(kSamples, s);
FACET_UNROLL
    for (int i = 0; i < 3; ++i)
      r.o[s][i] = dx[i] / kSubpixel * (Int)(d.x * kSampleUnit) + dy[i] / kSubpixel * (Int)(d.y * kSampleUnit);
  }
  return r;
}

}  // namespace facet
