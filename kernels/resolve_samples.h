// Resolve of an N-sample pixel (MSAA-style): the distinct triangles among its N keys are each
// shaded once, at the pixel centre, and weighted by the samples they cover; uncovered samples
// add the background. Shared by the CPU resolve and the CUDA kernels, so both sum the same floats
// in the same order. Colours are averaged as the shade_* functions return them (shade.h: the
// shading space), never as bytes, and encoded once. Not the shading itself (shade.h).
#pragma once
#include "kernels/shade.h"

namespace facet {

// True when the frame's background is transparent (alpha 0, `facet render --transparent`): a
// pixel's alpha is then its covered fraction and its colour the covered samples' average
// (straight alpha, as PNG stores it).
FACET_HD bool transparent_background(const FrameParams& fp) { return fp.background.a == 0; }

// The output pixel from its n keys (n = fp.samples <= kMaxN). shade(tri) gives the shaded colour
// of triangle `tri` at this pixel, called once per distinct current triangle, in first-sample
// order, and the colours are summed in that order. A pixel whose samples all hold one triangle is
// that triangle's colour encoded, exactly the 1-sample frame's pixel; a pixel no sample covers is
// fp.background, exactly. The bookkeeping is unrolled (registers); the shading loop is not, so
// that shade() is compiled once rather than once a sample.
template <int kMaxN, class Shade>
FACET_HD Rgba8 resolve_keys(const FrameParams& fp, const uint64_t* keys, int n, Shade&& shade) {
  constexpr uint32_t kNone = ~0u;
  uint32_t tri[kMaxN];
  int rank[kMaxN], count[kMaxN];  // of a sample holding a triangle's first key: its order among
                                  //   the distinct triangles and its samples; rank -1 otherwise
  int distinct = 0, covered = 0;
FACET_UNROLL
  for (int s = 0; s < kMaxN; ++s) tri[s] = s < n && key_current(keys[s], fp.vis_tag) ? key_triangle(keys[s]) : kNone;
FACET_UNROLL
  for (int s = 0; s < kMaxN; ++s) {
    rank[s] = -1;
    count[s] = 0;
    if (tri[s] == kNone) continue;
    ++covered;
    bool first = true;
FACET_UNROLL
    for (int r = 0; r < s; ++r) first = first && tri[r] != tri[s];
    if (!first) continue;
    rank[s] = distinct++;
FACET_UNROLL
    for (int r = s; r < kMaxN; ++r) count[s] += tri[r] == tri[s];
  }
  if (covered == 0) return fp.background;
  Vec3 sum{0.0f, 0.0f, 0.0f};
FACET_NO_UNROLL
  for (int j = 0; j < distinct; ++j) {
    uint32_t t = 0;
    int c = 0;
FACET_UNROLL
    for (int s = 0; s < kMaxN; ++s)
      if (rank[s] == j) {
        t = tri[s];
        c = count[s];
      }
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

// The output colour of pixel (px, py) from its fp.samples keys, the general shading path.
FACET_HD Rgba8 shade_pixel_samples(const SceneView& s, const FrameParams& fp, int px, int py,
                                   const uint64_t* keys) {
  return resolve_keys<kMaxSamples>(fp, keys, fp.samples, [&](uint32_t tri) {
    return shade_covered_pixel(s, fp, px, py, pixel_triangle(s, fp, tri));
  });
}

}  // namespace facet
