// Double sums and products rounded one at a time, never fused into a multiply-add, so that the
// CPU and the device compute the same bits: the closed-surface check's volumes (closed_math.h) and
// the centroids' Morton codes (centroid_code.h).
#pragma once
#include "kernels/base/hd.h"

namespace facet {

// Products, sums and differences of doubles rounded one at a time, never fused: the CPU build
// has -ffp-contract=off, and these keep nvcc from contracting.
FACET_HD double mul_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
FACET_HD double add_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}
FACET_HD double sub_rn(double a, double b) { return add_rn(a, -b); }

}  // namespace facet
