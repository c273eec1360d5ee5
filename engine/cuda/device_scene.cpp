// Upload of a Scene's arrays to device memory: the big ones through StagedUpload's pinned
// buffers, the interleaved vertices built on every core. In two parts, the scene's vertices and
// what the meshlets add, so the first can go while the meshlets are still being built
// (Renderer::upload_ahead); the second turns the first into the meshlet layout of the shading on
// the device (kernels/meshlet_shading.h) and frees it.
#include "engine/cuda/device_scene.h"

#include <algorithm>
#include <exception>
#include <stdexcept>

#include "engine/cuda/own_stream.h"
#include "engine/cuda/staged_upload.h"
#include "kernels/meshlet_shading_launch.h"
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
  if (!m_shade.data() && m_triangle_count > 0) throw std::logic_error("upload_meshlets before upload_shading");
  staged.upload(m_meshlets, m.meshlets, "meshlets");
  staged.upload(m_meshlet_triangles, m.triangles, "meshlet triangles");
  staged.upload(m_meshlet_triangle_ids, m.triangle_ids, "meshlet triangle ids");
  m_triangle_meshlet.release();  // built when a frame first needs it (build_triangle_meshlets)
  m_meshlet_seen.upload(std::vector<uint32_t>(std::max<size_t>(m.meshlets.size(), 1), 0u), "meshlet visibility");
  // Index triples and materials sent before the load renumbered the scene (its head start) are
  // in the file's order: the layout finds each triangle's through the file's numbers, and the
  // per-triangle materials (4 bytes a triangle, multi-material scenes only) go again.
  DeviceBuffer<uint32_t> sent_at;
  if (!s.file_triangle.empty() && !m_sent_renumbered) {
    staged.upload(sent_at, s.file_triangle, "file triangle numbers");
    if (m_tri_material.size() > 0) staged.upload(m_tri_material, s.tri_material, "per-triangle materials");
  }
  build_meshlet_shading(m.positions.size(), sent_at.data());
  // A renumbered scene's corners are in slot order and hold the slots' packed indices.
  if (!s.file_triangle.empty() && m.triangle_ids.empty()) m_meshlet_triangles.release();
  m_source_meshlets = s.meshlets.get();  // null when built here: then never taken as uploaded
}

const uint32_t* DeviceScene::file_triangles(const Scene& s) {
  if (s.file_triangle.empty()) return nullptr;
  if (m_file_triangle.size() != s.file_triangle.size()) m_file_triangle.upload(s.file_triangle, "file triangle numbers");
  return m_file_triangle.data();
}

void DeviceScene::build_meshlet_shading(size_t meshlet_vertices, const uint32_t* sent_at) {
  m_triangle_corners.allocate(m_triangle_count, "triangle corners in their meshlets");
  m_meshlet_points.allocate(meshlet_vertices, "meshlet vertex positions and normals");
  if (m_has_uvs) m_meshlet_uvs.allocate(meshlet_vertices, "meshlet vertex uvs");
  if (m_colors.size() > 0) m_meshlet_colors.allocate(meshlet_vertices, "meshlet vertex colours");
  MeshletShadingArrays a;
  a.meshlets = m_meshlets.data();
  a.meshlet_count = (uint32_t)m_meshlets.size();
  a.triangles = m_meshlet_triangles.data();
  a.triangle_ids = m_meshlet_triangle_ids.size() > 0 ? m_meshlet_triangle_ids.data() : nullptr;
  a.indices = m_indices.data();
  a.source_triangles = sent_at;
  a.shade = m_shade.data();
  a.colors = m_colors.size() > 0 ? m_colors.data() : nullptr;
  a.corners = m_triangle_corners.data();
  a.points = m_meshlet_points.data();
  a.uvs = m_meshlet_uvs.size() > 0 ? m_meshlet_uvs.data() : nullptr;
  a.vertex_colors = m_meshlet_colors.size() > 0 ? m_meshlet_colors.data() : nullptr;
  {
    OwnStream stream;
    launch_meshlet_shading(a, stream);
    FACET_CUDA_CHECK(cudaGetLastError());
    stream.sync();
  }
  // The scene vertex layout is no longer read: a closed mesh's 28 bytes a triangle.
  m_shade.release();
  m_indices.release();
  m_colors.release();
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
  m_sent_renumbered = !s.file_triangle.empty();
}

SceneView DeviceScene::view() const {
  SceneView v{};
  v.has_uvs = m_has_uvs;
  v.tri_material = m_tri_material.data();
  v.materials = m_materials.data();
  v.textures = m_textures.data();
  v.texels = m_texels.data();
  v.vertex_count = m_vertex_count;
  v.triangle_count = m_triangle_count;
  v.single_material = m_single_material;
  v.has_cutouts = m_has_cutouts;
  v.meshlet = {m_triangle_corners.data(), m_meshlet_points.data(),
               m_meshlet_uvs.size() > 0 ? m_meshlet_uvs.data() : nullptr};
  v.colors = m_meshlet_colors.size() > 0 ? m_meshlet_colors.data() : nullptr;
  return v;
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
  return m_file_triangle.bytes() + m_meshlets.bytes() + m_meshlet_points.bytes() + m_meshlet_triangles.bytes() +
         m_meshlet_triangle_ids.bytes() + m_triangle_meshlet.bytes() + m_meshlet_seen.bytes() + m_triangle_corners.bytes() +
         m_meshlet_uvs.bytes() + m_meshlet_colors.bytes() + m_shade.bytes() +
         m_indices.bytes() + m_colors.bytes() + m_tri_material.bytes() + m_materials.bytes() + m_textures.bytes() +
         m_texels.bytes();
}

}  // namespace facet
