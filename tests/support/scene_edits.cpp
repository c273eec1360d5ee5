#include "tests/support/scene_edits.h"

#include <utility>

namespace facet::test {

Scene combined(const Scene& a, const Scene& b) {
  Scene s = a;
  const uint32_t base = (uint32_t)s.positions.size();
  s.positions.insert(s.positions.end(), b.positions.begin(), b.positions.end());
  s.normals.insert(s.normals.end(), b.normals.begin(), b.normals.end());
  s.uvs.insert(s.uvs.end(), b.uvs.begin(), b.uvs.end());
  for (uint32_t i : b.indices) s.indices.push_back(base + i);
  s.tri_material.resize(s.triangle_count(), 0);
  s.bounds = compute_bounds(s.positions);
  return s;
}

Scene tiled(const Scene& one, uint32_t copies, float step) {
  Scene s = one;
  const uint32_t verts = one.vertex_count();
  for (uint32_t copy = 1; copy < copies; ++copy) {
    for (uint32_t v = 0; v < verts; ++v) {
      const Vec3& p = one.positions[v];
      s.positions.push_back({p.x + step * (float)copy, p.y, p.z});
    }
    s.normals.insert(s.normals.end(), one.normals.begin(), one.normals.end());
    s.uvs.insert(s.uvs.end(), one.uvs.begin(), one.uvs.end());
    s.colors.insert(s.colors.end(), one.colors.begin(), one.colors.end());
    for (uint32_t i : one.indices) s.indices.push_back(i + copy * verts);
    s.tri_material.insert(s.tri_material.end(), one.tri_material.begin(), one.tri_material.end());
  }
  s.bounds = compute_bounds(s.positions);
  return s;
}

void flip_winding(Scene& s, size_t first_triangle) {
  for (size_t t = first_triangle; t < s.triangle_count(); ++t) std::swap(s.indices[3 * t + 1], s.indices[3 * t + 2]);
}

Scene tetrahedron() {
  Scene s;
  s.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  s.indices = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
  return s;
}

Scene in_file_order(Scene s) {
  if (s.file_triangle.empty()) return s;
  BigVector<uint32_t> indices(s.indices.size()), materials(s.tri_material.size());
  for (uint32_t t = 0; t < s.triangle_count(); ++t) {
    const uint32_t f = s.file_triangle[t];
    for (int c = 0; c < 3; ++c) indices[3 * (size_t)f + c] = s.indices[3 * (size_t)t + c];
    if (!materials.empty()) materials[f] = s.tri_material[t];
  }
  s.indices = std::move(indices);
  s.tri_material = std::move(materials);
  s.file_triangle = {};
  s.meshlets = nullptr;
  return s;
}

}  // namespace facet::test
