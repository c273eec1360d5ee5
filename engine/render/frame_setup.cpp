// Once-a-frame host computations for the kernels' whole-meshlet and per-pixel tests
// (frame_setup.h).
#include "engine/render/frame_setup.h"

#include <algorithm>
#include <cmath>
#include <glm/glm.hpp>

#include "kernels/frame/tuning.h"

namespace facet {

namespace {

// An orthographic (affine) matrix: clip w is the constant w for every point, and a triangle's
// det[x y w] is w * dot(a, n), a = (row 0) x (row 1) of the matrix's xyz columns, n its right-handed
// normal: negative (clockwise in NDC, back-facing) when w * dot(a, n) < 0. The rays run along a.
void set_parallel_facing(MeshletCull& k, glm::dvec3 row0, glm::dvec3 row1, double w) {
  const glm::dvec3 a = glm::cross(row0, row1);
  const double len = glm::length(a);
  if (!(len > 0.0) || !std::isfinite(len) || !(w != 0.0) || !std::isfinite(w)) return;  // facing 0
  k.parallel = true;
  k.eye = {(float)(a.x / len), (float)(a.y / len), (float)(a.z / len)};
  k.facing = w > 0.0 ? -1.0f : 1.0f;
}

// The rows and scales of sphere_between_samples (meshlet_cull.h), on for 1-sample frames. The slack
// each way, in pixels: the snap's rounding (half of 1/256 px, counted whole) and the float
// rounding of the divisions and window coordinates there and in the vertex stage (a few ulps
// of values up to a few times the frame's size; 4e-6 of the size is about 32 of its ulps).
void set_between_samples(MeshletCull& k, const FrameParams& fp) {
  const float* m = fp.view_proj.m;
  const int rows[3] = {0, 1, 3};
  for (int i = 0; i < 3; ++i) {
    const int r = rows[i];
    k.row[i] = {m[r], m[4 + r], m[8 + r], m[12 + r]};
    k.row_reach[i] = std::sqrt(m[r] * m[r] + m[4 + r] * m[4 + r] + m[8 + r] * m[8 + r]);
  }
  k.half_width = 0.5f * (float)fp.width;
  k.half_height = 0.5f * (float)fp.height;
  k.pixel_slack = 1.0f / (float)kSubpixel + 4e-6f * (float)std::max(fp.width, fp.height);
  k.between_samples = fp.samples == 1;
}

}  // namespace

MeshletCull make_meshlet_cull(const FrameParams& fp, const ClipPlanes& planes) {
  struct D4 {
    double x, y, z, w;
  };
  auto row = [&](int r) {
    const float* m = fp.view_proj.m;
    return D4{m[r], m[4 + r], m[8 + r], m[12 + r]};
  };
  auto comb = [](D4 a, double sa, D4 b, double sb) {
    return D4{a.x * sa + b.x * sb, a.y * sa + b.y * sb, a.z * sa + b.z * sb, a.w * sa + b.w * sb};
  };
  MeshletCull k{};
  k.enabled = true;
  auto plane = [&](D4 f) {  // the clip-space functional f . (x, y, z, w) as a world-space plane
    double len = std::sqrt(f.x * f.x + f.y * f.y + f.z * f.z);
    if (!(len > 0.0) || !std::isfinite(len) || !std::isfinite(f.w / len)) {
      k.enabled = false;
      return Plane{{0.0f, 0.0f, 0.0f}, 0.0f};
    }
    return Plane{{(float)(f.x / len), (float)(f.y / len), (float)(f.z / len)}, (float)(f.w / len)};
  };
  const D4 r0 = row(0), r1 = row(1), r2 = row(2), r3 = row(3);
  set_between_samples(k, fp);
  // The same order and meaning as plane_distance (clip.h).
  k.clip[0] = plane(comb(r2, 1, r3, 1));
  k.clip[1] = plane(comb(r3, 1, r2, -1));
  k.clip[2] = plane(comb(r0, 1, r3, planes.kx));
  k.clip[3] = plane(comb(r3, planes.kx, r0, -1));
  k.clip[4] = plane(comb(r1, 1, r3, planes.ky));
  k.clip[5] = plane(comb(r3, planes.ky, r1, -1));
  k.side[0] = plane(comb(r0, 1, r3, 1));
  k.side[1] = plane(comb(r3, 1, r0, -1));
  k.side[2] = plane(comb(r1, 1, r3, 1));
  k.side[3] = plane(comb(r3, 1, r1, -1));

  // The eye is where clip x, y and w vanish: solve [r0; r1; r3] (e, 1) = 0 by Cramer's rule.
  auto det3 = [](double a, double b, double c, double d, double e, double f, double g, double h, double i) {
    return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
  };
  const double det = det3(r0.x, r0.y, r0.z, r1.x, r1.y, r1.z, r3.x, r3.y, r3.z);
  const double ex = det3(-r0.w, r0.y, r0.z, -r1.w, r1.y, r1.z, -r3.w, r3.y, r3.z) / det;
  const double ey = det3(r0.x, -r0.w, r0.z, r1.x, -r1.w, r1.z, r3.x, -r3.w, r3.z) / det;
  const double ez = det3(r0.x, r0.y, -r0.w, r1.x, r1.y, -r1.w, r3.x, r3.y, -r3.w) / det;
  if (fp.cull_backfaces && det == 0.0 && r3.x == 0.0 && r3.y == 0.0 && r3.z == 0.0) {
    set_parallel_facing(k, {r0.x, r0.y, r0.z}, {r1.x, r1.y, r1.z}, r3.w);
    return k;
  }
  if (!fp.cull_backfaces || det == 0.0 || !std::isfinite(ex) || !std::isfinite(ey) || !std::isfinite(ez))
    return k;  // facing 0
  k.eye = {(float)ex, (float)ey, (float)ez};
  // det[x y w] of a triangle's clip coordinates is K * dot(n, eye - p0) for a constant K of the
  // matrix, and its sign is the triangle's winding in NDC (w > 0). The triangle eye + (unit
  // axes) has dot(n, eye - p0) = -1, so its det gives -K. Back-facing (clockwise in NDC):
  // K * dot(n, eye - p) < 0, i.e. K * dot(n, p - eye) > 0.
  double xyw[3][3];
  for (int a = 0; a < 3; ++a) {
    double p[3] = {ex, ey, ez};
    p[a] += 1.0;
    const D4 rows[3] = {r0, r1, r3};
    for (int j = 0; j < 3; ++j) xyw[a][j] = rows[j].x * p[0] + rows[j].y * p[1] + rows[j].z * p[2] + rows[j].w;
  }
  const double minus_k =
      det3(xyw[0][0], xyw[0][1], xyw[0][2], xyw[1][0], xyw[1][1], xyw[1][2], xyw[2][0], xyw[2][1], xyw[2][2]);
  k.facing = minus_k < 0.0 ? 1.0f : (minus_k > 0.0 ? -1.0f : 0.0f);
  return k;
}

bool meshlets_may_fall_between_samples(const MeshletCull& k, Vec3 c, float r, uint32_t meshlets) {
  const Vec4 w = k.row[2];
  const double w_near = (double)w.x * c.x + (double)w.y * c.y + (double)w.z * c.z + w.w - (double)r * k.row_reach[2];
  if (!(w_near > 0.0)) return true;  // no estimate: test them
  const double r_px =
      r * std::max(k.row_reach[0] * (double)k.half_width, k.row_reach[1] * (double)k.half_height) / w_near;
  const double disc = 3.14159265358979 * r_px * r_px;
  return !(disc > (double)meshlets * kBetweenSamplesMeshletPixels);
}

void skip_meshlet_cull_when_useless(MeshletCull& k, Vec3 scene_center, float scene_radius, uint32_t meshlets) {
  if (!k.enabled) return;
  if (k.between_samples && !meshlets_may_fall_between_samples(k, scene_center, scene_radius, meshlets))
    k.between_samples = false;
  if (k.facing != 0.0f || k.between_samples) return;
  const float size = coordinate_magnitude(scene_center, scene_radius);
  auto inside = [&](const Plane& pl) { return plane_eval(pl, scene_center) > sphere_reach(pl, scene_radius, size); };
  for (const Plane& pl : k.clip)
    if (!inside(pl)) return;
  for (const Plane& pl : k.side)
    if (!inside(pl)) return;
  k.enabled = false;
}

OcclusionTest make_occlusion_test(const FrameParams& fp, const uint32_t* hiz, const uint32_t* coarse) {
  OcclusionTest o{};
  o.hiz = hiz;
  o.coarse = coarse;
  o.width = fp.width;
  o.height = fp.height;
  o.tiles_x = hiz_tiles(fp.width);
  o.tiles_y = hiz_tiles(fp.height);
  o.coarse_x = hiz_coarse_tiles(fp.width);
  o.coarse_y = hiz_coarse_tiles(fp.height);
  const float* m = fp.view_proj.m;
  for (int i = 0; i < 4; ++i) {
    o.row[i] = {m[i], m[4 + i], m[8 + i], m[12 + i]};
    o.reach[i] = std::sqrt(m[i] * m[i] + m[4 + i] * m[4 + i] + m[8 + i] * m[8 + i]);
  }
  const double w2 = (double)m[3] * m[3] + (double)m[7] * m[7] + (double)m[11] * m[11];
  const double alpha = w2 > 0.0 ? ((double)m[2] * m[3] + (double)m[6] * m[7] + (double)m[10] * m[11]) / w2 : 0.0;
  const double rest[4] = {m[2] - alpha * m[3], m[6] - alpha * m[7], m[10] - alpha * m[11], m[14] - alpha * m[15]};
  o.alpha = (float)alpha;
  o.rest = {(float)rest[0], (float)rest[1], (float)rest[2], (float)rest[3]};
  o.rest_reach = (float)std::sqrt(rest[0] * rest[0] + rest[1] * rest[1] + rest[2] * rest[2]);
  return o;
}

PixelBox scene_pixel_box(const FrameParams& fp, Vec3 center, float radius) {
  const SphereProjection s = project_sphere(make_occlusion_test(fp, nullptr, nullptr), center, radius);
  if (!s.bounded) return {0, 0, fp.width - 1, fp.height - 1};
  return {s.px0, s.py0, s.px1, s.py1};
}

}  // namespace facet
