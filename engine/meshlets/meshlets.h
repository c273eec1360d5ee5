// Meshlets (params.h): the scene's triangles grouped by at most kMeshletMaxTriangles, each
// group with a copy of its vertices' positions (what the CUDA geometry stage reads) and a bounding
// sphere and normal cone (what both backends cull whole meshlets by, meshlet_cull.h). Each slot keeps
// its scene triangle's index: that index, not the slot, goes into visibility keys, so depth ties
// still go to the lower scene index. A load renumbers the scene in the order of its patches
// (triangle_renumber.h), after which slot i holds triangle i, as for runs.
//
// Two groupings (build_meshlets picks):
//  - runs of the file's triangles, in order: right for meshes already in strip order or better
//    (a generated UV sphere: about one new vertex a triangle), whose consecutive triangles share
//    consecutive vertices, the way a geometry warp reads them;
//  - compact patches grown from a seed by the neighbours that add the fewest new vertices: for
//    scans, whose file order scatters vertices (runs need 1.26 vertices a triangle on the dragon,
//    2.03 on the bunny; patches about 0.67: every vertex is projected once per meshlet holding it).
// Which is faster for which mesh is measured in docs/performance.md; the thresholds are in
// kernels/frame/tuning.h (kKeepFileOrder, kPatchMaxVertices).
#pragma once
#include <atomic>
#include <functional>
#include <memory>
#include <vector>

#include "engine/scene/scene.h"
#include "kernels/frame/tuning.h"

namespace facet {

struct Meshlets {
  BigVector<Meshlet> meshlets;       // (big_vector.h: growing one leaves new elements unwritten)
  BigVector<Vec3> positions;         // each meshlet's vertices, in the order its local indices use
  BigVector<uint32_t> triangles;     // per slot (meshlet order): packed local indices (local_index)
  BigVector<uint32_t> triangle_ids;  // per slot: the scene triangle it holds; each appears once.
                                     //   Empty for runs in file order: slot i holds triangle i

  size_t byte_size() const {
    return meshlets.size() * sizeof(Meshlet) + positions.size() * sizeof(Vec3) +
           (triangles.size() + triangle_ids.size()) * sizeof(uint32_t);
  }
};

// The scene triangle in meshlet slot `slot`.
inline uint32_t scene_triangle(const Meshlets& m, uint32_t slot) {
  return m.triangle_ids.empty() ? slot : m.triangle_ids[slot];
}

// What a long build is told and tells while grouping (the loader's cancel flag and its progress
// bar). Both may be empty. A build that finds cancel set stops early and returns an incomplete
// result, which the caller must discard.
// Another way to the patch meshlets' Morton order (PatchRanges::order, meshlet_ranges.h; the
// device's sort, Renderer::centroid_order_ahead): the very same array, or null when it has none.
using OrderSource = std::function<std::unique_ptr<uint32_t[]>(const Scene&)>;

struct MeshletBuildHooks {
  const std::atomic<bool>* cancel = nullptr;
  std::function<void(uint64_t triangles_grouped)> progress;  // now and then, on the building thread
  // Where patches are built, asked once on the building thread for the order; null, or a null
  // answer, and the CPU sorts.
  OrderSource centroid_order;
  // Which grouping to build (scene.h): Auto decides by the file's order, FileOrder always runs.
  MeshletGrouping grouping = MeshletGrouping::Auto;
};

// All three give the same result for any number of threads (worker_count), and throw
// std::invalid_argument when an index is out of range (a scene the loader would have refused).
// Runs if they are strip-like (keeps_file_order), else patches.
Meshlets build_meshlets(const Scene& scene);
// The same, or runs whatever the order for hooks.grouping FileOrder, told and telling through
// `hooks` (the loader's preparing stage).
Meshlets build_meshlets_with(const Scene& scene, const MeshletBuildHooks& hooks);
// The scene's prepared meshlets (Scene::meshlets) when it has them, else those `grouping` builds.
std::shared_ptr<const Meshlets> scene_meshlets(const Scene& scene, MeshletGrouping grouping = MeshletGrouping::Auto);
// Whether runs of the file's order need at most kKeepFileOrder vertices a triangle, judged on
// evenly spaced stretches of it: what build_meshlets decides by.
bool keeps_file_order(const Scene& scene);
// Whether `m`, built for `scene` with either grouping, is what a load asking for `wanted` would
// build, or as good for it: every grouping serves FileOrder (the CPU backend draws patches within
// a few percent of runs: docs/performance.md), and Auto takes runs only where the file keeps its
// order (a scene cache written for the CPU backend is not what the CUDA one should draw a scan
// from).
bool meshlets_serve(const Meshlets& m, const Scene& scene, MeshletGrouping wanted);
// Runs in file order: a meshlet closes when the next triangle would pass either format limit, and
// at every 65536th triangle (kRunChunk: chunks are grouped on every core).
Meshlets build_meshlet_runs(const Scene& scene);
// Patches: a meshlet closes at kMeshletMaxTriangles or when its next triangle would pass
// kPatchMaxVertices. The triangles are sorted along a Morton curve through their centroids and
// cut into ranges of about kPatchRangeTriangles, grown apart on every core (meshlet_ranges.h). A
// patch that runs out of neighbours (a pocket left between patches, or a range's border) is
// filled up with the range's next triangles in that order rather than closed small: about one
// meshlet in ten then spans two places (bounds that cull less), against a fifth more meshlets,
// each a block's bookkeeping. Slots stay in the order the patch grew, each beside the ones before
// it: reordering them along a curve over the patch costs the build more than it saves the frame
// (docs/performance.md has the measurement).
Meshlets build_meshlet_patches(const Scene& scene);

}  // namespace facet
