// The sRGB transfer functions written out from IEC 61966-2-1 in double precision, independent of
// the engine's tables (kernels/frame/resolve/srgb.h), for tests to compute expected colours with.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "kernels/base/hd.h"

namespace facet::test {

inline double srgb_eotf(double s) { return s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4); }
inline double srgb_oetf(double l) { return l <= 0.0031308 ? l * 12.92 : 1.055 * std::pow(l, 1.0 / 2.4) - 0.055; }
// The sRGB code of a linear value, rounded to nearest.
inline uint8_t srgb_code(double linear) {
  return (uint8_t)std::lround(std::clamp(srgb_oetf(std::max(linear, 0.0)), 0.0, 1.0) * 255.0);
}
inline double code_to_linear(uint8_t code) { return srgb_eotf(code / 255.0); }
inline Vec3 srgb_to_linear_ref(Vec3 c) { return {(float)srgb_eotf(c.x), (float)srgb_eotf(c.y), (float)srgb_eotf(c.z)}; }

}  // namespace facet::test
