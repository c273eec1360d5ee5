// What the patch grouping (meshlets.h) needs to grow patches on every core: the triangles in
// spatial order, cut into ranges that are grown apart. Not the growing itself, nor the
// neighbours within a range (meshlet_patches.cpp).
//
// A range of the file's order is no patch of surface (a scanner scatters neighbours over the
// file: the bunny's patches grown in ranges of it need 1.00 vertices a triangle, against 0.70
// grown over the whole mesh); a range of the triangles sorted along a Morton curve through their
// centroids is a compact piece of space, so only the patches along its border are cut short.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/meshlets/meshlet_memory.h"
#include "engine/meshlets/meshlets.h"
#include "engine/scene/scene.h"

namespace facet {

struct PatchRanges {
  // [triangle_count]: scene triangles by the Morton code of their centroid (10 bits an axis over
  // the positions' bounding cube), equal codes by index. A triangle's place here is its "rank".
  // A bare array: a vector's zero fill would be a pass on one thread (meshlet_memory.h).
  std::unique_ptr<uint32_t[]> order;
  // [ranges + 1]: range r holds ranks first_rank[r] .. first_rank[r + 1] - 1; kPatchRangeTriangles
  // a range or near it, whatever the number of threads.
  std::vector<uint32_t> first_rank;
};

// The same result for any number of threads. Indices must be below scene.vertex_count(). The
// scratch arrays are handed to `release` (freed while the caller goes on). `given` (meshlets.h)
// is asked for the order first, when there is one.
PatchRanges patch_ranges(const Scene& scene, BackgroundRelease& release, const OrderSource& given = nullptr);

}  // namespace facet
