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

// The output pixel from its n keys (n = fp.samples). shade(tri) gives the shaded colour of
// triangle `tri` at this pixel (called once per distinct current triangle, in first-sample order).
// A pixel whose samples all hold one triangle is that triangle's colour encoded, exactly the
// 1-sample frame's pixel; a pixel no sample covers is fp.background, exactly.
template <int kMaxN, class Shade>
FACET_HD Rgba8 resolve_keys(const FrameParams& fp, const uint64_t* keys, int n, Shade&& shade) {
  Vec3 sum{0.0f, 0.0f, 0.0f};
  int covered = 0;
FACET_UNROLL
  for (int s = 0; s < kMaxN; ++s) {
    if (s >= n) break;
    if (!key_current(keys[s], fp.vis_tag)) continue;
    const uint32_t tri = key_triangle(keys[s]);
    bool seen = false;
    for (int r = 0; r < s; ++r) seen = seen || (key_current(keys[r], fp.vis_tag) && key_triangle(keys[r]) == tri);
    if (seen) continue;
    int count = 1;
    for (int r = s + 1; r < n; ++r) count += key_current(keys[r], fp.vis_tag) && key_triangle(keys[r]) == tri;
    const Vec3 c = shade(tri);
    if (count == n) return encode_color(c);
    sum = sum + c * (float)count;
    covered += count;
  }
  if (covered == 0) return fp.background;
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
