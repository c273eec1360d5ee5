// Meshlets (params.h): the scene's triangles cut, in their order, into runs of at most
// kMeshletMaxTriangles that use at most kMeshletMaxVertices distinct vertices, each run with a
// copy of its vertices' positions (what the CUDA geometry stage reads) and a bounding sphere and
// normal cone (what both backends cull whole meshlets by, cluster.h). Triangle order (and so every
// triangle's index, which breaks depth ties) is kept: a meshlet is a window onto the scene, not
// a reordering of it.
#pragma once
#include <vector>

#include "engine/scene.h"

namespace facet {

struct Meshlets {
  std::vector<Meshlet> meshlets;
  std::vector<Vec3> positions;      // each meshlet's vertices, in the order its local indices use
  std::vector<uint32_t> triangles;  // one per scene triangle: packed local indices (local_index)

  size_t byte_size() const {
    return meshlets.size() * sizeof(Meshlet) + positions.size() * sizeof(Vec3) + triangles.size() * sizeof(uint32_t);
  }
};

// Greedy: a meshlet closes when the next triangle would exceed either limit. Throws
// std::invalid_argument when an index is out of range (a scene the loader would have refused).
Meshlets build_meshlets(const Scene& scene);

}  // namespace facet
