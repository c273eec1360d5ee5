// The camera as per-pixel work sees it, for both projections (FrameParams::orthographic): where
// the viewer is as seen from a surface point (the headlight's direction) and how far along the
// pixel's ray a surface point lies. A perspective frame has an eye point; an orthographic one only
// a view direction, its rays parallel and starting on the plane through `eye` facing view_dir.
// Not projection to pixels (project.h) nor the culling tests' view of the camera (meshlet_cull.h).
#pragma once
#include "kernels/frame/params.h"

namespace facet {

// The direction from surface point p towards the viewer, not normalized: towards the eye in
// perspective, against the view direction in orthographic (p is not read there).
FACET_HD Vec3 toward_viewer(const FrameParams& fp, Vec3 p) {
  return fp.orthographic ? Vec3{-fp.view_dir.x, -fp.view_dir.y, -fp.view_dir.z} : fp.eye - p;
}

// Distance from the ray's origin to surface point p along the pixel's ray, world units: from the
// eye in perspective, from the plane through the eye in orthographic (its view-space depth).
FACET_HD float ray_distance(const FrameParams& fp, Vec3 p) {
  return fp.orthographic ? dot(p - fp.eye, fp.view_dir) : length(p - fp.eye);
}

}  // namespace facet
