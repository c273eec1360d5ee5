// Upload of a Scene's arrays to device memory: the big ones through StagedUpload's pinned
// buffers, the interleaved vertices built on every core, the per-triangle meshlet map on the
// device when occlusion culling first needs it. In two parts, what shading reads and what the
// meshlets add, so the first can go while the meshlets are still being built
// (Renderer::upload_ahead).
#include "engine/cuda/device_scene.h"

#include <algorithm>
#include <exception>

#include "engine/cuda/staged_upload.h"
#include "kernels/triangle_meshlets_launch.h"

namespace facet {

namespace {
// Shading records interleaved at a time before they go to the staging buffer: 8 KB of 32-byte
// records, in L1 while they are copied out.
constexpr size_t kShadeBatch = 256;
}  // namespace

void DeviceScene::upload(const Scene& s) {
  DeviceScene next;
  StagedUpload staged;  // big arrays through pinned buffers; freed on return or on a throw
  next.upload_shading(s, staged);
  next.upload_meshlets(s, staged);
  *this = std::move(next);
}

bool DeviceScene::holds_shading_of(const Scene& s) const {
  return m_source_positions != nullptr && m_source_positions == s.positions.data() &&
         m_source_indices == s.indices.data() && m_vertex_count == s.vertex_count() &&
         m_triangle_count == s.triangle_count();
}

bool DeviceScene::holds_meshlets_of(const Scene& s) const {
  return m_source_meshlets != nullptr && m_source_meshlets == s.meshlets.get();
}

void DeviceScene::upload_meshlets(const Scene& s, StagedUpload& staged) {
  const std::shared_ptr<const Meshlets> prepared = scene_meshlets(s);
  const Meshlets& m = *prepared;
  staged.upload(m_meshlets, m.meshlets, "meshlets");
  staged.upload(m_meshlet_positions, m.positions, "meshlet vertex positions");
  staged.upload(m_meshlet_triangles, m.triangles, "meshlet triangles");
  staged.upload(m_meshlet_triangle_ids, m.triangle_ids, "meshlet triangle ids");
  m_triangle_meshlet.release();  // built when a frame first needs it (build_triangle_meshlets)
  m_meshlet_seen.upload(std::vector<uint32_t>(std::max<size_t>(m.meshlets.size(), 1), 0u), "meshlet visibility");
  m_source_meshlets = s.meshlets.get();  // null when built here: then never taken as uploaded
}

void DeviceScene::upload_shading(const Scene& s, StagedUpload& staged) {
  // Interleaved straight into the staging buffers, a few KB at a time through a buffer in cache
  // and written on with non-temporal stores (copy_to_stage): no host copy of the whole array.
  staged.upload(m_shade, s.positions.size(), "vertex records for shading", [&s](void* host, size_t begin, size_t end) {
    ShadeVertex batch[kShadeBatch];
    auto* out = static_cast<unsigned char*>(host);
    for (size_t first = begin; first < end; first += kShadeBatch) {
      const size_t n = std::min<size_t>(kShadeBatch, end - first);
      interleave_shade_range(s, first, first + n, batch);
      copy_to_stage(out + (first - begin) * sizeof(ShadeVertex), batch, n * sizeof(ShadeVertex));
    }
  });
  m_has_uvs = !s.uvs.empty();
  m_plain_lit = plain_lit_scene(s);
  m_has_cutouts = scene_has_cutouts(s);
  if (!s.colors.empty()) staged.upload(m_colors, s.colors, "vertex colours");
  staged.upload(m_indices, s.indices, "triangle indices");
  // One material for the whole model (most scans, the generated spheres): no per-triangle array,
  // and so no 32-byte sector read for 4 bytes by every covered pixel in resolve (NOTES.md, v8).
  const int64_t single = s.single_material();
  if (single < 0) staged.upload(m_tri_material, s.tri_material, "per-triangle materials");
  m_single_material = single < 0 ? 0u : (uint32_t)single;
  m_materials.upload(s.materials, "materials");
  m_textures.upload(s.textures, "texture descriptors");
  staged.upload(m_texels, s.texels, "texture mip chains");
  m_vertex_count = s.vertex_count();
  m_triangle_count = s.triangle_count();
  m_source_positions = s.positions.data();
  m_source_indices = s.indices.data();
}

SceneView DeviceScene::view() const {
  return {nullptr, m_shade.data(), m_has_uvs, m_indices.data(), m_tri_material.data(), m_materials.data(), m_textures.data(),
          m_texels.data(), m_vertex_count, m_triangle_count, m_single_material,
          m_colors.size() > 0 ? m_colors.data() : nullptr, m_has_cutouts};
}

bool DeviceScene::build_triangle_meshlets(cudaStream_t stream) {
  if (m_triangle_meshlet.size() > 0) return true;
  if (m_triangle_count == 0 || m_meshlets.size() == 0) return false;
  try {
    m_triangle_meshlet.allocate(m_triangle_count, "triangle meshlets");
  } catch (const std::exception&) {
    return false;  // a device too full for them: the frames go without occlusion culling
  }
  // From the meshlet arrays on the device (tests/support/triangle_meshlets.h: the host reference).
  launch_triangle_meshlets(m_meshlets.data(), (uint32_t)m_meshlets.size(), m_meshlet_triangle_ids.data(),
                           m_triangle_meshlet.data(), stream);
  FACET_CUDA_CHECK(cudaGetLastError());
  return true;
}

size_t DeviceScene::bytes() const {
  return m_meshlets.bytes() + m_meshlet_positions.bytes() + m_meshlet_triangles.bytes() +
         m_meshlet_triangle_ids.bytes() + m_triangle_meshlet.bytes() + m_meshlet_seen.bytes() +
         m_shade.bytes() + m_indices.bytes() +
         m_tri_material.bytes() + m_materials.bytes() + m_textures.bytes() + m_texels.bytes() + m_colors.bytes();
}

}  // namespace facet
