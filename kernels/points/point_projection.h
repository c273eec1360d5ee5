// The seed's point projection done right, shared by the CPU loop and the CUDA kernel:
// view = R (p - shift), then pixel = focus * view.xy / depth + center with depth = -view.z
// (view space looks down -Z, design.md) and image y pointing down (row 0 = top), so that R and
// shift taken from a facet Camera (R = the view matrix's rotation rows, shift = eye) put every
// point on the pixel the renderer draws it at. Points with depth <= near are flagged invalid and
// get NaN pixel coordinates: never divided, never mirrored (the seed's abs(z) mirrors them).
// Not the mesh pipeline's projection (project.h: clip space, snapping); this one is for points.
#pragma once
#include "kernels/frame/params.h"

namespace facet {

struct PointProjectionParams {
  const float* points;  // [count][3] world positions, contiguous float32
  float* xy;            // [count][2] pixel coordinates (x right, y down), NaN where invalid
  float* depth;         // [count] view-space depth = -view.z, world units (written for every point)
  uint8_t* valid;       // [count] 1 where depth > near, else 0
  uint64_t count;       // number of points
  float r[9];           // rotation, row-major: view = R (p - shift)
  Vec3 shift;           // camera position, world units
  float focus;          // focal length in pixels
  Vec2 center;          // pixel coordinates of the optical axis (cx, cy)
  float near_plane;     // points at depth <= near_plane are invalid, world units (>= 0)
};

struct ProjectedPoint {
  float x, y;   // pixel coordinates, NaN when invalid
  float depth;  // -view.z
  uint8_t valid;
};

// The same float operations in the same order on host and device (no contraction: the build
// forbids FMA fusion), so both backends give identical bits.
FACET_HD ProjectedPoint project_point(const PointProjectionParams& p, float px, float py, float pz) {
  const float dx = px - p.shift.x, dy = py - p.shift.y, dz = pz - p.shift.z;
  const float vx = p.r[0] * dx + p.r[1] * dy + p.r[2] * dz;
  const float vy = p.r[3] * dx + p.r[4] * dy + p.r[5] * dz;
  const float vz = p.r[6] * dx + p.r[7] * dy + p.r[8] * dz;
  const float depth = -vz;
  // Written as !(a > b) so that a NaN depth is invalid too.
  if (!(depth > p.near_plane)) return {NAN, NAN, depth, 0};
  const float s = p.focus / depth;
  return {vx * s + p.center.x, p.center.y - vy * s, depth, 1};
}

}  // namespace facet
