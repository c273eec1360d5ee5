// A triangle's vertices as resolve, the cut-out test and the frame outputs read them, from either
// layout of SceneView (params.h): per scene vertex through the index triples, or per meshlet
// vertex through the triangle's MeshletCorners. Both give the same values (the meshlet arrays
// hold copies), so everything computed from them is the same bits.
#pragma once
#include "kernels/params.h"

namespace facet {

// Where a triangle's three vertices are: indices into the scene's vertex arrays, or into the
// meshlet vertex arrays in the meshlet layout. Corner k is the triangle's corner k either way.
struct TriangleCorners { uint32_t i0, i1, i2; };

// The device code reads the meshlet layout only, the CUDA backend's one layout once a scene is
// set (DeviceScene::view): no branch between the two in its kernels.
FACET_HD bool meshlet_layout(const SceneView& s) {
#ifdef __CUDA_ARCH__
  (void)s;
  return true;
#else
  return s.meshlet.corners != nullptr;
#endif
}

FACET_HD TriangleCorners triangle_corners(const SceneView& s, uint32_t tri) {
  if (!meshlet_layout(s)) return {s.indices[3 * tri], s.indices[3 * tri + 1], s.indices[3 * tri + 2]};
  const MeshletCorners c = s.meshlet.corners[tri];
  return {c.first_vertex + local_index(c.locals, 0), c.first_vertex + local_index(c.locals, 1),
          c.first_vertex + local_index(c.locals, 2)};
}

// The record of vertex `v` (an index triangle_corners gave).
FACET_HD ShadeVertex shade_vertex(const SceneView& s, uint32_t v) {
  if (!meshlet_layout(s)) return s.shade[v];
  const MeshletShading& ms = s.meshlet;
  const MeshletPoint a = ms.points[v];
  ShadeVertex r;
  r.p = a.p;
  if (ms.normals_uv) {
    const NormalYzUv b = ms.normals_uv[v];
    r.n = {a.nx, b.ny, b.nz};
    r.uv = b.uv;
  } else {
    const NormalYz b = ms.normals[v];
    r.n = {a.nx, b.ny, b.nz};
    r.uv = {0.0f, 0.0f};
  }
  return r;
}

}  // namespace facet
