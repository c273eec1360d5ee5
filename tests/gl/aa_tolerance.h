// The tolerances of comparing an anti-aliased facet frame with OpenGL's multisampled one (measured
// and justified in test_gl_antialias.cpp, whose edge pixels they bound), and the pixel
// classification both GL anti-aliasing tests use.
#pragma once
#include <algorithm>
#include <cstdlib>
#include <vector>

#include "kernels/hd.h"

namespace facet::test {

constexpr int kAaColorTolerance = 2;              // interior pixels, per channel (1/255)
constexpr double kAaMaxEdgeMean = 1.0;            // edge pixels: mean channel difference (1/255)
constexpr double kAaMaxSampleFlipFraction = 0.005;// edge pixels over kAaColorTolerance: at most this share

// True when pixel (x, y) and its 3x3 neighbourhood (clamped to the frame) show one id.
inline bool interior(const std::vector<uint32_t>& ids, int w, int h, int x, int y) {
  const uint32_t id = ids[(size_t)y * w + x];
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      const int nx = std::clamp(x + dx, 0, w - 1), ny = std::clamp(y + dy, 0, h - 1);
      if (ids[(size_t)ny * w + nx] != id) return false;
    }
  return true;
}

inline int channel_difference(Rgba8 a, Rgba8 b) {
  return std::max({std::abs(a.r - b.r), std::abs(a.g - b.g), std::abs(a.b - b.b)});
}

}  // namespace facet::test
