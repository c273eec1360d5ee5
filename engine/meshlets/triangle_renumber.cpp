#include "engine/meshlets/triangle_renumber.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "engine/base/parallel.h"

namespace facet {

namespace {
// Triangles a task: a gather of 12-16 bytes each, a few hundred KB a piece.
constexpr uint64_t kRenumberPiece = uint64_t(1) << 15;

// out[i] = in[from[i]] for an array of `width` values a triangle, in place through a copy.
template <class T>
void gather_in_place(BigVector<T>& values, const BigVector<uint32_t>& from, int width) {
  const uint64_t n = from.size();
  BigVector<T> before(values.size());
  parallel_for(values.size(), kRenumberPiece * width, [&](uint64_t begin, uint64_t end, unsigned) {
    std::copy(values.begin() + begin, values.begin() + end, before.begin() + begin);
  });
  parallel_for(n, kRenumberPiece, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t i = begin; i < end; ++i)
      for (int c = 0; c < width; ++c) values[width * i + c] = before[width * (uint64_t)from[i] + c];
  });
}
}  // namespace

bool renumbers(const Scene& scene, const Meshlets& m) {
  const uint64_t n = scene.triangle_count();
  return scene.file_triangle.empty() && m.triangle_ids.size() == n && n > 0 &&
         (scene.tri_material.empty() || scene.tri_material.size() == n);
}

void renumber_in_slot_order(Scene& scene, Meshlets& m) {
  if (!renumbers(scene, m)) return;
  gather_in_place(scene.indices, m.triangle_ids, 3);
  if (!scene.tri_material.empty()) gather_in_place(scene.tri_material, m.triangle_ids, 1);
  scene.file_triangle = std::move(m.triangle_ids);
  m.triangle_ids = {};
}

void keep_meshlets_in_slot_order(Scene& scene, Meshlets m) {
  renumber_in_slot_order(scene, m);
  scene.meshlets = std::make_shared<const Meshlets>(std::move(m));
}

void prepare_in_slot_order(Scene& scene, MeshletGrouping grouping) {
  MeshletBuildHooks hooks;
  hooks.grouping = grouping;
  keep_meshlets_in_slot_order(scene, build_meshlets_with(scene, hooks));
}

}  // namespace facet
