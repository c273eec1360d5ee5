// Upload of a Scene's arrays to device memory.
#include "engine/cuda/device_scene.h"

namespace facet {

void DeviceScene::upload(const Scene& s) {
  DeviceScene next;
  const std::shared_ptr<const Meshlets> prepared = scene_meshlets(s);
  const Meshlets& m = *prepared;
  next.m_meshlets.upload(m.meshlets, "meshlets");
  next.m_meshlet_positions.upload(m.positions, "meshlet vertex positions");
  next.m_meshlet_triangles.upload(m.triangles, "meshlet triangles");
  next.m_meshlet_triangle_ids.upload(m.triangle_ids, "meshlet triangle ids");
  {
    // Each scene triangle's meshlet: resolve marks the meshlets that show (occlusion.h).
    std::vector<uint32_t> meshlet_of(s.triangle_count());
    for (uint32_t i = 0; i < (uint32_t)m.meshlets.size(); ++i)
      for (uint32_t k = 0; k < m.meshlets[i].triangle_count; ++k)
        meshlet_of[scene_triangle(m, m.meshlets[i].first_triangle + k)] = i;
    next.m_triangle_meshlet.upload(meshlet_of, "triangle meshlets");
  }
  next.m_meshlet_seen.upload(std::vector<uint32_t>(std::max<size_t>(m.meshlets.size(), 1), 0u), "meshlet visibility");
  next.m_shade.upload(interleave_shade_vertices(s), "vertex records for shading");
  next.m_has_uvs = !s.uvs.empty();
  next.m_plain_lit = plain_lit_scene(s);
  next.m_has_cutouts = scene_has_cutouts(s);
  if (!s.colors.empty()) next.m_colors.upload(s.colors, "vertex colours");
  next.m_indices.upload(s.indices, "triangle indices");
  // One material for the whole model (most scans, the generated spheres): no per-triangle array,
  // and so no 32-byte sector read for 4 bytes by every covered pixel in resolve (NOTES.md, v8).
  const int64_t single = s.single_material();
  if (single < 0) next.m_tri_material.upload(s.tri_material, "per-triangle materials");
  next.m_single_material = single < 0 ? 0u : (uint32_t)single;
  next.m_materials.upload(s.materials, "materials");
  next.m_textures.upload(s.textures, "texture descriptors");
  next.m_texels.upload(s.texels, "texture mip chains");
  next.m_vertex_count = s.vertex_count();
  next.m_triangle_count = s.triangle_count();
  *this = std::move(next);
}

SceneView DeviceScene::view() const {
  return {nullptr, m_shade.data(), m_has_uvs, m_indices.data(), m_tri_material.data(), m_materials.data(), m_textures.data(),
          m_texels.data(), m_vertex_count, m_triangle_count, m_single_material,
          m_colors.size() > 0 ? m_colors.data() : nullptr, m_has_cutouts};
}

size_t DeviceScene::bytes() const {
  return m_meshlets.bytes() + m_meshlet_positions.bytes() + m_meshlet_triangles.bytes() +
         m_meshlet_triangle_ids.bytes() + m_triangle_meshlet.bytes() + m_meshlet_seen.bytes() +
         m_shade.bytes() + m_indices.bytes() +
         m_tri_material.bytes() + m_materials.bytes() + m_textures.bytes() + m_texels.bytes() + m_colors.bytes();
}

}  // namespace facet
