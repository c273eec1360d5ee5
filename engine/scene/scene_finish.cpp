// finish_scene: the format-independent end of loading (scene_finish.h). Normals the file gave
// are normalised; those that are zero or not finite are replaced by computed ones, so shading
// never reads a NaN.
#include "engine/scene/scene_finish.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <set>

#include "engine/base/big_array.h"
#include "engine/base/parallel.h"
#include "engine/base/step_timing.h"
#include "engine/load/load_model.h"
#include "engine/scene/colour_space.h"

namespace facet {

void drop_repeated_warnings(Scene& scene) {
  std::set<std::string> seen;
  std::vector<std::string> unique;
  for (std::string& w : scene.warnings)
    if (seen.insert(w).second) unique.push_back(std::move(w));
  scene.warnings = std::move(unique);
}

namespace {

// Vertices per parallel_for chunk of the passes below: enough that handing out chunks costs
// nothing, small enough to spread a 100 K-vertex model over the cores.
constexpr uint64_t kVertexChunk = 1 << 15;

bool finite_triangle(const Scene& scene, size_t t) {
  const BigVector<uint32_t>& idx = scene.indices;
  return finite3(scene.positions[idx[3 * t]]) && finite3(scene.positions[idx[3 * t + 1]]) &&
         finite3(scene.positions[idx[3 * t + 2]]);
}

// Whether any position is NaN or infinite: one pass over the vertices in order, cheaper than
// gathering every triangle's three corners (twice as many vertices, scattered).
bool any_nonfinite_position(const BigVector<Vec3>& positions) {
  std::atomic<bool> any{false};
  parallel_for(positions.size(), kVertexChunk, [&](uint64_t begin, uint64_t end, unsigned) {
    bool found = false;
    for (uint64_t i = begin; i < end; ++i) found |= !finite3(positions[i]);
    if (found) any.store(true, std::memory_order_relaxed);
  });
  return any.load();
}

// Removes triangles with a corner on a non-finite position; returns how many went. The look at
// the positions runs on every core; the compaction, in order, only where a position is not finite
// (a rare file).
size_t drop_nonfinite_faces(Scene& scene) {
  BigVector<uint32_t>& idx = scene.indices;
  const size_t triangles = idx.size() / 3;
  if (!any_nonfinite_position(scene.positions)) {
    idx.resize(3 * triangles);
    return 0;
  }
  size_t kept = 0;
  for (size_t t = 0; t < triangles; ++t) {
    if (!finite_triangle(scene, t)) continue;
    idx[kept] = idx[3 * t];
    idx[kept + 1] = idx[3 * t + 1];
    idx[kept + 2] = idx[3 * t + 2];
    kept += 3;
  }
  idx.resize(kept);
  return triangles - kept / 3;
}

bool normalisable(const Vec3& n, double* length) {
  *length = std::sqrt((double)n.x * n.x + (double)n.y * n.y + (double)n.z * n.z);
  return *length > 0 && std::isfinite(*length);
}

// Normalises the file's normals in place on every core; returns the vertices whose normal could
// not be (zero or not finite), left as they were for the caller to replace, in vertex order.
std::vector<size_t> normalise_file_normals(BigVector<Vec3>& normals) {
  const size_t chunks = (normals.size() + kVertexChunk - 1) / kVertexChunk;
  std::vector<uint8_t> has_bad(chunks, 0);
  parallel_for(chunks, 1, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t c = begin; c < end; ++c)
      for (size_t i = c * kVertexChunk; i < std::min(normals.size(), (c + 1) * kVertexChunk); ++i) {
        const Vec3 n = normals[i];
        double l;
        if (normalisable(n, &l))
          normals[i] = {(float)(n.x / l), (float)(n.y / l), (float)(n.z / l)};
        else
          has_bad[c] = 1;
      }
  });
  std::vector<size_t> bad;
  double l;
  for (size_t c = 0; c < chunks; ++c)  // a normalised normal stays normalisable
    for (size_t i = c * kVertexChunk; has_bad[c] && i < std::min(normals.size(), (c + 1) * kVertexChunk); ++i)
      if (!normalisable(normals[i], &l)) bad.push_back(i);
  return bad;
}

}  // namespace

void finish_scene(Scene& scene, const std::string& path) {
  if (scene.source.empty()) scene.source = path;
  StepTimer timer("finish");
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
    BigVector<Vec3> computed = compute_vertex_normals(scene.positions, scene.indices);
    for (size_t i : bad) scene.normals[i] = computed[i];
    scene.warnings.push_back(path + ": " + std::to_string(bad.size()) +
                             " vertex normals were zero or not finite; computed from the "
                             "geometry instead");
  }
  timer.step("drop, normals");
  if (scene.materials.empty()) {
    scene.materials.push_back(Material{{kDefaultGreyLinear, kDefaultGreyLinear, kDefaultGreyLinear}, -1});
    scene.material_names.push_back("<default>");
  }
  scene.tri_material.clear();
  resize_on_every_core(scene.tri_material, scene.triangle_count());  // all material 0
  timer.step("materials");
  scene.bounds = compute_bounds(scene.positions);
  timer.step("bounds");
}

}  // namespace facet
