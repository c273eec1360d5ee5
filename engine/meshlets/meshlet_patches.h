// The patch grouping of meshlets.h, on every core: one grower a range of triangles in spatial
// order (meshlet_ranges.h), the ranges' meshlets joined in range order, so the result is the same
// for any number of threads; each range's bounds (finish_meshlets) by the task that grew it.
#pragma once
#include "engine/meshlets/meshlets.h"

namespace facet {

// The scene's triangles grouped into patches, finished. Indices
// must have been checked. Stops early when hooks.cancel is set (an incomplete result); calls
// hooks.progress now and then on the calling thread.
Meshlets group_patches(const Scene& scene, const MeshletBuildHooks& hooks);

}  // namespace facet
