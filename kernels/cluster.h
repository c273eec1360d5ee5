// Culling a whole meshlet before any per-triangle work, from its bounding sphere and normal
// cone (params.h): dropped when the sphere lies outside one clip plane, or inside them all but
// beyond one edge of the frame, or when every triangle faces away from the eye by a margin.
//
// Conservative by construction: each rule drops only meshlets whose every triangle the
// per-triangle front end (triangle.h) would drop too, and counts them the same way ("culled").
// The one exception is deliberate: a back-facing triangle so small or so nearly edge-on that
// snapping its vertices to 1/256 px turns it round is dropped here, as its geometry says, where
// the per-triangle test would draw it. Both backends run this test, so they agree to the pixel.
#pragma once
#include <cmath>

#include "clip.h"

namespace facet {

// Slack for the float rounding between this test and the per-vertex projection, relative to
// the magnitudes involved (about 1000 float ulps).
constexpr float kClusterSlack = 1e-4f;
// A meshlet is culled as back-facing only when every triangle's plane is turned away from the
// eye by at least this sine of an angle (0.6 degrees): nearly edge-on triangles go through the
// per-triangle test, which sees their snapped pixels.
constexpr float kConeSlack = 1e-2f;

// A world-space plane: dot(n, p) + d, n of unit length, >= 0 inside.
struct Plane {
  Vec3 n;
  float d;
};

struct ClusterCull {
  Plane clip[kClipPlanes];  // the clip volume of clip.h (near, far, guard band), world space
  Plane side[4];            // the planes through the frame's four edges, world space
  Vec3 eye;                 // centre of projection, world space
  float facing;             // +1 or -1: the sign s for which s * dot(n, p - eye) > 0 means a
                            //   triangle with right-handed normal n through p is back-facing;
                            //   0: no back-face culling (turned off, or no finite eye)
  bool enabled;             // false when the matrix has a degenerate plane: test every triangle
};

FACET_HD float plane_eval(const Plane& p, Vec3 v) { return dot(p.n, v) + p.d; }

// The magnitude of a sphere's coordinates, which the float rounding of the tests scales with.
FACET_HD float sphere_size(Vec3 c, float r) { return fabsf(c.x) + fabsf(c.y) + fabsf(c.z) + r; }
// How far a sphere of radius r reaches across plane p, rounding included: the sphere is wholly
// on the inside when plane_eval at its centre exceeds this, wholly outside below its negative.
FACET_HD float sphere_reach(const Plane& p, float r, float size) { return r + kClusterSlack * (size + fabsf(p.d)); }

// True when no triangle of meshlet m can put a pixel on screen (see the top of this file).
FACET_HD bool meshlet_culled(const ClusterCull& k, const Meshlet& m) {
  if (!k.enabled) return false;
  const Vec3 c = m.center;
  const float r = m.radius;  // NaN for a meshlet with a non-finite vertex: every test below fails
  const float size = sphere_size(c, r);
  bool inside = true;
  for (int i = 0; i < kClipPlanes; ++i) {
    float reach = sphere_reach(k.clip[i], r, size);
    float d = plane_eval(k.clip[i], c);
    if (d < -reach) return true;  // every vertex outside plane i
    inside = inside && d > reach;
  }
  // Beyond here every vertex is inside every clip plane: the per-triangle path neither clips
  // nor counts anything but culled, and every w is positive, so facing follows the geometry.
  if (!inside) return false;
  for (int i = 0; i < 4; ++i) {
    if (plane_eval(k.side[i], c) < -sphere_reach(k.side[i], r, size)) return true;  // no pixel centre on this side
  }
  if (k.facing == 0.0f) return false;
  // Every normal n is within the cone's angle a of the axis, every point p within r of c:
  // s * dot(n, p - eye) >= |c - eye| cos(theta + a) - r, theta the angle between axis and c - eye.
  const Vec3 d = c - k.eye;
  const float l2 = dot(d, d);
  const float along = k.facing * dot(m.cone_axis, d);           // |c - eye| cos(theta)
  const float across = sqrtf(fmaxf(l2 - along * along, 0.0f));  // |c - eye| sin(theta)
  return along * m.cone_cos - across * m.cone_sin > r + kConeSlack * (sqrtf(l2) + r);
}

// Whole-meshlet tests can drop nothing when back faces are kept and the scene's bounding sphere
// lies inside every clip plane and every side of the frame: turned off for such a frame, so that
// no thread spends time on them. (Turning them off never changes the image or the counts: they
// only drop what the per-triangle tests would drop, back faces apart.)
inline void skip_cluster_cull_when_useless(ClusterCull& k, Vec3 scene_center, float scene_radius) {
  if (!k.enabled || k.facing != 0.0f) return;
  const float size = sphere_size(scene_center, scene_radius);
  auto inside = [&](const Plane& pl) { return plane_eval(pl, scene_center) > sphere_reach(pl, scene_radius, size); };
  for (const Plane& pl : k.clip)
    if (!inside(pl)) return;
  for (const Plane& pl : k.side)
    if (!inside(pl)) return;
  k.enabled = false;
}

// The planes, eye and facing of a frame. Host side, in double precision, once a frame.
inline ClusterCull make_cluster_cull(const FrameParams& fp, const ClipPlanes& planes) {
  struct D4 { double x, y, z, w; };
  auto row = [&](int r) {
    const float* m = fp.view_proj.m;
    return D4{m[r], m[4 + r], m[8 + r], m[12 + r]};
  };
  auto comb = [](D4 a, double sa, D4 b, double sb) {
    return D4{a.x * sa + b.x * sb, a.y * sa + b.y * sb, a.z * sa + b.z * sb, a.w * sa + b.w * sb};
  };
  ClusterCull k{};
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
  const double minus_k = det3(xyw[0][0], xyw[0][1], xyw[0][2], xyw[1][0], xyw[1][1], xyw[1][2],
                              xyw[2][0], xyw[2][1], xyw[2][2]);
  k.facing = minus_k < 0.0 ? 1.0f : (minus_k > 0.0 ? -1.0f : 0.0f);
  return k;
}

}  // namespace facet
