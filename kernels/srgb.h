// sRGB <-> linear light for shading: texels, material and vertex colours are decoded to linear
// (as a GPU's sRGB sampler decodes each texel before filtering), lighting happens in linear, and
// the output is encoded back (kernels/shade.h encode_color). Both directions go through the float
// tables of kernels/srgb_tables.h rather than powf, whose results differ between glibc and CUDA:
// the same floats in give the same bytes out on both backends. Nothing here filters or shades.
#pragma once
#include "kernels/srgb_tables.h"

namespace facet {

// Linear value of an 8-bit sRGB code.
FACET_HD float srgb_to_linear(uint8_t code) { return srgb_decode_table(code); }

// The colour channels of an sRGB texel or vertex colour in linear light (alpha is not a colour:
// see texel_to_vec).
FACET_HD Vec3 srgb_to_linear(Rgba8 c) {
  return {srgb_to_linear(c.r), srgb_to_linear(c.g), srgb_to_linear(c.b)};
}

// The nearest sRGB code of a linear value (rounding 255 * OETF(c), half up): the number of
// thresholds at or below c, found by binary search over the 255 increasing thresholds. Below 0
// gives 0, above 1 gives 255, NaN gives 0. Exact: srgb_encode8(srgb_to_linear(k)) == k.
FACET_HD uint8_t srgb_encode8(float c) {
  uint32_t code = 0;
  for (uint32_t step = 128; step > 0; step >>= 1)
    if (c >= srgb_threshold_table(code + step - 1)) code += step;
  return (uint8_t)code;
}

}  // namespace facet
