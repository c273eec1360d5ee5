// What the host computes once a frame, in double precision where it matters, for the tests the
// kernels run per meshlet and per pixel: the world-space clip planes and eye of whole-meshlet
// culling (kernels/frame/geometry/meshlet_cull.h), the projection rows of occlusion culling
// (kernels/frame/geometry/occlusion.h) and the pixels the scene can reach (what resolve reads).
// Both backends call these; the per-element tests themselves stay in kernels/.
#pragma once
#include "kernels/frame/geometry/meshlet_cull.h"
#include "kernels/frame/geometry/occlusion.h"

namespace facet {

// The planes, eye and facing of a frame, and the rows of the test between samples (meshlet_cull.h).
// facing is 0 unless fp.cull_backfaces.
MeshletCull make_meshlet_cull(const FrameParams& fp, const ClipPlanes& planes);

// The scene's `meshlets` share its bounding sphere's disc on screen thinly enough that some may
// fall between the samples (at most kBetweenSamplesMeshletPixels each on average), or the disc
// cannot be estimated: sphere_between_samples (meshlet_cull.h) is worth its test.
bool meshlets_may_fall_between_samples(const MeshletCull& k, Vec3 scene_center, float scene_radius, uint32_t meshlets);

// The test between samples is turned off where the scene's meshlets are too large on screen to
// fall between samples (above). Whole-meshlet tests can then drop nothing when back faces are
// kept and the scene's bounding sphere lies inside every clip plane and every side of the frame:
// turned off for such a frame, so that no thread spends time on them. Never a change of image.
void skip_meshlet_cull_when_useless(MeshletCull& k, Vec3 scene_center, float scene_radius, uint32_t meshlets);

// What occlusion culling's second pass tests meshlets against (hiz and coarse may be null where
// only the projection is wanted).
OcclusionTest make_occlusion_test(const FrameParams& fp, const uint32_t* hiz, const uint32_t* coarse);

// The pixels a scene whose vertices lie in the sphere (center, radius) can cover in frame fp:
// the sphere's projection (every triangle and clipped piece lies inside the sphere), or the whole
// frame when the sphere reaches the eye's plane. Resolve reads no key outside it: at 28 % of the
// frame the bench's sphere leaves two thirds of the pixels background without a load.
PixelBox scene_pixel_box(const FrameParams& fp, Vec3 center, float radius);

}  // namespace facet
