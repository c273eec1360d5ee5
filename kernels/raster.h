// Coverage and depth of one pixel against one RasterTri: integer edge functions on snapped
// vertices with the top-left fill rule, so a mesh is watertight (each pixel centre on a shared
// edge belongs to exactly one of the two triangles), and the 64-bit visibility key.
#pragma once
#include "params.h"

namespace facet {

// Edge function of edge a->b at p: positive on the inside for RasterTri's orientation.
FACET_HD int64_t edge_fn(int32_t ax, int32_t ay, int32_t bx, int32_t by, int64_t px, int64_t py) {
  return (int64_t)(bx - ax) * (py - ay) - (int64_t)(by - ay) * (px - ax);
}

// Top-left rule with y down and clockwise-on-screen triangles: a "top" edge is horizontal and
// runs to the right, a "left" edge runs up. Pixel centres exactly on such an edge are inside.
FACET_HD bool is_top_left(int32_t ax, int32_t ay, int32_t bx, int32_t by) {
  int32_t dx = bx - ax, dy = by - ay;
  return dy < 0 || (dy == 0 && dx > 0);
}

// Edge functions of a triangle, stepped across pixels. e[i] belongs to the edge opposite vertex i,
// so e[i] / (2 * area) is vertex i's screen-space barycentric weight.
struct EdgeSetup {
  int64_t e[3];     // values at the first pixel centre, top-left bias already applied
  int64_t dx[3];    // change per pixel to the right
  int64_t dy[3];    // change per pixel down
};

FACET_HD EdgeSetup edge_setup(const RasterTri& t, int32_t px, int32_t py) {
  int64_t sx = (int64_t)px * kSubpixel + kSubpixel / 2;
  int64_t sy = (int64_t)py * kSubpixel + kSubpixel / 2;
  EdgeSetup s;
  for (int i = 0; i < 3; ++i) {
    int a = (i + 1) % 3, b = (i + 2) % 3;
    // Inside iff e > 0, or e == 0 on a top-left edge: fold that into a bias of 1 (integers).
    int64_t bias = is_top_left(t.x[a], t.y[a], t.x[b], t.y[b]) ? 0 : -1;
    s.e[i] = edge_fn(t.x[a], t.y[a], t.x[b], t.y[b], sx, sy) + bias;
    s.dx[i] = -(int64_t)(t.y[b] - t.y[a]) * kSubpixel;
    s.dy[i] = (int64_t)(t.x[b] - t.x[a]) * kSubpixel;
  }
  return s;
}

// True when the biased edge values say the pixel centre is covered.
FACET_HD bool covered(int64_t e0, int64_t e1, int64_t e2) { return (e0 | e1 | e2) >= 0; }

// Window depth at a covered pixel from its (unbiased) edge values. Computed from the integer
// edge functions, so host and device give the same float.
FACET_HD float depth_at(const RasterTri& t, int64_t e1, int64_t e2) {
  float z = t.z0 + ((float)e1 * t.dz1 + (float)e2 * t.dz2) * t.inv_area;
  return clampf(z, 0.0f, 1.0f);
}

// The biased value e is off by at most 1 from the exact edge function; recover the exact one.
FACET_HD int64_t unbias(const RasterTri& t, int i, int64_t e) {
  int a = (i + 1) % 3, b = (i + 2) % 3;
  return is_top_left(t.x[a], t.y[a], t.x[b], t.y[b]) ? e : e + 1;
}

// Nearer wins; an exact depth tie goes to the lower triangle index. Depth is in [0, 1], so its
// float bits order like the values.
FACET_HD uint64_t vis_key(float depth, uint32_t tri) {
  union { float f; uint32_t u; } d;
  d.f = depth;
  return ((uint64_t)d.u << 32) | tri;
}
FACET_HD uint32_t key_triangle(uint64_t key) { return (uint32_t)(key & 0xffffffffu); }

// Coverage and key of a single pixel (the tile and fallback paths). False when not covered.
FACET_HD bool pixel_key(const RasterTri& t, int32_t px, int32_t py, uint64_t& key) {
  EdgeSetup s = edge_setup(t, px, py);
  if (!covered(s.e[0], s.e[1], s.e[2])) return false;
  key = vis_key(depth_at(t, unbias(t, 1, s.e[1]), unbias(t, 2, s.e[2])), t.tri);
  return true;
}

// Visits every covered pixel of t inside [px0..px1] x [py0..py1] (a sub-rectangle of t's box):
// visit(px, py, key). Used by the CPU backend and the one-thread-per-triangle CUDA path.
template <class Visit>
FACET_HD void raster_rect(const RasterTri& t, int32_t px0, int32_t py0, int32_t px1, int32_t py1,
                          Visit&& visit) {
  EdgeSetup s = edge_setup(t, px0, py0);
  for (int32_t py = py0; py <= py1; ++py) {
    int64_t e0 = s.e[0], e1 = s.e[1], e2 = s.e[2];
    for (int32_t px = px0; px <= px1; ++px) {
      if (covered(e0, e1, e2))
        visit(px, py, vis_key(depth_at(t, unbias(t, 1, e1), unbias(t, 2, e2)), t.tri));
      e0 += s.dx[0]; e1 += s.dx[1]; e2 += s.dx[2];
    }
    s.e[0] += s.dy[0]; s.e[1] += s.dy[1]; s.e[2] += s.dy[2];
  }
}

}  // namespace facet
