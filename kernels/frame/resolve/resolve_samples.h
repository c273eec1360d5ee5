// Resolve of an N-sample pixel (MSAA-style): the distinct triangles among its N keys are each
// shaded once, at the pixel centre, and weighted by the samples they cover; uncovered samples
// add the background. Shared by the CPU resolve and the CUDA kernels, so both sum the same floats
// in the same order. Colours are averaged as the shade_* functions return them (shade.h: the
// shading space), never as bytes, and encoded once. Not the shading itself (shade.h).
#pragma once
#include "kernels/frame/resolve/shade.h"

namespace facet {

// True when the frame's background is transparent (alpha 0, `facet render --transparent`): a
// pixel's alpha is then its covered fraction and its colour the covered samples' average
// (straight alpha, as PNG stores it).
FACET_HD bool transparent_background(const FrameParams& fp) { return fp.background.a == 0; }

// Set bits of a sample mask (at most kMaxSamples bits).
FACET_HD int sample_count(uint32_t mask) {
#if defined(__CUDA_ARCH__)
  return __popc(mask);
#else
  return __builtin_popcount(mask);
#endif
}

// A pixel's samples as resolve needs them: each sample's triangle and which samples this frame
// covered. Taken from the keys first, so that the 64-bit keys need not stay live while a pixel
// shades (and a thread can hold two pixels' samples at once).
template <int kMaxN>
struct PixelSamples {
  uint32_t tri[kMaxN];  // the triangle of sample s's key (meaningless where s is not covered)
  uint32_t covered;     // bit s set where key s is current (raster.h, key_current)
};
template <int kMaxN>
FACET_HD PixelSamples<kMaxN> pixel_samples(const FrameParams& fp, const uint64_t* keys, int n) {
  PixelSamples<kMaxN> p;
  p.covered = 0;
  FACET_UNROLL
  for (int s = 0; s < kMaxN; ++s) {
    p.tri[s] = key_triangle(keys[s]);
    if (s < n && key_current(keys[s], fp.vis_tag)) p.covered |= 1u << s;
  }
  return p;
}
// The triangle of the lowest sample in `mask` (a compare and a select a sample, in registers: no
// indexing by a run-time sample); only meaningful where mask != 0.
template <int kMaxN>
FACET_HD uint32_t lowest_sample_triangle(const PixelSamples<kMaxN>& p, uint32_t mask) {
  uint32_t t = 0;
  FACET_UNROLL
  for (int s = kMaxN - 1; s >= 0; --s) t = mask >> s & 1u ? p.tri[s] : t;
  return t;
}
// The triangle of the pixel's first covered sample (the first that resolve_samples shades);
// only meaningful where p.covered != 0.
template <int kMaxN>
FACET_HD uint32_t first_triangle(const PixelSamples<kMaxN>& p) {
  return lowest_sample_triangle(p, p.covered);
}

// The output pixel from its n samples (n = fp.samples <= kMaxN). shade(tri) gives the shaded
// colour of triangle `tri` at this pixel, called once per distinct covered triangle, in
// first-sample order, and the colours are summed in that order. A pixel whose samples all hold one
// triangle is that triangle's colour encoded, exactly the 1-sample frame's pixel; a pixel no sample
// covers is fp.background, exactly. The samples not yet shaded are a bit mask: a distinct
// triangle costs two compares and a select a sample; the shading loop is rolled, so that shade()
// is compiled once rather than once a sample.
template <int kMaxN, class Shade>
FACET_HD Rgba8 resolve_samples(const FrameParams& fp, const PixelSamples<kMaxN>& p, int n, Shade&& shade) {
  uint32_t left = p.covered;
  if (left == 0) return fp.background;
  const int covered = sample_count(left);
  Vec3 sum{0.0f, 0.0f, 0.0f};
  FACET_NO_UNROLL
  while (left != 0) {
    const uint32_t t = lowest_sample_triangle(p, left);
    uint32_t same = 0;
    FACET_UNROLL
    for (int s = 0; s < kMaxN; ++s) same |= p.tri[s] == t ? 1u << s : 0u;
    same &= left;  // a sample not covered may hold an old frame's key of the same triangle
    left &= ~same;
    const int c = sample_count(same);
    const Vec3 colour = shade(t);
    if (c == n) return encode_color(colour);
    sum = sum + colour * (float)c;
  }
  if (transparent_background(fp)) {
    Rgba8 out = encode_color(sum * (1.0f / (float)covered));
    out.a = to_unorm8((float)covered / (float)n);
    return out;
  }
  sum = sum + background_color(fp) * (float)(n - covered);
  return encode_color(sum * (1.0f / (float)n));
}

// resolve_samples from the pixel's n keys.
template <int kMaxN, class Shade>
FACET_HD Rgba8 resolve_keys(const FrameParams& fp, const uint64_t* keys, int n, Shade&& shade) {
  return resolve_samples<kMaxN>(fp, pixel_samples<kMaxN>(fp, keys, n), n, shade);
}

// The output colour of pixel (px, py) from its fp.samples keys, the general shading path.
FACET_HD Rgba8 shade_pixel_samples(const SceneView& s, const FrameParams& fp, int px, int py, const uint64_t* keys) {
  return resolve_keys<kMaxSamples>(fp, keys, fp.samples, [&](uint32_t tri) {
    return shade_covered_pixel(s, fp, px, py, pixel_triangle(s, fp, tri));
  });
}

}  // namespace facet
