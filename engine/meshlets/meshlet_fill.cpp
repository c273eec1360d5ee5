// join_meshlets (meshlet_fill.h): parts grouped apart, copied into one Meshlets in part order,
// every part's offsets moved by the sizes of the parts before it; the copying spread over cores,
// into arrays left unwritten until then (meshlet_memory.h).
#include "engine/meshlets/meshlet_fill.h"

#include <algorithm>

#include "engine/base/parallel.h"
#include "engine/meshlets/meshlet_memory.h"

namespace facet {

Meshlets join_meshlets(std::vector<Meshlets>& parts) {
  const size_t n = parts.size();
  // Where each part starts in the joined arrays.
  std::vector<size_t> meshlet0(n + 1, 0), triangle0(n + 1, 0), vertex0(n + 1, 0);
  bool ids = false;
  for (size_t p = 0; p < n; ++p) {
    meshlet0[p + 1] = meshlet0[p] + parts[p].meshlets.size();
    triangle0[p + 1] = triangle0[p] + parts[p].triangles.size();
    vertex0[p + 1] = vertex0[p] + parts[p].positions.size();
    ids = ids || !parts[p].triangle_ids.empty();
  }
  // Unwritten (BigVector): the parts' copies below cover every element, and first touch the pages
  // on every core.
  Meshlets out;
  out.meshlets.resize(meshlet0[n]);
  out.triangles.resize(triangle0[n]);
  out.positions.resize(vertex0[n]);
  if (ids) out.triangle_ids.resize(triangle0[n]);
  parallel_for(n, 1, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t p = begin; p < end; ++p) {
      Meshlets& part = parts[p];
      for (size_t i = 0; i < part.meshlets.size(); ++i) {
        Meshlet m = part.meshlets[i];
        m.first_triangle += (uint32_t)triangle0[p];
        m.first_vertex += (uint32_t)vertex0[p];
        out.meshlets[meshlet0[p] + i] = m;
      }
      std::copy(part.triangles.begin(), part.triangles.end(), out.triangles.begin() + triangle0[p]);
      std::copy(part.positions.begin(), part.positions.end(), out.positions.begin() + vertex0[p]);
      if (ids)  // else out.triangle_ids is empty: no offset into it, not even by nothing
        std::copy(part.triangle_ids.begin(), part.triangle_ids.end(), out.triangle_ids.begin() + triangle0[p]);
      part = Meshlets();
    }
  });
  return out;
}

}  // namespace facet
