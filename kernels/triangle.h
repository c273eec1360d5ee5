// The per-triangle front end shared by both backends: fetch the three projected vertices, drop
// NaN/Inf, reject triangles wholly outside a clip plane, clip the ones that cross (from clip
// coordinates recomputed from the positions: the same floats the vertex stage computed), and
// hand each resulting RasterTri to `emit`. Counts what happened to the triangle.
#pragma once
#include "clip.h"
#include "setup.h"

namespace facet {

template <class Emit>
FACET_HD void process_triangle(const ProjectedVertex* pv, const Vec3* positions,
                               const uint32_t* indices, uint32_t tri, const FrameParams& fp,
                               const ClipPlanes& planes, TriCounters& count, Emit&& emit) {
  uint32_t i0 = indices[3 * tri], i1 = indices[3 * tri + 1], i2 = indices[3 * tri + 2];
  ProjectedVertex v0 = pv[i0], v1 = pv[i1], v2 = pv[i2];
  if ((v0.code | v1.code | v2.code) & kCodeNonFinite) {
    ++count.nan;
    return;
  }
  if (v0.code & v1.code & v2.code) { ++count.culled; return; }  // wholly outside one plane

  RasterTri t;
  if ((v0.code | v1.code | v2.code) == 0) {
    if (setup_snapped(v0.x, v0.y, v0.z, v1.x, v1.y, v1.z, v2.x, v2.y, v2.z, tri, fp.width,
                      fp.height, fp.cull_backfaces, t) == SetupResult::Ok) {
      ++count.drawn;
      emit(t);
    } else {
      ++count.culled;
    }
    return;
  }

  Vec4 c[3] = {project_vertex(fp.view_proj, positions[i0]), project_vertex(fp.view_proj, positions[i1]),
               project_vertex(fp.view_proj, positions[i2])};
  uint32_t o0 = v0.code, o1 = v1.code, o2 = v2.code;
  ++count.clipped;
  Vec4 poly[kMaxClipVerts];
  int n = clip_polygon(planes, o0 | o1 | o2, c[0], c[1], c[2], poly);
  for (int k = 1; k + 1 < n; ++k) {  // fan from vertex 0: internal edges share snapped vertices
    if (!(poly[0].w > 0.0f && poly[k].w > 0.0f && poly[k + 1].w > 0.0f)) continue;
    if (setup_raster_tri(poly[0], poly[k], poly[k + 1], tri, fp.width, fp.height,
                         fp.cull_backfaces, t) == SetupResult::Ok) {
      ++count.drawn;
      emit(t);
    }
  }
}

}  // namespace facet
