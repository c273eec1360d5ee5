// The Morton code of a triangle's centroid, the key the patch meshlets' ranges are sorted by
// (engine/meshlets/meshlet_ranges.cpp on the CPU, kernels/prepare/centroid_order.cu on the device). One function
// for both, every double sum and product rounded on its own, so that both sort the triangles into
// the same order bit for bit.
#pragma once
#include <cstdint>

#include "kernels/base/hd.h"
#include "kernels/base/rounded.h"

namespace facet {

constexpr int kCodeAxisBits = 10;  // 1024 cells an axis: finer than any range, 30 bits in all

// The cell grid of the codes: the positions' bounding cube, kCodeAxisBits an axis.
struct CodeGrid {
  double lo[3];  // the cube's smallest corner
  double scale;  // cells a unit of length; 0 for a model of one point
};

// The grid over the box [lo, hi] of the finite positions (compute_bounds; all zero when there are
// none): the cube from lo whose side is the box's longest. The sign of a zero corner moves no
// code: a centroid's difference from it differs at most in the sign of a zero, and no zero is in a
// cell past the first.
FACET_HD CodeGrid code_grid_of_box(const Vec3& lo, const Vec3& hi) {
  const double ex = (double)hi.x - lo.x, ey = (double)hi.y - lo.y, ez = (double)hi.z - lo.z;
  const double extent = ex > ey ? (ex > ez ? ex : ez) : (ey > ez ? ey : ez);
  return {{lo.x, lo.y, lo.z}, extent > 0 ? (1 << kCodeAxisBits) / extent : 0.0};
}

// Ten bits spread to every third bit.
FACET_HD uint32_t spread3(uint32_t x) {
  x &= 0x3ff;
  x = (x | x << 16) & 0x030000ff;
  x = (x | x << 8) & 0x0300f00f;
  x = (x | x << 4) & 0x030c30c3;
  x = (x | x << 2) & 0x09249249;
  return x;
}

// The code of the centroid of a, b, c. A non-finite corner puts the triangle in cell 0 of that
// axis (NaN compares false).
FACET_HD uint32_t centroid_code(const Vec3& a, const Vec3& b, const Vec3& c, const CodeGrid& g) {
  const Vec3* corner[3] = {&a, &b, &c};
  uint32_t code = 0;
  for (int axis = 0; axis < 3; ++axis) {
    double sum = 0;
    for (int k = 0; k < 3; ++k) sum = add_rn(sum, (double)(&corner[k]->x)[axis]);
    const double q = mul_rn(sub_rn(sum / 3, g.lo[axis]), g.scale);
    const double top = (double)((1 << kCodeAxisBits) - 1);
    const uint32_t cell = q > 0 ? (uint32_t)(q < top ? q : top) : 0u;
    code |= spread3(cell) << axis;
  }
  return code;
}

}  // namespace facet
