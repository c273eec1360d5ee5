// Vertex projection: world position -> homogeneous clip space, and clip space -> snapped
// 24.8 fixed-point window coordinates. The NumPy snippet's "shift, rotate, divide", done in
// homogeneous coordinates so that nothing behind the camera is ever divided (see clip.h).
#pragma once
#include "kernels/frame/params.h"

namespace facet {

FACET_HD Vec4 project_vertex(const Mat4& view_proj, Vec3 p) { return mul_point(view_proj, p); }

// Window position of a clip-space point with w > 0, in pixels, y down (row 0 = top).
FACET_HD Vec2 clip_to_window(Vec4 c, int width, int height) {
  float inv_w = 1.0f / c.w;
  float nx = c.x * inv_w;
  float ny = c.y * inv_w;
  return {(nx * 0.5f + 0.5f) * (float)width, (0.5f - ny * 0.5f) * (float)height};
}

// Window depth in [0, 1] (0 at the near plane), as OpenGL's default glDepthRange. Multiplied
// by the reciprocal of w, not divided: within an ulp of z / w.
// clip_to_window, clip_to_depth and snap are the mapping step by step; the pipeline uses
// snap_clip_point (below), tested to give their values bit for bit.
FACET_HD float clip_to_depth(Vec4 c) { return clampf(c.z * (1.0f / c.w) * 0.5f + 0.5f, 0.0f, 1.0f); }

// Round to the nearest 1/256 pixel; ties to even, identical on host and device.
FACET_HD int32_t snap(float window_coord) { return (int32_t)rintf(window_coord * (float)kSubpixel); }

// A clip-space point inside the guard band and the depth range (w > 0), snapped: window x, y in
// 1/256 px and depth. The same values as snap(clip_to_window(c)) and clip_to_depth(c): the
// factors 0.5 and 256 are powers of two, so halving the reciprocal before the products, and
// scaling the frame size by 256 before the last one, round exactly as the step-by-step form for
// any w below 2^125 (beyond, the halved reciprocal is subnormal and may round; both backends use
// this form, so they still agree). The vertex stage's hottest lines: four multiplications a
// vertex fewer.
struct SnappedPoint {
  int32_t x, y;  // 1/256 px, y down
  float z;       // window depth in [0, 1]
};
FACET_HD SnappedPoint snap_clip_point(Vec4 c, int width, int height) {
  const float h = (1.0f / c.w) * 0.5f;
  const float sx = (float)(width * kSubpixel), sy = (float)(height * kSubpixel);
  return {(int32_t)rintf((c.x * h + 0.5f) * sx), (int32_t)rintf((0.5f - c.y * h) * sy),
          clampf(c.z * h + 0.5f, 0.0f, 1.0f)};
}

}  // namespace facet
