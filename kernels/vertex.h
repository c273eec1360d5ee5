// The vertex stage's per-vertex work: project to clip space, classify against the clip planes,
// and (inside all of them) divide by w and snap to fixed point. Triangle setup then needs no
// division at all for the common triangle that crosses no plane.
#pragma once
#include "clip.h"
#include "project.h"

namespace facet {

FACET_HD ProjectedVertex project_and_snap(const Mat4& view_proj, Vec3 p, const ClipPlanes& planes,
                                          int width, int height) {
  Vec4 c = project_vertex(view_proj, p);
  ProjectedVertex v{0, 0, 0.0f, 0u};
  // The common case first, in one test: inside every plane with a finite w. That implies
  // x, y and z finite too (an infinity or NaN fails one of the comparisons), so it is exactly
  // code == 0 below, without the per-component checks and the code's bits.
  bool inside = c.w <= 3.402823466e38f;
  for (int i = 0; i < kClipPlanes; ++i) inside = inside & (plane_distance(planes, i, c) >= 0.0f);
  if (!inside) {
    if (!is_finite(c.x) || !is_finite(c.y) || !is_finite(c.z) || !is_finite(c.w)) {
      v.code = kCodeNonFinite;
      return v;
    }
    v.code = outcode(planes, c);
    if (v.code != 0) return v;
  }
  Vec2 w = clip_to_window(c, width, height);
  v.x = snap(w.x);
  v.y = snap(w.y);
  v.z = clip_to_depth(c);
  return v;
}

}  // namespace facet
