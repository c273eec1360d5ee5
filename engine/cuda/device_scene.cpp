// Upload of a Scene's arrays to device memory: the big ones through StagedUpload's pinned
// buffers, the interleaved vertices built on every core. Two routes to the meshlet layout of the
// shading (kernels/prepare/meshlet_shading.h):
//  - through the scene's vertex records: in two parts, the scene's vertices and what the meshlets
//    add, so the first can go while the meshlets are still being built (Renderer::upload_ahead);
//    the second turns the first into the layout on the device and frees it. The fastest, but for
//    a moment the device holds the records and index triples (32 bytes a vertex and 12 a
//    triangle) beside the layout;
//  - the host route: the layout made on the host's cores as the staging buffers are filled, sent
//    finished, for a device without room for that moment. The 300 M-triangle grid (5.5 GB of
//    scene): 15.8 GB at the most by the first route, 5.6 by this one.
#include "engine/cuda/device_scene.h"

#include <algorithm>
#include <exception>
#include <stdexcept>

#include "engine/base/step_timing.h"
#include "engine/cuda/own_stream.h"
#include "engine/cuda/staged_upload.h"
#include "engine/meshlets/corner_bases.h"
#include "engine/meshlets/meshlet_shading_host.h"
#include "kernels/prepare/meshlet_shading_launch.h"
#include "kernels/prepare/triangle_meshlets_launch.h"

namespace facet {

namespace {
// Bytes of entries made at a time before they go to a staging buffer: 8 KB, in L1 while they are
// copied out.
constexpr size_t kStageBatchBytes = 8192;
// What the route through the vertex records must find free beyond its own arrays' bytes: the
// allocator's 2 MiB granules over the dozen arrays, and room for a frame's buffers to grow.
constexpr size_t kVertexRouteSlackBytes = size_t(64) << 20;

size_t device_free_bytes() {
  size_t free_b = 0, total_b = 0;
  FACET_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  return free_b;
}

// The bytes of the finished scene in the meshlet layout, but for the materials and textures.
size_t layout_bytes(const Scene& s, const Meshlets& m) {
  const size_t per_vertex =
      sizeof(MeshletPoint) + (s.uvs.empty() ? 0 : sizeof(Vec2)) + (s.colors.empty() ? 0 : sizeof(Rgba8));
  const size_t bases = corner_base_count(s.triangle_count(), m.triangle_ids.empty() ? kCornerBaseShift : 0);
  return (s.triangle_count() + bases) * sizeof(uint32_t) + m.positions.size() * per_vertex +
         m.meshlets.size() * (sizeof(Meshlet) + sizeof(uint32_t)) +
         (m.triangles.size() + m.triangle_ids.size()) * sizeof(uint32_t);
}

// A staging fill from `make(begin, end, out)`, which writes entries [begin, end): a few KB at a time
// into a buffer in cache, then onto the staging buffer with non-temporal stores (copy_to_stage).
template <class T, class Make>
StageFill in_batches(Make make) {
  return [make](void* host, size_t begin, size_t end) {
    constexpr size_t kBatch = kStageBatchBytes / sizeof(T);
    T batch[kBatch];
    auto* out = static_cast<unsigned char*>(host);
    for (size_t first = begin; first < end; first += kBatch) {
      const size_t n = std::min(kBatch, end - first);
      make(first, first + n, batch);
      copy_to_stage(out + (first - begin) * sizeof(T), batch, n * sizeof(T));
    }
  };
}

// What the vertex records and index triples add while the route through them builds the layout.
size_t vertex_records_bytes(const Scene& s) {
  return s.vertex_count() * (sizeof(ShadeVertex) + (s.colors.empty() ? 0 : sizeof(Rgba8))) +
         s.indices.size() * sizeof(uint32_t);
}
}  // namespace

void DeviceScene::upload(const Scene& s) {
  const std::shared_ptr<const Meshlets> prepared = scene_meshlets(s);
  const Meshlets& m = *prepared;
  const size_t need = vertex_records_bytes(s) + layout_bytes(s, m) + kVertexRouteSlackBytes;
  if (need <= device_free_bytes()) {
    try {
      DeviceScene next;
      StagedUpload staged;  // big arrays through pinned buffers; freed on return or on a throw
      next.upload_shading(s, staged);
      next.upload_meshlets(s, m, staged);
      *this = std::move(next);
      return;
    } catch (const DeviceOutOfMemory&) {
      // Less room than it seemed (another process, the allocator's granules): the route that
      // needs only the finished scene's bytes.
    }
  }
  DeviceScene next;
  StagedUpload staged;
  next.upload_from_host(s, m, staged);
  *this = std::move(next);
}

bool DeviceScene::reads_slots_from_corners(const Meshlets& m) {
  // Where slot i holds triangle i (runs, a renumbered scene) the corners are in slot order and
  // hold the slots' packed indices.
  return m.triangle_ids.empty();
}

bool DeviceScene::room_for_vertex_route(const Scene& s) {
  // The layout's least bytes before its meshlets exist: a corner word a triangle, a point a vertex.
  const size_t layout = s.triangle_count() * sizeof(uint32_t) + s.vertex_count() * sizeof(MeshletPoint);
  return vertex_records_bytes(s) + layout + kVertexRouteSlackBytes <= device_free_bytes();
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
  upload_meshlets(s, *prepared, staged);
}

void DeviceScene::upload_meshlet_arrays(const Meshlets& m, bool slots, StagedUpload& staged) {
  staged.upload(m_meshlets, m.meshlets, "meshlets");
  if (slots) staged.upload(m_meshlet_triangles, m.triangles, "meshlet triangles");
  staged.upload(m_meshlet_triangle_ids, m.triangle_ids, "meshlet triangle ids");
  m_triangle_meshlet.release();  // built when a frame first needs it (build_triangle_meshlets)
  m_meshlet_seen.upload(std::vector<uint32_t>(std::max<size_t>(m.meshlets.size(), 1), 0u), "meshlet visibility");
}

void DeviceScene::upload_from_host(const Scene& s, const Meshlets& m, StagedUpload& staged) {
  StepTimer timer("upload");
  upload_materials(s, staged);
  timer.step("materials sent");
  upload_meshlet_arrays(m, !reads_slots_from_corners(m), staged);
  timer.step("meshlets sent");
  const MeshletShadingOnHost layout(s, m);
  const size_t vertices = layout.vertex_count();
  timer.step("vertex sources");
  upload_vertex_bases(layout.bases(), staged);
  if (layout.corners_by_range()) {
    staged.upload(m_triangle_corners, s.triangle_count(), "triangle corners in their meshlets",
                  in_batches<uint32_t>([&](size_t b, size_t e, uint32_t* out) { layout.corners(b, e, out); }));
  } else {
    staged.upload(m_triangle_corners, layout.scattered_corners(), "triangle corners in their meshlets");
  }
  timer.step("corners sent");
  staged.upload(m_meshlet_points, vertices, "meshlet vertex positions and normals",
                in_batches<MeshletPoint>([&](size_t b, size_t e, MeshletPoint* out) { layout.points(b, e, out); }));
  if (m_has_uvs)
    staged.upload(m_meshlet_uvs, vertices, "meshlet vertex uvs",
                  in_batches<Vec2>([&](size_t b, size_t e, Vec2* out) { layout.uvs(b, e, out); }));
  if (!s.colors.empty())
    staged.upload(m_meshlet_colors, vertices, "meshlet vertex colours",
                  in_batches<Rgba8>([&](size_t b, size_t e, Rgba8* out) { layout.colors(b, e, out); }));
  timer.step("vertices sent");
  m_source_meshlets = s.meshlets.get();
}

void DeviceScene::upload_meshlets(const Scene& s, const Meshlets& m, StagedUpload& staged) {
  if (!m_shade.data() && m_triangle_count > 0) throw std::logic_error("upload_meshlets before upload_shading");
  upload_meshlet_arrays(m, true, staged);  // the layout's build reads the slots
  upload_vertex_bases(corner_bases(m, s.triangle_count()), staged);
  // Index triples and materials sent before the load renumbered the scene (its head start) are
  // in the file's order: the layout finds each triangle's through the file's numbers, and the
  // per-triangle materials (4 bytes a triangle, multi-material scenes only) go again.
  DeviceBuffer<uint32_t> sent_at;
  if (!s.file_triangle.empty() && !m_sent_renumbered) {
    staged.upload(sent_at, s.file_triangle, "file triangle numbers");
    if (m_tri_material.size() > 0) staged.upload(m_tri_material, s.tri_material, "per-triangle materials");
  }
  build_meshlet_shading(m.positions.size(), sent_at.data());
  if (reads_slots_from_corners(m)) m_meshlet_triangles.release();
  m_source_meshlets = s.meshlets.get();  // null when built here: then never taken as uploaded
}

const uint32_t* DeviceScene::file_triangles(const Scene& s) {
  if (s.file_triangle.empty()) return nullptr;
  if (m_file_triangle.size() != s.file_triangle.size())
    m_file_triangle.upload(s.file_triangle, "file triangle numbers");
  return m_file_triangle.data();
}

void DeviceScene::upload_vertex_bases(const CornerBases& bases, StagedUpload& staged) {
  staged.upload(m_vertex_bases, bases.bases, "vertex bases of the triangle corners");
  m_base_shift = bases.shift;
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
  a.vertex_bases = m_vertex_bases.data();
  a.base_shift = m_base_shift;
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
  upload_materials(s, staged);
  // Interleaved straight into the staging buffers, a few KB at a time through a buffer in cache
  // and written on with non-temporal stores (copy_to_stage): no host copy of the whole array.
  staged.upload(
      m_shade, s.positions.size(), "vertex records for shading",
      in_batches<ShadeVertex>([&s](size_t b, size_t e, ShadeVertex* out) { interleave_shade_range(s, b, e, out); }));
  if (!s.colors.empty()) staged.upload(m_colors, s.colors, "vertex colours");
  staged.upload(m_indices, s.indices, "triangle indices");
}

void DeviceScene::upload_materials(const Scene& s, StagedUpload& staged) {
  m_has_uvs = !s.uvs.empty();
  m_plain_lit = plain_lit_scene(s);
  m_has_cutouts = scene_has_cutouts(s);
  // One material for the whole model (most scans, the generated spheres): no per-triangle array,
  // and so no 32-byte sector read for 4 bytes by every covered pixel in resolve.
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
  v.meshlet = {m_triangle_corners.data(), m_vertex_bases.data(), m_base_shift, m_meshlet_points.data(),
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
         m_meshlet_triangle_ids.bytes() + m_triangle_meshlet.bytes() + m_meshlet_seen.bytes() +
         m_triangle_corners.bytes() + m_vertex_bases.bytes() + m_meshlet_uvs.bytes() + m_meshlet_colors.bytes() +
         m_shade.bytes() + m_indices.bytes() + m_colors.bytes() + m_tri_material.bytes() + m_materials.bytes() +
         m_textures.bytes() + m_texels.bytes();
}

}  // namespace facet
