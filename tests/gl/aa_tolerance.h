// The tolerances of comparing an anti-aliased facet frame with OpenGL's multisampled one (measured
// and justified in test_gl_antialias.cpp, whose edge pixels they bound), and the pixel
// classification and tally both GL anti-aliasing tests use.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <vector>

#include "kernels/base/hd.h"

namespace facet::test {

constexpr int kAaColorTolerance = 2;                // interior pixels, per channel (1/255)
constexpr double kAaMaxEdgeMean = 1.0;              // edge pixels: mean channel difference (1/255)
constexpr double kAaMaxSampleFlipFraction = 0.005;  // edge pixels over kAaColorTolerance: at most this share

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

// What comparing facet's frame with OpenGL's found: interior pixels (ours interior by
// `ours_interior(x, y)`, GL's by its ids) and edge pixels (either covered, not both interior).
struct AaComparison {
  size_t interior_px = 0, interior_over = 0;  // interior pixels, and those over kAaColorTolerance
  size_t edge_px = 0, edge_over = 0;          // edge pixels, and those over kAaColorTolerance
  size_t one_sample_over = 0;                 // edge pixels of our one-sample frame over it
  double edge_sum = 0.0;                      // summed channel difference of the edge pixels
  double edge_mean() const { return edge_sum / (double)std::max<size_t>(edge_px, 1); }
};

template <class OursInterior>
AaComparison compare_aa_frames(const std::vector<Rgba8>& ours, const std::vector<Rgba8>& ours_one,
                               const std::vector<Rgba8>& theirs, const std::vector<uint32_t>& ours_ids,
                               const std::vector<uint32_t>& theirs_ids, int w, int h, OursInterior ours_interior) {
  AaComparison c;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const size_t i = (size_t)y * w + x;
      const int d = channel_difference(ours[i], theirs[i]);
      if (ours_ids[i] != ~0u && ours_interior(x, y) && interior(theirs_ids, w, h, x, y)) {
        ++c.interior_px;
        c.interior_over += d > kAaColorTolerance;
      } else if (ours_ids[i] != ~0u || theirs_ids[i] != ~0u) {
        ++c.edge_px;
        c.edge_sum += d;
        c.edge_over += d > kAaColorTolerance;
        c.one_sample_over += channel_difference(ours_one[i], theirs[i]) > kAaColorTolerance;
      }
    }
  return c;
}

}  // namespace facet::test
