// A triangle's vertices as resolve, the cut-out test and the frame outputs read them, from either
// layout of SceneView (params.h): per scene vertex through the index triples, or per meshlet
// vertex through the triangle's corner word and vertex base. Both give the same values (the
// meshlet arrays hold copies, and the normal's code decodes to the quantized normal the scene
// layout holds), so everything computed from them is the same bits.
#pragma once
#include "kernels/frame/params.h"
#include "kernels/frame/resolve/normal_code.h"

namespace facet {

// Where a triangle's three vertices are: indices into the scene's vertex arrays, or into the
// meshlet vertex arrays in the meshlet layout. Corner k is the triangle's corner k either way.
struct TriangleCorners {
  uint32_t i0, i1, i2;
};

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
  const uint32_t word = s.meshlet.corners[tri];
  const uint32_t first = s.meshlet.vertex_bases[tri >> s.meshlet.base_shift] + corner_base_offset(word);
  return {first + local_index(word, 0), first + local_index(word, 1), first + local_index(word, 2)};
}

// The record of vertex `v` (an index triangle_corners gave).
FACET_HD ShadeVertex shade_vertex(const SceneView& s, uint32_t v) {
  if (!meshlet_layout(s)) return s.shade[v];
  const MeshletShading& ms = s.meshlet;
  const MeshletPoint a = ms.points[v];
  ShadeVertex r;
  r.p = a.p;
  r.n = decode_normal(a.normal);
  r.uv = ms.uvs ? ms.uvs[v] : Vec2{0.0f, 0.0f};
  return r;
}

}  // namespace facet
