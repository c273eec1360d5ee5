#include "engine/meshlets.h"

#include <stdexcept>
#include <string>

namespace facet {

Meshlets build_meshlets(const Scene& scene) {
  Meshlets out;
  const uint32_t tris = scene.triangle_count(), verts = scene.vertex_count();
  out.triangles.reserve(tris);
  out.positions.reserve(tris);  // about one vertex per triangle for meshes in strip order
  out.meshlets.reserve(tris / 200 + 1);
  std::vector<int32_t> local(verts, -1);  // scene vertex -> index in the open meshlet
  std::vector<uint32_t> used;             // scene vertices of the open meshlet, to reset `local`
  Meshlet cur{0, 0, 0, 0};
  auto close = [&] {
    if (cur.triangle_count) out.meshlets.push_back(cur);
    for (uint32_t g : used) local[g] = -1;
    used.clear();
  };
  for (uint32_t t = 0; t < tris; ++t) {
    const uint32_t* g = &scene.indices[3 * (size_t)t];
    int fresh = 0;
    for (int k = 0; k < 3; ++k) {
      if (g[k] >= verts)
        throw std::invalid_argument("triangle " + std::to_string(t) + " uses vertex " + std::to_string(g[k]) +
                                    " of " + std::to_string(verts));
      bool repeat = (k > 0 && g[k] == g[0]) || (k > 1 && g[k] == g[1]);
      fresh += local[g[k]] < 0 && !repeat;
    }
    if (cur.triangle_count == kMeshletMaxTriangles || cur.vertex_count + fresh > kMeshletMaxVertices) {
      close();
      cur = {t, (uint32_t)out.positions.size(), 0, 0};
    }
    uint32_t packed = 0;
    for (int k = 0; k < 3; ++k) {
      if (local[g[k]] < 0) {
        local[g[k]] = cur.vertex_count++;
        used.push_back(g[k]);
        out.positions.push_back(scene.positions[g[k]]);
      }
      packed |= (uint32_t)local[g[k]] << (8 * k);
    }
    out.triangles.push_back(packed);
    ++cur.triangle_count;
  }
  close();
  return out;
}

}  // namespace facet
