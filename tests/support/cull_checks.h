// Checking whole-meshlet culling against the per-triangle front end (meshlet culling's property:
// what a culled meshlet holds, the triangle test culls too, or it is back-facing before snapping),
// and the scene's pixel box against the pixels a frame covers, shared by the perspective and
// orthographic culling tests.
#pragma once
#include <cstddef>
#include <functional>

#include "engine/meshlets/meshlets.h"
#include "engine/render/renderer.h"
#include "engine/scene/scene.h"
#include "kernels/frame/geometry/meshlet_cull.h"
#include "kernels/frame/geometry/occlusion.h"

namespace facet::test {

struct CulledMeshletTally {
  size_t meshlets = 0;   // meshlets looked at
  size_t culled = 0;     // of them culled whole
  size_t triangles = 0;  // triangles in the culled meshlets
  size_t drawn = 0;      // of them, ones the per-triangle front end would still draw
};

// Runs the per-triangle front end (project_and_snap, process_triangle) on every triangle of every
// meshlet that `cull` culls, failing the test where one would count as clipped or NaN (then it
// would not count as culled), and calls `on_drawn(t)` for each triangle t it would draw.
CulledMeshletTally check_culled_meshlets(const Scene& s, const Meshlets& m, const FrameParams& fp,
                                         const MeshletCull& cull, const std::function<void(uint32_t)>& on_drawn);

// Draws the frame `fp` with `r` and counts its covered pixels, and those of them outside `box`
// (what scene_pixel_box promises never happens: a covered pixel outside it).
struct BoxCoverage {
  size_t covered = 0;  // pixels some triangle covers
  size_t outside = 0;  // of them, outside the box
};
BoxCoverage covered_pixels_against_box(Renderer& r, const FrameParams& fp, const PixelBox& box);

}  // namespace facet::test
