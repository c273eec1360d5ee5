// Double-precision oracles for tests: the camera's frame as glm::lookAt and glm::perspective
// build it, rays through window positions and pixel centres, a ray caster that gives the nearest
// triangle at every pixel centre, and the image line of a plane through the eye. Written here,
// not taken from a package, because they must follow the renderer's own camera conventions
// (row 0 at the top, view depth along the view direction). Not a renderer: the ray caster costs
// pixels x triangles, for small frames and scenes only.
#pragma once
#include <glm/glm.hpp>

#include <cstdint>
#include <vector>

#include "engine/render/renderer.h"

namespace facet::test {

// The id of a pixel no triangle covers (as read_triangle_ids gives it).
constexpr uint32_t kNoTriangle = ~0u;

inline glm::dvec3 to_dvec3(Vec3 v) { return {v.x, v.y, v.z}; }

// The camera's frame in double precision.
struct CameraBasis {
  glm::dvec3 eye, f, r, u;  // eye; forward, right and up unit vectors
  double tx, ty;            // tangents of the half fields of view (x, y)
  int width, height;        // frame, pixels
  CameraBasis(const Camera& c, int w, int h);
  // Direction through window position (wx, wy) (pixels, y down), scaled so that its view depth is 1.
  glm::dvec3 window_ray(double wx, double wy) const;
  // The same through the centre of pixel (x, y).
  glm::dvec3 ray(int x, int y) const { return window_ray(x + 0.5, y + 0.5); }
};

// Distance along the line origin + s * dir (s in units of |dir|) to the plane of triangle
// (a, b, c); infinite or NaN where the line runs parallel to it.
double plane_distance(glm::dvec3 origin, glm::dvec3 dir, glm::dvec3 a, glm::dvec3 b, glm::dvec3 c);

// Ray casting through every pixel centre: the nearest triangle whose hit lies between the near
// and far planes (view depth), ties to the lower index; kNoTriangle where none. Triangles with
// a non-finite vertex are skipped.
std::vector<uint32_t> ray_cast(const Scene& s, const Camera& c, int width, int height);

// Largest distance, in pixels, from a covered pixel centre of `ids` to the image of the plane
// through the eye with normal n (a line: such a plane is seen exactly edge-on). 0 when nothing
// is covered.
double max_distance_from_plane_line(const std::vector<uint32_t>& ids, const CameraBasis& cb, glm::dvec3 n);

}  // namespace facet::test
