// The per-triangle front end shared by both backends: fetch the three projected vertices, drop
// NaN/Inf, reject triangles wholly outside a clip plane, clip the ones that cross (from clip
// coordinates recomputed from the positions: the same floats the vertex stage computed), and
// hand each resulting RasterTri to `emit`. Counts what happened to the triangle.
#pragma once
#include "kernels/frame/geometry/clip.h"
#include "kernels/frame/geometry/setup.h"
#include "kernels/frame/raster/samples.h"

namespace facet {

// The position of a vertex array's element: a bare position, or a record holding one.
FACET_HD Vec3 point_position(const Vec3& p) { return p; }
FACET_HD Vec3 point_position(const MeshletPoint& p) { return p.p; }

// Triangles that cross a clip plane (rare): clip in clip space (coordinates recomputed from the
// positions: the same floats the vertex stage computed) and set up each piece of the fan.
template <int kSamples, class Point, class Emit>  // kSamples as process_loaded_triangle's
FACET_HD void clip_and_setup(const Point* positions, uint32_t i0, uint32_t i1, uint32_t i2, uint32_t codes,
                             uint32_t tri, const FrameParams& fp, const ClipPlanes& planes, TriCounters& count,
                             Emit& emit) {
  Vec4 c[3] = {project_vertex(fp.view_proj, point_position(positions[i0])),
               project_vertex(fp.view_proj, point_position(positions[i1])),
               project_vertex(fp.view_proj, point_position(positions[i2]))};
  ++count.clipped;
  Vec4 poly[kMaxClipVerts];
  int n = clip_polygon(planes, codes, c[0], c[1], c[2], poly);
  RasterTri t;
  for (int k = 1; k + 1 < n; ++k) {  // fan from vertex 0: internal edges share snapped vertices
    if (!(poly[0].w > 0.0f && poly[k].w > 0.0f && poly[k + 1].w > 0.0f)) continue;
    if (setup_raster_tri(poly[0], poly[k], poly[k + 1], tri, fp.width, fp.height, fp.cull_backfaces, t,
                         kSamples ? kSamples : fp.samples) == SetupResult::Ok) {
      ++count.drawn;
      emit(t);
    }
  }
}

// A triangle's indices and projected vertices: everything setup reads from memory, loaded
// apart from the arithmetic so that a thread can have several triangles' loads in flight.
struct TriangleInput {
  uint32_t i0, i1, i2;
  ProjectedVertex v0, v1, v2;
};

FACET_HD TriangleInput load_triangle(const ProjectedVertex* pv, const uint32_t* indices, uint32_t tri) {
  TriangleInput in;
  in.i0 = indices[3 * tri];
  in.i1 = indices[3 * tri + 1];
  in.i2 = indices[3 * tri + 2];
  in.v0 = pv[in.i0];
  in.v1 = pv[in.i1];
  in.v2 = pv[in.i2];
  return in;
}

// kSamples: the frame's sample count when the caller knows it at compile time (the CUDA geometry
// kernels: setup's per-sample loop then unrolls over constant offsets), 0 to read fp.samples.
// `positions`: the scene's (Vec3) or a meshlet's (MeshletPoint), as the indices in `in` count.
template <int kSamples = 0, class Point, class Emit>
FACET_HD void process_loaded_triangle(const TriangleInput& in, const Point* positions, uint32_t tri,
                                      const FrameParams& fp, const ClipPlanes& planes, TriCounters& count,
                                      Emit&& emit) {
  const uint32_t i0 = in.i0, i1 = in.i1, i2 = in.i2;
  const ProjectedVertex &v0 = in.v0, &v1 = in.v1, &v2 = in.v2;
  if ((v0.code | v1.code | v2.code) & kCodeNonFinite) {
    ++count.nan;
    return;
  }
  if (v0.code & v1.code & v2.code) {
    ++count.culled;
    return;
  }  // wholly outside one plane

  if ((v0.code | v1.code | v2.code) == 0) {
    RasterTri t;
    if (setup_snapped(v0.x, v0.y, v0.z, v1.x, v1.y, v1.z, v2.x, v2.y, v2.z, tri, fp.width, fp.height, fp.cull_backfaces,
                      t, kSamples ? kSamples : fp.samples) == SetupResult::Ok) {
      ++count.drawn;
      emit(t);
    } else {
      ++count.culled;
    }
    return;
  }

  clip_and_setup<kSamples>(positions, i0, i1, i2, v0.code | v1.code | v2.code, tri, fp, planes, count, emit);
}

template <class Emit>
FACET_HD void process_triangle(const ProjectedVertex* pv, const Vec3* positions, const uint32_t* indices, uint32_t tri,
                               const FrameParams& fp, const ClipPlanes& planes, TriCounters& count, Emit&& emit) {
  process_loaded_triangle(load_triangle(pv, indices, tri), positions, tri, fp, planes, count, emit);
}

}  // namespace facet
