// Frame comparison helpers for tests.
#include "tests/support/image_compare.h"

#include <algorithm>
#include <cstdlib>

#include "engine/render/image_io.h"

namespace facet::test {

bool near_id_change(const std::vector<uint32_t>& ids, int width, int height, int x, int y, int radius) {
  const uint32_t id = ids[(size_t)y * width + x];
  for (int dy = -radius; dy <= radius; ++dy)
    for (int dx = -radius; dx <= radius; ++dx) {
      const int nx = x + dx, ny = y + dy;
      if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
      if (ids[(size_t)ny * width + nx] != id) return true;
    }
  return false;
}

IdComparison compare_ids(const std::vector<uint32_t>& ref, const std::vector<uint32_t>& other, int width, int height,
                         int edge_radius) {
  IdComparison r;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      size_t i = (size_t)y * width + x;
      if (ref[i] != ~0u) ++r.covered;
      if (ref[i] == other[i]) continue;
      ++r.differing;
      if ((ref[i] == ~0u) != (other[i] == ~0u)) ++r.coverage_differing;
      if (!near_id_change(ref, width, height, x, y, edge_radius)) ++r.interior_differing;
    }
  return r;
}

std::string rgba_text(Rgba8 c) {
  return "(" + std::to_string(c.r) + ", " + std::to_string(c.g) + ", " + std::to_string(c.b) + ", " +
         std::to_string(c.a) + ")";
}

ColorComparison compare_rgba(const std::vector<Rgba8>& a, const std::vector<Rgba8>& b, int tolerance) {
  ColorComparison r;
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    int d = std::max(
        {std::abs(a[i].r - b[i].r), std::abs(a[i].g - b[i].g), std::abs(a[i].b - b[i].b), std::abs(a[i].a - b[i].a)});
    r.max_channel_diff = std::max(r.max_channel_diff, d);
    if (d > tolerance) ++r.pixels_over;
  }
  if (a.size() != b.size()) r.pixels_over += std::max(a.size(), b.size()) - n;
  return r;
}

std::string write_id_diff(const std::string& name, const std::vector<uint32_t>& ref, const std::vector<uint32_t>& other,
                          int width, int height) {
  std::vector<Rgba8> img((size_t)width * height);
  for (size_t i = 0; i < img.size(); ++i) {
    if (ref[i] != other[i])
      img[i] = {255, 0, 0, 255};
    else if (ref[i] != ~0u)
      img[i] = {80, 80, 80, 255};
    else
      img[i] = {0, 0, 0, 255};
  }
  std::string file = name + "-diff.png";
  write_png(file, width, height, img);
  return file;
}

}  // namespace facet::test
