// finish_scene: the format-independent end of loading (scene_finish.h). Normals the file gave
// are normalised; those that are zero or not finite are replaced by computed ones, so shading
// never reads a NaN.
#include "engine/scene_finish.h"

#include <cmath>
#include <set>

#include "engine/closed_surface.h"
#include "engine/colour_space.h"
#include "engine/loader.h"

namespace facet {

void drop_repeated_warnings(Scene& scene) {
  std::set<std::string> seen;
  std::vector<std::string> unique;
  for (std::string& w : scene.warnings)
    if (seen.insert(w).second) unique.push_back(std::move(w));
  scene.warnings = std::move(unique);
}

namespace {

// Removes triangles with a corner on a non-finite position; returns how many went.
size_t drop_nonfinite_faces(Scene& scene) {
  std::vector<uint32_t>& idx = scene.indices;
  size_t kept = 0;
  for (size_t t = 0; t + 2 < idx.size(); t += 3) {
    if (!finite3(scene.positions[idx[t]]) || !finite3(scene.positions[idx[t + 1]]) ||
        !finite3(scene.positions[idx[t + 2]]))
      continue;
    idx[kept] = idx[t];
    idx[kept + 1] = idx[t + 1];
    idx[kept + 2] = idx[t + 2];
    kept += 3;
  }
  size_t dropped = (idx.size() - kept) / 3;
  idx.resize(kept);
  return dropped;
}

// Normalises the file's normals in place; returns the vertices whose normal could not be (zero
// or not finite), left as NaN for the caller to replace.
std::vector<size_t> normalise_file_normals(std::vector<Vec3>& normals) {
  std::vector<size_t> bad;
  for (size_t i = 0; i < normals.size(); ++i) {
    const Vec3 n = normals[i];
    double l = std::sqrt((double)n.x * n.x + (double)n.y * n.y + (double)n.z * n.z);
    if (l > 0 && std::isfinite(l))
      normals[i] = {(float)(n.x / l), (float)(n.y / l), (float)(n.z / l)};
    else
      bad.push_back(i);
  }
  return bad;
}

}  // namespace

void finish_scene(Scene& scene, const std::string& path) {
  if (scene.source.empty()) scene.source = path;
  if (size_t dropped = drop_nonfinite_faces(scene)) {
    if (scene.indices.empty())
      throw LoadError(path + ": no triangles left after dropping " + std::to_string(dropped) +
                      " faces with NaN or infinite vertex positions");
    scene.warnings.push_back(path + ": dropped " + std::to_string(dropped) +
                             " faces with NaN or infinite vertex positions");
  }
  if (scene.normals.size() != scene.positions.size()) {
    scene.normals = compute_vertex_normals(scene.positions, scene.indices);
  } else if (std::vector<size_t> bad = normalise_file_normals(scene.normals); !bad.empty()) {
    std::vector<Vec3> computed = compute_vertex_normals(scene.positions, scene.indices);
    for (size_t i : bad) scene.normals[i] = computed[i];
    scene.warnings.push_back(path + ": " + std::to_string(bad.size()) +
                               " vertex normals were zero or not finite; computed from the "
                               "geometry instead");
  }
  if (scene.materials.empty()) {
    scene.materials.push_back(Material{{kDefaultGreyLinear, kDefaultGreyLinear, kDefaultGreyLinear}, -1});
    scene.material_names.push_back("<default>");
  }
  scene.tri_material.assign(scene.triangle_count(), 0);
  scene.bounds = compute_bounds(scene.positions);
  scene.bounds.closed = closed_outward(scene.positions, scene.indices);
}

}  // namespace facet
