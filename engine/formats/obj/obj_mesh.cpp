// The unified mesh from the stitched OBJ model (see obj_mesh.h). The general builder runs in the
// file's order, one corner after another, so that vertex numbering is the same on every machine
// and run; models whose vertices are their positions alone take the parallel builder
// (obj_mesh_by_position.h), which numbers them the same way.
#include "engine/formats/obj/obj_mesh.h"

#include <algorithm>
#include <cmath>

#include "engine/formats/obj/obj_mesh_by_position.h"
#include "engine/load/load_model.h"

namespace facet {

namespace {

// One output vertex made from position v: the other parts of its key, and the next variant of
// the same position. Chains per position instead of a hash map: most positions have one to a few
// variants, so lookups stay short and the pass runs in the order of the file.
struct Variant {
  int32_t vt;      // texcoord index or -1
  int32_t vn;      // normal index or -1
  uint32_t group;  // smoothing group, for corners whose normal is computed
  uint32_t out;    // index in the scene's vertex arrays
  int32_t next;    // next variant of the same position, or -1
};

uint8_t to_byte(float c) {
  return (uint8_t)std::lround(std::min(1.0f, std::max(0.0f, std::isfinite(c) ? c : 0.0f)) * 255);
}

class MeshBuilder {
 public:
  MeshBuilder(const ObjModel& model, Scene& scene)
      : m_model(model), m_scene(scene), m_head(model.counts.v, -1), m_unusable(model.counts.v, 0) {
    for (uint32_t i : model.unusable) m_unusable[i] = 1;
    // One bad normal index makes the file's normals suspect: compute them all.
    m_use_vn = model.counts.vn > 0 && model.bad_normal_line == 0;
    m_variants.reserve(model.counts.v);
    m_scene.positions.reserve(model.counts.v);
  }

  uint32_t emit(int32_t v, int32_t vt, int32_t vn) {
    uint32_t out = (uint32_t)m_scene.positions.size();
    const float* p = &m_model.positions[3 * (size_t)v];
    m_scene.positions.push_back({p[0], p[1], p[2]});
    if (!m_model.colors.empty()) {
      m_scene.colors.push_back(obj_vertex_color(&m_model.colors[3 * (size_t)v]));
    }
    if (vt >= 0) {
      m_uvs.push_back({m_model.texcoords[2 * (size_t)vt], m_model.texcoords[2 * (size_t)vt + 1]});
      m_any_uv = true;
    } else {
      m_uvs.push_back({0, 0});
    }
    const float* n = vn >= 0 ? &m_model.normals[3 * (size_t)vn] : nullptr;
    m_file_normals.push_back(n ? Vec3{n[0], n[1], n[2]} : Vec3{0, 0, 0});
    m_has_normal.push_back(vn >= 0);
    return out;
  }

  // Corner `at` of chunk c.
  uint32_t corner(const ObjChunk& c, uint32_t at, bool flat, uint32_t smoothing) {
    int32_t v = c.corner_v[at], vt = c.texcoord_of(at), vn = c.normal_of(at);
    if (vt < 0 || (uint64_t)vt >= m_model.counts.vt) vt = -1;
    if (!m_use_vn || vn < 0 || (uint64_t)vn >= m_model.counts.vn) vn = -1;
    if (vn < 0 && flat) return emit(v, vt, vn);  // a flat corner shares its normal with no face
    const uint32_t group = vn >= 0 ? 0u : smoothing;
    int32_t i = m_head[(size_t)v];
    while (i >= 0 && !(m_variants[i].vt == vt && m_variants[i].vn == vn && m_variants[i].group == group))
      i = m_variants[i].next;
    if (i >= 0) return m_variants[i].out;
    uint32_t out = emit(v, vt, vn);
    m_variants.push_back({vt, vn, group, out, m_head[(size_t)v]});
    m_head[(size_t)v] = (int32_t)m_variants.size() - 1;
    return out;
  }

  void chunk(const ObjChunk& c) {
    c.each_triangle([&](size_t, const uint32_t* k, const ObjFace& face) {
      if (m_unusable[(size_t)c.corner_v[k[0]]] || m_unusable[(size_t)c.corner_v[k[1]]] ||
          m_unusable[(size_t)c.corner_v[k[2]]]) {
        ++m_stats.nonfinite_faces;
        return;
      }
      // With smoothing groups in the file, group 0 ("s off") means a flat face.
      const bool flat = m_model.has_smoothing && face.smoothing == 0;
      for (int j = 0; j < 3; ++j) m_scene.indices.push_back(corner(c, k[j], flat, face.smoothing));
      m_scene.tri_material.push_back(face.usemtl < 0 ? kNoMaterial : (uint32_t)face.usemtl);
    });
  }

  // Computed for all vertices (it is cheap), then replaced where the file gave a usable normal.
  void normals() {
    m_scene.normals = compute_vertex_normals(m_scene.positions, m_scene.indices);
    for (size_t i = 0; i < m_scene.normals.size(); ++i) {
      if (m_has_normal[i]) {
        Vec3 n = m_file_normals[i];
        double l = std::sqrt((double)n.x * n.x + (double)n.y * n.y + (double)n.z * n.z);
        if (l > 0 && std::isfinite(l)) {
          m_scene.normals[i] = {(float)(n.x / l), (float)(n.y / l), (float)(n.z / l)};
          continue;
        }
      }
      ++m_stats.computed_normals;
    }
    if (m_any_uv) m_scene.uvs = std::move(m_uvs);
  }

  ObjMeshStats& stats() { return m_stats; }

 private:
  const ObjModel& m_model;
  Scene& m_scene;
  std::vector<int32_t> m_head;      // per position: its newest variant, or -1
  std::vector<uint8_t> m_unusable;  // per position: must not reach the rasterizer
  std::vector<Variant> m_variants;
  BigVector<Vec2> m_uvs;
  std::vector<Vec3> m_file_normals;  // parallel to positions; valid where m_has_normal
  std::vector<uint8_t> m_has_normal;
  bool m_use_vn = false;
  bool m_any_uv = false;
  ObjMeshStats m_stats;
};

}  // namespace

Rgba8 obj_vertex_color(const float* rgb) { return {to_byte(rgb[0]), to_byte(rgb[1]), to_byte(rgb[2]), 255}; }

ObjMeshStats build_obj_mesh(const std::string& path, const ObjModel& model, Scene& scene,
                            const std::function<void(float, const char*)>& progress) {
  const bool use_file_normals = model.counts.vn > 0 && model.bad_normal_line == 0;
  if (obj_vertices_are_positions(model, use_file_normals)) {
    ObjMeshStats stats;
    stats.file_normals_ignored = model.bad_normal_line != 0;
    stats.nonfinite_faces = build_obj_mesh_by_position(model, scene);
    if (scene.positions.size() >= UINT32_MAX) throw LoadError(path + ": more than 2^32 - 1 vertices");
    progress(0.7f, "normals");
    scene.normals = compute_vertex_normals(scene.positions, scene.indices);
    stats.computed_normals = scene.normals.size();
    return stats;
  }
  size_t triangles = 0;
  for (const ObjChunk& c : model.chunks) triangles += c.triangle_count();
  scene.indices.reserve(3 * triangles);
  scene.tri_material.reserve(triangles);
  MeshBuilder builder(model, scene);
  builder.stats().file_normals_ignored = model.bad_normal_line != 0;
  for (const ObjChunk& c : model.chunks) {
    builder.chunk(c);
    if (scene.positions.size() >= UINT32_MAX) throw LoadError(path + ": more than 2^32 - 1 vertices");
  }
  progress(0.7f, "normals");
  builder.normals();
  return builder.stats();
}

}  // namespace facet
