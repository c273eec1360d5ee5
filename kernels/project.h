// Vertex projection: world position -> homogeneous clip space, and clip space -> snapped
// 24.8 fixed-point window coordinates. The NumPy snippet's "shift, rotate, divide", done in
// homogeneous coordinates so that nothing behind the camera is ever divided (see clip.h).
#pragma once
#include "params.h"

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
// by the same reciprocal clip_to_window takes (the compiler computes it once), not divided: one
// IEEE division a vertex fewer, within an ulp of z / w.
FACET_HD float clip_to_depth(Vec4 c) { return clampf(c.z * (1.0f / c.w) * 0.5f + 0.5f, 0.0f, 1.0f); }

// Round to the nearest 1/256 pixel; ties to even, identical on host and device.
FACET_HD int32_t snap(float window_coord) { return (int32_t)rintf(window_coord * (float)kSubpixel); }

}  // namespace facet
