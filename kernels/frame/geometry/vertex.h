// The vertex stage's per-vertex work: project to clip space, classify against the clip planes,
// and (inside all of them) divide by w and snap to fixed point. Triangle setup then needs no
// division at all for the common triangle that crosses no plane.
#pragma once
#include "kernels/frame/geometry/clip.h"
#include "kernels/frame/geometry/project.h"

namespace facet {

FACET_HD ProjectedVertex project_and_snap(const Mat4& view_proj, Vec3 p, const ClipPlanes& planes, int width,
                                          int height) {
  Vec4 c = project_vertex(view_proj, p);
  ProjectedVertex v{0, 0, 0.0f, 0u};
  // The common case first, in one test: inside every plane with a finite w. That implies
  // x, y and z finite too (an infinity or NaN fails one of the comparisons), so it is exactly
  // code == 0 below, without the per-component checks and the code's bits.
  // Each pair of opposite planes is one comparison of a magnitude: z + w >= 0 and w - z >= 0
  // hold exactly when |z| <= w (a rounded sum keeps the sign of the exact one), and likewise x
  // against kx * w, the same rounded product plane_distance takes. Seven instructions a vertex
  // fewer. The product is kept finite so that an infinite x is never inside.
  const float kMaxFloat = 3.402823466e38f;
  const float kxw = fminf(planes.kx * c.w, kMaxFloat), kyw = fminf(planes.ky * c.w, kMaxFloat);
  const bool inside = c.w <= kMaxFloat && fabsf(c.z) <= c.w && fabsf(c.x) <= kxw && fabsf(c.y) <= kyw;
  if (!inside) {
    if (!is_finite(c.x) || !is_finite(c.y) || !is_finite(c.z) || !is_finite(c.w)) {
      v.code = kCodeNonFinite;
      return v;
    }
    v.code = outcode(planes, c);
    if (v.code != 0) return v;
  }
  const SnappedPoint w = snap_clip_point(c, width, height);
  v.x = w.x;
  v.y = w.y;
  v.z = w.z;
  return v;
}

}  // namespace facet
