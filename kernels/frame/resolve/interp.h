// Perspective-correct barycentrics of a pixel centre for a triangle given in clip space
// (homogeneous 2D rasterization, Olano & Greer 1997): no division by a vertex's w, so they are
// right for triangles that cross the near plane too.
#pragma once
#include "kernels/frame/params.h"

namespace facet {

struct Barycentrics {
  float b[3];    // weights of vertices 0, 1, 2 at the pixel centre; sum to 1
  float ddx[3];  // change of each weight one pixel to the right
  float ddy[3];  // change of each weight one pixel down
};

// NDC of the centre of pixel (px, py); y flipped so that row 0 is the top. By the reciprocal of
// the frame size, which the compiler computes once for all the pixels and derivatives of a
// thread, rather than two IEEE divisions a call (a covered pixel made two to six).
FACET_HD Vec2 pixel_ndc(float px, float py, int width, int height) {
  return {fmaf(px + 0.5f, 2.0f / (float)width, -1.0f), fmaf(-(py + 0.5f), 2.0f / (float)height, 1.0f)};
}

struct HomogeneousEdges {
  Vec3 e[3];
};  // e[i] . (x, y, 1) is proportional to weight i

// The weights do not change when all three vertices are scaled by one factor, and a power of
// two scales exactly. Vertices whose clip coordinates are beyond 2^30 (or below 2^-30) are
// brought near 1 so the cross products neither overflow (they did past about 1e19, leaving
// flat 1/3 weights) nor sink into denormals; in between nothing changes, bit for bit.
FACET_HD float homogeneous_scale(Vec4 c0, Vec4 c1, Vec4 c2) {
  float m = fmaxf(fmaxf(fmaxf(fabsf(c0.x), fabsf(c0.y)), fmaxf(fabsf(c0.w), fabsf(c1.x))),
                  fmaxf(fmaxf(fabsf(c1.y), fabsf(c1.w)), fmaxf(fmaxf(fabsf(c2.x), fabsf(c2.y)), fabsf(c2.w))));
  if (!is_finite(m) || m == 0.0f || (m >= 0x1p-30f && m <= 0x1p30f)) return 1.0f;
  int e = 0;
  frexpf(m, &e);
  return ldexpf(1.0f, -e);
}

// Resolve's per-pixel math is written in fused multiply-adds of a fixed order: the build keeps
// -fmad=false so that nothing is fused behind our back (host and device must agree bit for bit),
// and separate products and sums would be about half of a covered pixel's instructions. The CPU
// backend's resolve loop is built for FMA too (cpu_renderer.cpp), so both compute the same bits.
FACET_HD Vec3 cross_fma(Vec3 a, Vec3 b) {
  return {fmaf(a.y, b.z, -(a.z * b.y)), fmaf(a.z, b.x, -(a.x * b.z)), fmaf(a.x, b.y, -(a.y * b.x))};
}
FACET_HD float weighted3(const float (&b)[3], float a0, float a1, float a2) {
  return fmaf(a0, b[0], fmaf(a1, b[1], a2 * b[2]));
}

FACET_HD HomogeneousEdges homogeneous_edges(Vec4 c0, Vec4 c1, Vec4 c2) {
  float k = homogeneous_scale(c0, c1, c2);
  Vec3 a{c0.x * k, c0.y * k, c0.w * k}, b{c1.x * k, c1.y * k, c1.w * k}, c{c2.x * k, c2.y * k, c2.w * k};
  return {{cross_fma(b, c), cross_fma(c, a), cross_fma(a, b)}};
}

FACET_HD void weights_at(const HomogeneousEdges& h, Vec2 ndc, float (&w)[3]) {
  float e0 = fmaf(h.e[0].x, ndc.x, fmaf(h.e[0].y, ndc.y, h.e[0].z));
  float e1 = fmaf(h.e[1].x, ndc.x, fmaf(h.e[1].y, ndc.y, h.e[1].z));
  float e2 = fmaf(h.e[2].x, ndc.x, fmaf(h.e[2].y, ndc.y, h.e[2].z));
  float sum = e0 + e1 + e2;
  if (sum == 0.0f || !is_finite(sum)) {
    w[0] = w[1] = w[2] = 1.0f / 3.0f;
    return;
  }
  float inv = 1.0f / sum;
  w[0] = e0 * inv;
  w[1] = e1 * inv;
  w[2] = e2 * inv;
}

// Weights at the pixel centre only: all that lit, normal and depth shading need.
FACET_HD void weights_at_pixel(const HomogeneousEdges& h, int px, int py, int width, int height, float (&w)[3]) {
  weights_at(h, pixel_ndc((float)px, (float)py, width, height), w);
}

// Their change one pixel right and one down (texture level of detail, wireframe): two more
// evaluations, so resolve asks for them only when a pixel needs them.
FACET_HD void weight_derivatives(const HomogeneousEdges& h, int px, int py, int width, int height, Barycentrics& r) {
  float wx[3], wy[3];
  weights_at(h, pixel_ndc((float)px + 1.0f, (float)py, width, height), wx);
  weights_at(h, pixel_ndc((float)px, (float)py + 1.0f, width, height), wy);
  for (int i = 0; i < 3; ++i) {
    r.ddx[i] = wx[i] - r.b[i];
    r.ddy[i] = wy[i] - r.b[i];
  }
}

FACET_HD Barycentrics barycentrics_at(Vec4 c0, Vec4 c1, Vec4 c2, int px, int py, int width, int height) {
  HomogeneousEdges h = homogeneous_edges(c0, c1, c2);
  Barycentrics r;
  weights_at_pixel(h, px, py, width, height, r.b);
  weight_derivatives(h, px, py, width, height, r);
  return r;
}

FACET_HD float interpolate(const float (&b)[3], float a0, float a1, float a2) { return weighted3(b, a0, a1, a2); }
FACET_HD Vec2 interpolate(const float (&b)[3], Vec2 a0, Vec2 a1, Vec2 a2) {
  return {weighted3(b, a0.x, a1.x, a2.x), weighted3(b, a0.y, a1.y, a2.y)};
}
FACET_HD Vec3 interpolate(const float (&b)[3], Vec3 a0, Vec3 a1, Vec3 a2) {
  return {weighted3(b, a0.x, a1.x, a2.x), weighted3(b, a0.y, a1.y, a2.y), weighted3(b, a0.z, a1.z, a2.z)};
}

}  // namespace facet
