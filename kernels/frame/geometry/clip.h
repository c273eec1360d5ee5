// Clipping in homogeneous clip space against the near and far planes and a guard band around
// the frame. Only triangles that cross a plane come here (most never do).
//
// Watertightness across clipped triangles: the point where a shared edge meets a plane is
// computed from the edge's two endpoints in a canonical order, so both triangles sharing the
// edge get the same bits.
#pragma once
#include "kernels/frame/params.h"

namespace facet {

constexpr int kClipPlanes = 6;
// A triangle clipped by 6 planes has at most 3 + 6 vertices.
constexpr int kMaxClipVerts = 9;

struct ClipPlanes {
  float kx, ky;  // guard-band half-extent in NDC units: |x| <= kx * w, |y| <= ky * w
};

FACET_HD ClipPlanes make_clip_planes(int width, int height) {
  return {1.0f + 2.0f * kGuardBandPx / (float)width, 1.0f + 2.0f * kGuardBandPx / (float)height};
}

// Signed distance (scaled) of c to plane i; >= 0 is inside.
FACET_HD float plane_distance(const ClipPlanes& p, int i, Vec4 c) {
  switch (i) {
    case 0:
      return c.z + c.w;  // near: z_ndc >= -1
    case 1:
      return c.w - c.z;  // far:  z_ndc <= 1
    case 2:
      return c.x + p.kx * c.w;  // left guard band
    case 3:
      return p.kx * c.w - c.x;  // right guard band
    case 4:
      return c.y + p.ky * c.w;  // bottom guard band
    default:
      return p.ky * c.w - c.y;  // top guard band
  }
}

// Bit mask of the planes c lies outside of. NaN compares false, so NaN vertices are caught
// separately by the caller.
FACET_HD uint32_t outcode(const ClipPlanes& p, Vec4 c) {
  uint32_t code = 0;
  for (int i = 0; i < kClipPlanes; ++i) code |= (plane_distance(p, i, c) < 0.0f ? 1u : 0u) << i;
  return code;
}

// Strict lexicographic order on the bits of (x, y, z, w): the canonical direction of an edge.
FACET_HD bool vertex_less(Vec4 a, Vec4 b) {
  if (a.x != b.x) return a.x < b.x;
  if (a.y != b.y) return a.y < b.y;
  if (a.z != b.z) return a.z < b.z;
  return a.w < b.w;
}

// Where segment a-b crosses plane i, computed the same way whichever way round it is given.
// Measured from the endpoint nearer the plane (ties: the lower by vertex_less), so that a far
// endpoint (1e12 away) does not swamp the near one's bits, then put exactly on the plane (an edge
// with both ends far out otherwise lands its cut point anywhere along x or y).
FACET_HD Vec4 intersect(const ClipPlanes& p, int i, Vec4 a, Vec4 b) {
  float da = plane_distance(p, i, a);
  float db = plane_distance(p, i, b);
  if (fabsf(db) < fabsf(da) || (fabsf(db) == fabsf(da) && vertex_less(b, a))) {
    Vec4 t = a;
    a = b;
    b = t;
    float d = da;
    da = db;
    db = d;
  }
  float t = da / (da - db);
  Vec4 r = a + (b - a) * t;
  switch (i) {
    case 0:
      r.z = -r.w;
      break;
    case 1:
      r.z = r.w;
      break;
    case 2:
      r.x = -p.kx * r.w;
      break;
    case 3:
      r.x = p.kx * r.w;
      break;
    case 4:
      r.y = -p.ky * r.w;
      break;
    default:
      r.y = p.ky * r.w;
      break;
  }
  return r;
}

// Clips triangle (c0, c1, c2) against every plane in `planes_mask`. Writes the resulting convex
// polygon to out (in order, same winding) and returns its vertex count (0, or 3..9).
FACET_HD int clip_polygon(const ClipPlanes& p, uint32_t planes_mask, Vec4 c0, Vec4 c1, Vec4 c2,
                          Vec4 (&out)[kMaxClipVerts]) {
  Vec4 buf[kMaxClipVerts];
  Vec4* src = out;
  Vec4* dst = buf;
  src[0] = c0;
  src[1] = c1;
  src[2] = c2;
  int n = 3;
  for (int i = 0; i < kClipPlanes && n > 0; ++i) {
    if (!(planes_mask & (1u << i))) continue;
    int m = 0;
    for (int k = 0; k < n; ++k) {
      // Rounding can leave a polygon a hair non-convex; the bound keeps it in the buffer.
      Vec4 a = src[k], b = src[(k + 1) % n];
      float da = plane_distance(p, i, a), db = plane_distance(p, i, b);
      if (da >= 0.0f && m < kMaxClipVerts) dst[m++] = a;
      if ((da >= 0.0f) != (db >= 0.0f) && m < kMaxClipVerts) dst[m++] = intersect(p, i, a, b);
    }
    n = m < 3 ? 0 : m;
    Vec4* t = src;
    src = dst;
    dst = t;
  }
  if (src != out)
    for (int k = 0; k < n; ++k) out[k] = src[k];
  return n;
}

}  // namespace facet
