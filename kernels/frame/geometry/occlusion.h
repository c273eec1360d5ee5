// Occlusion culling of whole meshlets, in two passes within one frame (geometry.cu, hiz.cu):
//  1. draw the meshlets that showed a pixel in the previous frame (resolve marks them);
//  2. from what pass 1 drew, take the farthest depth of every kHizTile x kHizTile tile of the
//     frame; draw every other meshlet unless its bounding sphere lies, over every tile it can
//     touch, strictly behind that depth.
// Exact: a meshlet skipped in pass 2 is behind pixels already drawn this frame, so each of its
// keys would lose the atomicMin (a larger depth; never a tie), and the image is the one without
// culling. The previous frame only decides what pass 1 draws, so a camera cut or a new scene
// costs time (pass 2 draws what pass 1 did not), never pixels.
#pragma once
#include "kernels/frame/geometry/meshlet_cull.h"
#include "kernels/frame/raster/raster.h"
#include "kernels/frame/tuning.h"

namespace facet {

// Slack of the sphere's bounds for the float rounding of the projection here and in the vertex
// stage (about 1000 float ulps of the coordinates involved), and of its depth.
constexpr float kOcclusionSlack = 1e-4f;
constexpr float kOcclusionDepthSlack = 1e-5f;

// What pass 2 tests a meshlet against.
struct OcclusionTest {
  const uint32_t* hiz;     // [tiles_x * tiles_y] farthest window depth (float bits) of each
                           //   tile after pass 1; 1.0 where a pixel was left empty
  const uint32_t* coarse;  // [coarse_x * coarse_y] the same over kHizCoarse^2 tiles
  int32_t tiles_x, tiles_y;
  int32_t coarse_x, coarse_y;
  int32_t width, height;  // frame size in pixels
  Vec4 row[4];            // rows of the frame's view_proj: clip coordinate i = row[i] . (p, 1)
  float reach[4];         // |row[i].xyz|: how far clip coordinate i moves a unit of distance
  // Clip z as alpha * w + rest . (p, 1), rest.xyz orthogonal to row[3].xyz: a perspective
  // matrix has rest.xyz = 0, so z / w = alpha + rest.w / w, and its bound over a sphere is as
  // tight as w's (bounding z and w apart lost a sphere's whole depth range and more). An
  // orthographic matrix has row[3] = (0, 0, 0, 1): alpha = 0, rest = row[2] and w = 1, so the
  // same bounds are those of z itself over the sphere, exact up to the slack.
  float alpha;
  Vec4 rest;
  float rest_reach;  // |rest.xyz|
};

FACET_HD int hiz_tiles(int pixels) { return (pixels + kHizTile - 1) / kHizTile; }
FACET_HD int hiz_coarse_tiles(int pixels) { return (hiz_tiles(pixels) + kHizCoarse - 1) / kHizCoarse; }

// The farthest depth a pixel's key lets the tile bound take: its depth when this frame drew it
// (tag `tag`), 1.0 (the far plane, no bound) when it is empty or an older frame's.
FACET_HD uint32_t hiz_depth_bits(uint64_t key, uint32_t tag) {
  const uint32_t kFarBits = 0x3f800000u;  // 1.0f
  if (!key_current(key, tag)) return kFarBits;
  return (uint32_t)(key >> 32) & 0x3fffffffu;  // depth in [0, 1]: its float bits order as integers
}

// Lower and upper bound of x / w over x in [x_lo, x_hi], w in [w_lo, w_hi], w_lo > 0.
FACET_HD float ratio_lo(float x_lo, float w_lo, float w_hi) { return x_lo / (x_lo >= 0.0f ? w_hi : w_lo); }
FACET_HD float ratio_hi(float x_hi, float w_lo, float w_hi) { return x_hi / (x_hi >= 0.0f ? w_lo : w_hi); }

// A sphere (c, r) once projected: bounds of what the vertex stage can compute for any point in
// it, rounding included.
struct SphereProjection {
  bool bounded;      // wholly in front of the eye's plane and every bound finite: the rest
                     //   holds (false: it may cover any pixel, at any depth)
  int32_t px0, py0;  // pixels (inclusive, inside the frame) whose centres it can cover, one
  int32_t px1, py1;  //   more each way for the snap; px0 > px1 when off screen
  float depth;       // a window depth no point of it is nearer than (<= 0: no bound)
};

FACET_HD SphereProjection project_sphere(const OcclusionTest& o, Vec3 c, float r) {
  SphereProjection s{false, 0, 0, -1, -1, 0.0f};
  if (!(r >= 0.0f)) return s;  // NaN: a non-finite vertex
  // Every point within r of c, and the vertex stage's rounding of it, within rr of c; and each
  // clip coordinate over them within [lo, hi], rounding included.
  const float size = coordinate_magnitude(c, r);
  const float rr = r + kOcclusionSlack * size;
  auto bounds = [&](Vec4 a, float reach, float& lo, float& hi) {
    const float v = fmaf(a.x, c.x, fmaf(a.y, c.y, fmaf(a.z, c.z, a.w)));
    const float d = rr * reach + kOcclusionSlack * (fabsf(v) + fabsf(a.w));
    lo = v - d;
    hi = v + d;
  };
  float lo[3], hi[3], w_lo, w_hi, rest_lo, rest_hi;
  for (int i = 0; i < 3; ++i) bounds(o.row[i], o.reach[i], lo[i], hi[i]);
  bounds(o.row[3], o.reach[3], w_lo, w_hi);
  bounds(o.rest, o.rest_reach, rest_lo, rest_hi);
  if (!(w_lo > 0.0f) || !(w_hi < 3.0e38f)) return s;  // reaches the eye's plane, or overflows
  const float nx0 = ratio_lo(lo[0], w_lo, w_hi), nx1 = ratio_hi(hi[0], w_lo, w_hi);
  const float ny0 = ratio_lo(lo[1], w_lo, w_hi), ny1 = ratio_hi(hi[1], w_lo, w_hi);
  // z / w >= alpha + rest / w; the slack also covers the rounding of z = alpha w + rest itself,
  // relative to the magnitudes of z's own row.
  const float z_slack = kOcclusionSlack * (o.reach[2] * size + fabsf(o.row[2].w)) / w_lo;
  s.depth = (o.alpha + ratio_lo(rest_lo, w_lo, w_hi) - z_slack) * 0.5f + 0.5f - kOcclusionDepthSlack;
  // Pixels whose centres the sphere can cover, one more each way for the snap (y down).
  const float fx0 = (nx0 * 0.5f + 0.5f) * (float)o.width - 1.0f, fx1 = (nx1 * 0.5f + 0.5f) * (float)o.width + 1.0f;
  const float fy0 = (0.5f - ny1 * 0.5f) * (float)o.height - 1.0f, fy1 = (0.5f - ny0 * 0.5f) * (float)o.height + 1.0f;
  if (fx0 != fx0 || fx1 != fx1 || fy0 != fy0 || fy1 != fy1) return s;  // NaN: an overflow above
  s.bounded = true;
  if (!(fx0 < (float)o.width && fx1 >= 0.0f && fy0 < (float)o.height && fy1 >= 0.0f)) return s;  // off screen
  s.px0 = fx0 > 0.0f ? (int)fx0 : 0;
  s.px1 = fx1 < (float)(o.width - 1) ? (int)fx1 : o.width - 1;
  s.py0 = fy0 > 0.0f ? (int)fy0 : 0;
  s.py1 = fy1 < (float)(o.height - 1) ? (int)fy1 : o.height - 1;
  return s;
}

// Pixels of a frame (inclusive; empty when x0 > x1) outside which nothing can be drawn.
struct PixelBox {
  int32_t x0, y0, x1, y1;
};
// The box's pixels, 0 for an empty box.
FACET_HD uint64_t pixel_count(const PixelBox& b) {
  return b.x0 > b.x1 || b.y0 > b.y1 ? 0 : (uint64_t)(b.x1 - b.x0 + 1) * (uint64_t)(b.y1 - b.y0 + 1);
}

// True when the sphere (c, r) lies behind the bound of every tile it can touch (see the top).
// `load` reads a tile's bound (the CUDA kernel reads it past L1: other blocks wrote it).
template <class Load>
FACET_HD bool sphere_occluded(const OcclusionTest& o, Vec3 c, float r, Load&& load) {
  const SphereProjection s = project_sphere(o, c, r);
  // Unbounded, off screen, or reaching the near plane (nothing is nearer).
  if (!s.bounded || s.px0 > s.px1 || !(s.depth > 0.0f)) return false;
  const int px0 = s.px0, px1 = s.px1, py0 = s.py0, py1 = s.py1;
  const float depth = s.depth;
  int tx0 = px0 / kHizTile, tx1 = px1 / kHizTile, ty0 = py0 / kHizTile, ty1 = py1 / kHizTile;
  const uint32_t* bound = o.hiz;
  int row = o.tiles_x;
  if ((tx1 - tx0 + 1) * (ty1 - ty0 + 1) > kHizMaxTiles) {
    tx0 /= kHizCoarse;
    tx1 /= kHizCoarse;
    ty0 /= kHizCoarse;
    ty1 /= kHizCoarse;
    if ((tx1 - tx0 + 1) * (ty1 - ty0 + 1) > kHizMaxTiles) return false;
    bound = o.coarse;
    row = o.coarse_x;
  }
  union {
    float f;
    uint32_t u;
  } bits;
  bits.f = depth;
  for (int ty = ty0; ty <= ty1; ++ty)
    for (int tx = tx0; tx <= tx1; ++tx)
      if (load(bound + (size_t)ty * row + tx) >= bits.u) return false;
  return true;
}

}  // namespace facet
