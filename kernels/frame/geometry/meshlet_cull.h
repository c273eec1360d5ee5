// Culling a whole meshlet before any per-triangle work, from its bounding sphere and normal
// cone (params.h): dropped when the sphere lies outside one clip plane, or inside them all but
// beyond one edge of the frame, or between the pixel centres of a 1-sample frame (a dense model
// seen small: its box on screen holds none), or when every triangle faces away from the eye
// (orthographic: from the view direction) by a margin.
//
// Conservative by construction: each rule drops only meshlets whose every triangle the
// per-triangle front end (triangle.h) would drop too, and counts them the same way ("culled").
// The one exception is deliberate: a back-facing triangle so small or so nearly edge-on that
// snapping its vertices to 1/256 px turns it round is dropped here, as its geometry says, where
// the per-triangle test would draw it. Both backends run this test, so they agree to the pixel.
#pragma once
#include <cmath>

#include "kernels/frame/geometry/clip.h"

namespace facet {

// Slack for the float rounding between this test and the per-vertex projection, relative to
// the magnitudes involved (about 1000 float ulps).
constexpr float kMeshletCullSlack = 1e-4f;
// A meshlet is culled as back-facing only when every triangle's plane is turned away from the
// eye by at least this sine of an angle (0.6 degrees): nearly edge-on triangles go through the
// per-triangle test, which sees their snapped pixels.
constexpr float kConeSlack = 1e-2f;

// A world-space plane: dot(n, p) + d, n of unit length, >= 0 inside.
struct Plane {
  Vec3 n;
  float d;
};

struct MeshletCull {
  Plane clip[kClipPlanes];  // the clip volume of clip.h (near, far, guard band), world space
  Plane side[4];            // the planes through the frame's four edges, world space
  Vec3 eye;                 // centre of projection, world space; when `parallel`, a unit
                            //   vector along the rays instead (either way: facing has the sign)
  float facing;             // +1 or -1: the sign s for which s * dot(n, p - eye) > 0 (parallel:
                            //   s * dot(n, eye) > 0) means a triangle with right-handed normal n
                            //   through p is back-facing; 0: no back-face culling (turned off,
                            //   or no centre of projection)
  bool parallel;            // an orthographic frame (clip w constant): eye is a direction
  bool enabled;             // false when the matrix has a degenerate plane: test every triangle
  // The test between samples (sphere_between_samples), on when `between_samples`:
  Vec4 row[3];           // the view_proj rows of clip x, y and w: coordinate = row . (p, 1)
  float row_reach[3];    // |row[i].xyz|: how far that coordinate moves a unit of distance
  float half_width;      // pixels a unit of NDC x: width / 2
  float half_height;     // pixels a unit of NDC y: height / 2
  float pixel_slack;     // pixels each way a snapped vertex may lie past the sphere's
                         //   projection: the snap and the float rounding
  bool between_samples;  // a 1-sample frame, some of whose meshlets may fall between pixel
                         //   centres (make_meshlet_cull's caller turns it off where none
                         //   can: skip_meshlet_cull_when_useless)
};

FACET_HD float plane_eval(const Plane& p, Vec3 v) { return dot(p.n, v) + p.d; }

// The largest magnitude a coordinate of a point in the sphere can have (bounded by the sum): the
// float rounding of the tests scales with it.
FACET_HD float coordinate_magnitude(Vec3 c, float r) { return fabsf(c.x) + fabsf(c.y) + fabsf(c.z) + r; }
// How far a sphere of radius r reaches across plane p, rounding included: the sphere is wholly
// on the inside when plane_eval at its centre exceeds this, wholly outside below its negative.
FACET_HD float sphere_reach(const Plane& p, float r, float size) { return r + kMeshletCullSlack * (size + fabsf(p.d)); }

// Whether the projection of a sphere (c, r) wholly inside the clip volume, once every point of it
// is projected and snapped as the vertex stage does, holds no pixel centre along x or none along
// y: setup then culls every triangle inside it (its box holds no pixel centre), and the meshlet
// can go without its vertices being read. For 1-sample frames only: at 4 or 8 samples setup
// grows a box by the pattern's reach, and the test compiled into those kernels makes them
// slower without culling enough to pay (docs/performance.md). The
// bounds are those of occlusion.h's project_sphere (a clip coordinate over the sphere, rounding
// included), in pixels instead of whole pixels. False whenever a bound is not finite.
FACET_HD bool sphere_between_samples(const MeshletCull& k, Vec3 c, float r, float size) {
  const float rr = r + kMeshletCullSlack * size;
  float lo[3], hi[3];
  for (int i = 0; i < 3; ++i) {
    const Vec4 a = k.row[i];
    const float v = fmaf(a.x, c.x, fmaf(a.y, c.y, fmaf(a.z, c.z, a.w)));
    const float d = rr * k.row_reach[i] + kMeshletCullSlack * (fabsf(v) + fabsf(a.w));
    lo[i] = v - d;
    hi[i] = v + d;
  }
  const float w_lo = lo[2], w_hi = hi[2];
  if (!(w_lo > 0.0f) || !(w_hi < 3.0e38f)) return false;
  // Most meshlets of most frames span about a pixel or more each way: out before any division
  // (a rough test, and keeping a meshlet is always safe).
  if ((hi[0] - lo[0]) * k.half_width >= w_hi && (hi[1] - lo[1]) * k.half_height >= w_hi) return false;
  // x / w over the box of x and w (the larger w where x >= 0 gives the lower bound, and so on).
  auto ratio_lo = [&](float x) { return x / (x >= 0.0f ? w_hi : w_lo); };
  auto ratio_hi = [&](float x) { return x / (x >= 0.0f ? w_lo : w_hi); };
  // No pixel centre (an integer + 0.5) within [p0, p1] grown by the slack; NaN: false.
  auto no_centre = [&](float p0, float p1) {
    return floorf(p1 + k.pixel_slack - 0.5f) < ceilf(p0 - k.pixel_slack - 0.5f);
  };
  // Window x = (ndc x + 1) * width / 2; window y = (1 - ndc y) * height / 2 (row 0 at the top).
  const float x0 = (ratio_lo(lo[0]) + 1.0f) * k.half_width, x1 = (ratio_hi(hi[0]) + 1.0f) * k.half_width;
  const float y0 = (1.0f - ratio_hi(hi[1])) * k.half_height, y1 = (1.0f - ratio_lo(lo[1])) * k.half_height;
  return no_centre(x0, x1) || no_centre(y0, y1);
}

// True when no triangle of meshlet m can put a pixel on screen (see the top of this file).
// kBetweenSamples false compiles the test between samples out (the CUDA kernels of 4 and 8
// samples, whose frames never turn it on).
template <bool kBetweenSamples = true>
FACET_HD bool meshlet_culled(const MeshletCull& k, const Meshlet& m) {
  if (!k.enabled) return false;
  const Vec3 c = m.center;
  const float r = m.radius;  // NaN for a meshlet with a non-finite vertex: every test below fails
  const float size = coordinate_magnitude(c, r);
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
  if (kBetweenSamples && k.between_samples && sphere_between_samples(k, c, r, size)) return true;
  if (k.facing == 0.0f) return false;
  // Every normal n is within the cone's angle a of the axis, every point p within r of c:
  // s * dot(n, p - eye) >= |c - eye| cos(theta + a) - r, theta the angle between axis and c - eye.
  // Parallel (orthographic): every ray has the view direction, so d is that unit direction for
  // every point and the sphere's extent drops out (s * dot(n, d) >= cos(theta + a)).
  const Vec3 d = k.parallel ? k.eye : c - k.eye;
  const float spread = k.parallel ? 0.0f : r;
  const float l2 = dot(d, d);
  const float along = k.facing * dot(m.cone_axis, d);           // |d| cos(theta)
  const float across = sqrtf(fmaxf(l2 - along * along, 0.0f));  // |d| sin(theta)
  return along * m.cone_cos - across * m.cone_sin > spread + kConeSlack * (sqrtf(l2) + spread);
}

}  // namespace facet
