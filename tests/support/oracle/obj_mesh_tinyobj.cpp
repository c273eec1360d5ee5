// The unified mesh from tinyobjloader's shapes (see obj_mesh.h).
#include "tests/support/oracle/obj_mesh_tinyobj.h"

#include <cmath>

#include "engine/load/load_model.h"

namespace facet::oracle {

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

bool finite3(const float* p) { return std::isfinite(p[0]) && std::isfinite(p[1]) && std::isfinite(p[2]); }

}  // namespace

ObjMeshStats build_obj_mesh(const std::string& path, const tinyobj::attrib_t& attrib,
                            const std::vector<tinyobj::shape_t>& shapes, const ObjScan& scan, Scene& scene,
                            const std::function<void(float, const char*)>& progress) {
  ObjMeshStats stats;
  const size_t nv = attrib.vertices.size() / 3;
  const size_t nt = attrib.texcoords.size() / 2;
  const size_t nn = attrib.normals.size() / 3;

  std::vector<uint8_t> bad(nv, 0);  // positions that must not reach the rasterizer
  for (uint32_t i : scan.nonfinite_vertices)
    if (i < nv) bad[i] = 1;
  for (size_t i = 0; i < nv; ++i)
    if (!finite3(&attrib.vertices[3 * i])) bad[i] = 1;

  // One bad normal index makes the file's normals suspect: compute them all.
  const bool use_vn = nn > 0 && scan.bad_normal_line == 0;
  stats.file_normals_ignored = scan.bad_normal_line != 0;

  size_t tri_total = 0;
  for (const auto& s : shapes) tri_total += s.mesh.indices.size() / 3;
  scene.indices.reserve(tri_total * 3);
  scene.tri_material.reserve(tri_total);
  scene.positions.reserve(nv);

  std::vector<int32_t> head(nv, -1);
  std::vector<Variant> variants;
  variants.reserve(nv);
  std::vector<Vec2> uvs;
  std::vector<Vec3> file_normals;  // parallel to positions; valid where has_normal
  std::vector<uint8_t> has_normal;
  bool any_uv = false;

  auto emit = [&](int32_t v, int32_t vt, int32_t vn) -> uint32_t {
    uint32_t out = (uint32_t)scene.positions.size();
    const float* p = &attrib.vertices[3 * (size_t)v];
    scene.positions.push_back({p[0], p[1], p[2]});
    if (vt >= 0) {
      uvs.push_back({attrib.texcoords[2 * (size_t)vt], attrib.texcoords[2 * (size_t)vt + 1]});
      any_uv = true;
    } else {
      uvs.push_back({0, 0});
    }
    if (vn >= 0) {
      const float* n = &attrib.normals[3 * (size_t)vn];
      file_normals.push_back({n[0], n[1], n[2]});
    } else {
      file_normals.push_back({0, 0, 0});
    }
    has_normal.push_back(vn >= 0);
    return out;
  };

  for (const auto& shape : shapes) {
    const auto& mesh = shape.mesh;
    const size_t ntri = mesh.indices.size() / 3;
    for (size_t t = 0; t < ntri; ++t) {
      const tinyobj::index_t* c = &mesh.indices[3 * t];
      bool skip = false;
      for (int k = 0; k < 3; ++k) {
        int v = c[k].vertex_index;
        if (v < 0 || (size_t)v >= nv)  // scan_obj refuses these first; never index past the array
          throw LoadError(path + ": a face refers to vertex " + std::to_string(v + 1) + ", which does not exist");
        skip |= bad[(size_t)v] != 0;
      }
      if (skip) {
        ++stats.nonfinite_faces;
        continue;
      }
      const unsigned sg = t < mesh.smoothing_group_ids.size() ? mesh.smoothing_group_ids[t] : 0;
      // With smoothing groups in the file, group 0 ("s off") means a flat face.
      const bool flat = scan.has_smoothing && sg == 0;
      for (int k = 0; k < 3; ++k) {
        int32_t v = c[k].vertex_index;
        int32_t vt = c[k].texcoord_index;
        int32_t vn = c[k].normal_index;
        if (vt < 0 || (size_t)vt >= nt) vt = -1;
        if (!use_vn || vn < 0 || (size_t)vn >= nn) vn = -1;
        uint32_t out;
        if (vn < 0 && flat) {
          out = emit(v, vt, vn);  // a flat corner shares its normal with no other face
        } else {
          const uint32_t group = vn >= 0 ? 0u : (uint32_t)sg;
          int32_t i = head[(size_t)v];
          while (i >= 0 && !(variants[i].vt == vt && variants[i].vn == vn && variants[i].group == group))
            i = variants[i].next;
          if (i >= 0) {
            out = variants[i].out;
          } else {
            out = emit(v, vt, vn);
            variants.push_back({vt, vn, group, out, head[(size_t)v]});
            head[(size_t)v] = (int32_t)variants.size() - 1;
          }
        }
        scene.indices.push_back(out);
      }
      int mat = t < mesh.material_ids.size() ? mesh.material_ids[t] : -1;
      scene.tri_material.push_back(mat < 0 ? kNoMaterial : (uint32_t)mat);
    }
  }
  if (scene.positions.size() >= UINT32_MAX) throw LoadError(path + ": more than 2^32 - 1 vertices");

  progress(0.7f, "normals");
  // Computed for all vertices (it is cheap), then replaced where the file gave a usable normal.
  scene.normals = compute_vertex_normals(scene.positions, scene.indices);
  for (size_t i = 0; i < scene.normals.size(); ++i) {
    if (has_normal[i]) {
      Vec3 n = file_normals[i];
      double l = std::sqrt((double)n.x * n.x + (double)n.y * n.y + (double)n.z * n.z);
      if (l > 0 && std::isfinite(l)) {
        scene.normals[i] = {(float)(n.x / l), (float)(n.y / l), (float)(n.z / l)};
        continue;
      }
    }
    ++stats.computed_normals;
  }
  if (any_uv) scene.uvs.assign(uvs.begin(), uvs.end());
  return stats;
}

}  // namespace facet::oracle
