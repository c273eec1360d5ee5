// Building the meshlet layout of a scene's shading (params.h, MeshletShading) from its vertex
// records and index triples, positions included (the host's Meshlets::positions hold the same
// copies and need not be uploaded): one slot at a time, the same function for the device upload's
// kernel (meshlet_shading.cu) and the host reference the tests hold it to
// (tests/support/meshlet_shading.h). Every value is copied, none computed, but the normals (already
// quantized, interleave_shade_range: they code to the codes that decode to them) and the corner
// words' d, from the vertex bases the host made (engine/meshlets/corner_bases.h).
#pragma once
#include "kernels/frame/resolve/normal_code.h"
#include "kernels/frame/resolve/scene_vertices.h"

namespace facet {

struct MeshletShadingArrays {
  // What it reads: the meshlets (meshlets.h) and the scene's per-vertex arrays.
  const Meshlet* meshlets = nullptr;
  uint32_t meshlet_count = 0;
  const uint32_t* triangles = nullptr;         // per slot: packed local indices
  const uint32_t* triangle_ids = nullptr;      // per slot: its scene triangle, or null: slot i holds triangle i
  const uint32_t* indices = nullptr;           // [3 * triangle_count] scene vertex indices
  const uint32_t* source_triangles = nullptr;  // per scene triangle: where `indices` holds it, when
                                               //   they were sent before the scene was renumbered
                                               //   (triangle_renumber.h); null: at its own index
  const ShadeVertex* shade = nullptr;          // [vertex_count] the scene's vertex records
  const Rgba8* colors = nullptr;               // [vertex_count] vertex colours, or null
  const uint32_t* vertex_bases = nullptr;      // MeshletShading::vertex_bases, made on the host
  uint32_t base_shift = 0;                     //   (engine/meshlets/corner_bases.h)
  // What it writes: every entry (each triangle has one slot, each meshlet vertex at least one
  // corner).
  uint32_t* corners = nullptr;     // [triangle_count] corner words
  MeshletPoint* points = nullptr;  // [meshlet vertices]
  Vec2* uvs = nullptr;             // [meshlet vertices], or null (a model without uvs)
  Rgba8* vertex_colors = nullptr;  // [meshlet vertices], or null (colors null too)
};

// Slot `k` of a meshlet `m`. A meshlet vertex holds one scene vertex (the builders number a
// meshlet's vertices by scene index, corners in order), so the slots sharing it write it alike.
FACET_HD void gather_meshlet_slot(const MeshletShadingArrays& a, const Meshlet& m, uint32_t k) {
  const uint32_t slot = m.first_triangle + k;
  const uint32_t tri = a.triangle_ids ? a.triangle_ids[slot] : slot;
  const uint32_t sent = a.source_triangles ? a.source_triangles[tri] : tri;
  const uint32_t packed = a.triangles[slot];
  a.corners[tri] = corner_word(packed, m.first_vertex - a.vertex_bases[tri >> a.base_shift]);
  for (int c = 0; c < 3; ++c) {
    const uint32_t v = m.first_vertex + local_index(packed, c);
    const uint32_t from = a.indices[3 * (size_t)sent + c];
    const ShadeVertex r = a.shade[from];
    a.points[v] = {r.p, encode_normal(r.n)};
    if (a.uvs) a.uvs[v] = r.uv;
    if (a.vertex_colors) a.vertex_colors[v] = a.colors[from];
  }
}

}  // namespace facet
