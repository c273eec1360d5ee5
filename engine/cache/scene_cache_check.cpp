// check_cached_scene (scene_cache_check.h): the loader's guarantees about a Scene, checked again
// on one that comes from a cache file, and the meshlets' own invariants (meshlets.h). The checks
// over every index, triangle and meshlet run on every core (parallel.h): on a 100 M-triangle
// model they read 2 GB.
#include "engine/cache/scene_cache_check.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>

#include "engine/base/parallel.h"
#include "engine/cache/scene_cache_format.h"
#include "engine/meshlets/meshlets.h"

namespace facet {

namespace {

// The largest texture side kept: beyond it a mip chain's texel count could overflow.
constexpr int32_t kMaxTextureSide = 1 << 16;
// Elements a task checks: big enough to dwarf a task's cost, small enough to spread 1 M of them.
constexpr uint64_t kCheckPiece = uint64_t(1) << 16;

void require(bool ok, const char* what) {
  if (!ok) throw CacheFormatError(std::string("inconsistent scene: ") + what);
}

void check_textures(const Scene& s) {
  require(s.texture_paths.size() == s.textures.size(), "texture paths not parallel to textures");
  for (const TextureDesc& t : s.textures) {
    require(t.width > 0 && t.height > 0 && t.width <= kMaxTextureSide && t.height <= kMaxTextureSide,
            "a texture size out of range");
    uint64_t texels = 0;
    int levels = 1;
    for (int64_t w = t.width, h = t.height;; ++levels) {
      texels += (uint64_t)w * (uint64_t)h;
      if (w == 1 && h == 1) break;
      w = w > 1 ? w / 2 : 1;
      h = h > 1 ? h / 2 : 1;
    }
    require(t.levels == levels, "a texture's mip level count");
    require((uint64_t)t.offset + texels <= s.texels.size(), "a mip chain runs past the texels");
  }
  auto texture_ok = [&](int32_t t) { return t >= -1 && t < (int64_t)s.textures.size(); };
  for (const Material& m : s.materials)
    require(texture_ok(m.texture) && texture_ok(m.specular_texture) && texture_ok(m.emission_texture) &&
                texture_ok(m.alpha_texture),
            "a material names no texture");
  for (const Material& m : s.materials)
    require(m.ns >= 1 && m.ns <= kMaxShininess, "a material's specular exponent out of range");
}

// True when ok(begin, end) holds for every piece of [0, n), the pieces checked on every core.
template <class Ok>
bool all_pieces(uint64_t n, Ok ok) {
  std::atomic<bool> good{true};
  parallel_for(n, kCheckPiece, [&](uint64_t begin, uint64_t end, unsigned) {
    if (good.load(std::memory_order_relaxed) && !ok(begin, end)) good.store(false, std::memory_order_relaxed);
  });
  return good.load();
}

// Every value of `v` below `limit` (a maximum a piece: the loop vectorizes).
bool all_below(const BigVector<uint32_t>& v, uint64_t limit) {
  return all_pieces(v.size(), [&](uint64_t begin, uint64_t end) {
    uint32_t most = 0;
    for (uint64_t i = begin; i < end; ++i) most = std::max(most, v[i]);
    return most < limit;
  });
}

// Each id below `count` and none twice (ids.size() == count): every id marks its triangle, and
// `count` ids in range mark `count` triangles only if none repeats.
bool is_permutation_of_count(const BigVector<uint32_t>& ids, uint64_t count) {
  if (!all_below(ids, count)) return false;
  std::unique_ptr<std::atomic<uint8_t>[]> seen(new std::atomic<uint8_t>[count]);  // not zeroed yet
  parallel_for(count, kCheckPiece, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t i = begin; i < end; ++i) seen[i].store(0, std::memory_order_relaxed);
  });
  parallel_for(count, kCheckPiece, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t i = begin; i < end; ++i) seen[ids[i]].store(1, std::memory_order_relaxed);
  });
  std::atomic<uint64_t> marked{0};
  parallel_for(count, kCheckPiece, [&](uint64_t begin, uint64_t end, unsigned) {
    uint64_t n = 0;
    for (uint64_t i = begin; i < end; ++i) n += seen[i].load(std::memory_order_relaxed);
    marked.fetch_add(n, std::memory_order_relaxed);
  });
  return marked.load() == count;
}

// The slot after a meshlet's last.
uint64_t slots_end(const Meshlet& ml) { return (uint64_t)ml.first_triangle + ml.triangle_count; }

// What is wrong with meshlet `i` (its counts, its slots following the previous meshlet's, its
// positions and local indices), or null. m.triangles holds `tris` slots.
const char* meshlet_problem(const Meshlets& m, uint64_t i, uint64_t tris) {
  const Meshlet& ml = m.meshlets[i];
  if (!(ml.triangle_count >= 1 && ml.triangle_count <= kMeshletMaxTriangles && ml.vertex_count >= 1 &&
        ml.vertex_count <= kMeshletMaxVertices))
    return "a meshlet's counts";
  // Slots are consecutive: together the meshlets cover each slot exactly once.
  const uint64_t first = i == 0 ? 0 : slots_end(m.meshlets[i - 1]);
  if (ml.first_triangle != first) return "meshlet slots not consecutive";
  if (slots_end(ml) > tris) return "a meshlet runs past the slots";
  if ((uint64_t)ml.first_vertex + ml.vertex_count > m.positions.size()) return "a meshlet runs past its positions";
  for (uint32_t k = 0; k < ml.triangle_count; ++k)
    for (int c = 0; c < 3; ++c)
      if (local_index(m.triangles[ml.first_triangle + k], c) >= ml.vertex_count) return "a meshlet's local index";
  return nullptr;
}

void check_meshlets(const Scene& s) {
  require(s.meshlets != nullptr, "no meshlets");
  const Meshlets& m = *s.meshlets;
  const uint64_t tris = s.triangle_count();
  require(m.triangles.size() == tris, "meshlet slots are not one per triangle");
  require(m.triangle_ids.empty() || m.triangle_ids.size() == tris, "meshlet triangle ids");
  require(m.triangle_ids.empty() || is_permutation_of_count(m.triangle_ids, tris),
          "a meshlet triangle id out of range or repeated");
  // A renumbered scene's slots hold its triangles in order (triangle_renumber.h).
  require(s.file_triangle.empty() || (m.triangle_ids.empty() && s.file_triangle.size() == tris),
          "file triangle numbers");
  require(s.file_triangle.empty() || is_permutation_of_count(s.file_triangle, tris),
          "a file triangle number out of range or repeated");
  // The first meshlet with a problem names it, as a check in meshlet order would.
  std::atomic<uint64_t> first_bad{UINT64_MAX};
  const uint64_t per_task = kCheckPiece / kMeshletMaxTriangles;
  parallel_for(m.meshlets.size(), per_task, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t i = begin; i < end && i < first_bad.load(std::memory_order_relaxed); ++i)
      if (meshlet_problem(m, i, tris)) {
        uint64_t was = first_bad.load(std::memory_order_relaxed);
        while (i < was && !first_bad.compare_exchange_weak(was, i, std::memory_order_relaxed)) {}
        return;
      }
  });
  if (first_bad.load() != UINT64_MAX) require(false, meshlet_problem(m, first_bad.load(), tris));
  const uint64_t covered = m.meshlets.empty() ? 0 : slots_end(m.meshlets.back());
  require(covered == tris, "meshlets do not cover every triangle");
}

}  // namespace

void check_cached_scene(const Scene& s) {
  const uint64_t nv = s.positions.size();
  require(nv > 0 && !s.indices.empty() && s.indices.size() % 3 == 0, "no triangles");
  require(nv <= UINT32_MAX && s.indices.size() / 3 <= UINT32_MAX, "too many vertices or triangles");
  require(all_below(s.indices, nv), "an index names no vertex");
  require(s.normals.size() == nv, "normals are not one per vertex");
  require(s.uvs.empty() || s.uvs.size() == nv, "uvs are neither absent nor one per vertex");
  require(s.colors.empty() || s.colors.size() == nv, "vertex colours are neither absent nor one per vertex");
  require(s.tri_material.size() == s.indices.size() / 3, "materials are not one per triangle");
  require(!s.materials.empty() && s.material_names.size() == s.materials.size(), "materials");
  require(all_below(s.tri_material, s.materials.size()), "a triangle names no material");
  check_textures(s);
  require(s.bounds.radius > 0 && std::isfinite(s.bounds.radius), "bounds");
  check_meshlets(s);
}

}  // namespace facet
