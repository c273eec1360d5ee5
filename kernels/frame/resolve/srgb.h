// sRGB <-> linear light for shading: texels, material and vertex colours are decoded to linear
// (as a GPU's sRGB sampler decodes each texel before filtering), lighting happens in linear, and
// the output is encoded back (kernels/frame/resolve/shade.h encode_color). Both directions go through the float
// tables of kernels/frame/resolve/srgb_tables.h rather than powf, whose results differ between glibc and CUDA:
// the same floats in give the same bytes out on both backends. Nothing here filters or shades.
#pragma once
#include "kernels/frame/resolve/srgb_tables.h"

namespace facet {

// Linear value of an 8-bit sRGB code.
FACET_HD float srgb_to_linear(uint8_t code) { return srgb_decode_table(code); }

// The colour channels of an sRGB texel or vertex colour in linear light (alpha is not a colour:
// see texel_to_vec).
FACET_HD Vec3 srgb_to_linear(Rgba8 c) { return {srgb_to_linear(c.r), srgb_to_linear(c.g), srgb_to_linear(c.b)}; }

// The nearest sRGB code of a linear value (rounding 255 * OETF(c), half up): the number of
// thresholds at or below c. Below 0 gives 0, above 1 gives 255, NaN gives 0. Exact:
// srgb_encode8(srgb_to_linear(k)) == k.
// A guess first, from arithmetic (two square roots and a fit of the OETF within 0.19 of a code
// over [0.0031308, 1], the linear segment below it exact), so within one code of the answer; then
// the two thresholds around the guess, loaded at once, decide, so the code is exact whatever
// rounding the guess had. A binary search over the table would take eight dependent loads a
// channel, the costliest part of a resolved pixel.
FACET_HD uint8_t srgb_encode8(float c) {
  if (!(c >= srgb_threshold_table(0))) return 0;  // below code 1's threshold, or NaN
  if (c >= srgb_threshold_table(254)) return 255;
  float s;
  if (c < 0.0031308f) {
    s = c * 12.92f;
  } else {
    // c^(1/2) and c^(1/4). The guess need not be the same float on both backends, only within a
    // code (the thresholds decide): the GPU takes its one-instruction reciprocal square root.
#ifdef __CUDA_ARCH__
    const float r = c * rsqrtf(c), q = r * rsqrtf(r);
#else
    const float r = sqrtf(c), q = sqrtf(r);
#endif
    s = 0.822815f * r + 0.307342f * q - 0.05171f * c - 0.078868f;
  }
  const int g = mini(maxi((int)(s * 255.0f + 0.5f), 1), 254);
  const float below = srgb_threshold_table((uint32_t)g - 1), above = srgb_threshold_table((uint32_t)g);
  return (uint8_t)(c < below ? g - 1 : c >= above ? g + 1 : g);
}

}  // namespace facet
