// sRGB colours given as numbers (MTL Kd, Ks, Ka, Ke; vertex colours written as floats) to the
// linear light the scene stores and shades in, computed once on the host at load time in double
// precision. Texels and 8-bit colours are decoded where they are read (kernels/frame/resolve/srgb.h).
#pragma once
#include <cmath>

#include "kernels/frame/params.h"

namespace facet {

// The grey of models without a material: sRGB 0.8 in linear light, so that a face lit head-on
// shows the 0.8 (byte 204) it always has.
constexpr float kDefaultGreyLinear = 0.603827f;

// The sRGB transfer function's inverse (IEC 61966-2-1), extended as a power beyond 1 (MTL
// colours above 1 stay brighter); negative and non-finite values are the caller's to refuse.
inline float srgb_to_linear_exact(float s) {
  const double v = s;
  return (float)(v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4));
}
inline Vec3 srgb_to_linear_exact(Vec3 c) {
  return {srgb_to_linear_exact(c.x), srgb_to_linear_exact(c.y), srgb_to_linear_exact(c.z)};
}

}  // namespace facet
