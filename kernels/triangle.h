// The per-triangle front end shared by both backends: fetch the three projected vertices, drop
// NaN/Inf, reject triangles wholly outside a clip plane, clip the ones that cross, and hand each
// resulting RasterTri to `emit`. Counts what happened to the triangle.
#pragma once
#include "clip.h"
#include "setup.h"

namespace facet {

template <class Emit>
FACET_HD void process_triangle(const Vec4* clip, const uint32_t* indices, uint32_t tri,
                               const FrameParams& fp, const ClipPlanes& planes, TriCounters& count,
                               Emit&& emit) {
  Vec4 c[3];
  for (int k = 0; k < 3; ++k) c[k] = clip[indices[3 * tri + k]];
  for (int k = 0; k < 3; ++k) {
    if (!is_finite(c[k].x) || !is_finite(c[k].y) || !is_finite(c[k].z) || !is_finite(c[k].w)) {
      ++count.nan;
      return;
    }
  }
  uint32_t o0 = outcode(planes, c[0]), o1 = outcode(planes, c[1]), o2 = outcode(planes, c[2]);
  if (o0 & o1 & o2) { ++count.culled; return; }  // wholly outside one plane

  RasterTri t;
  if ((o0 | o1 | o2) == 0) {
    if (setup_raster_tri(c[0], c[1], c[2], tri, fp.width, fp.height, fp.cull_backfaces, t) ==
        SetupResult::Ok) {
      ++count.drawn;
      emit(t);
    } else {
      ++count.culled;
    }
    return;
  }

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
