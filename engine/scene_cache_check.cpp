// check_cached_scene (scene_cache_check.h): the loader's guarantees about a Scene, checked again
// on one that comes from a cache file, and the meshlets' own invariants (meshlets.h).
#include "engine/scene_cache_check.h"

#include <cmath>

#include "engine/meshlets.h"
#include "engine/scene_cache_format.h"

namespace facet {

namespace {

// The largest texture side kept: beyond it a mip chain's texel count could overflow.
constexpr int32_t kMaxTextureSide = 1 << 16;

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

void check_meshlets(const Scene& s) {
  require(s.meshlets != nullptr, "no meshlets");
  const Meshlets& m = *s.meshlets;
  const uint64_t tris = s.triangle_count();
  require(m.triangles.size() == tris, "meshlet slots are not one per triangle");
  require(m.triangle_ids.empty() || m.triangle_ids.size() == tris, "meshlet triangle ids");
  std::vector<uint8_t> seen(m.triangle_ids.empty() ? 0 : tris, 0);
  for (uint32_t id : m.triangle_ids) {
    require(id < tris && !seen[id], "a meshlet triangle id out of range or repeated");
    seen[id] = 1;
  }
  uint64_t next_slot = 0;
  for (const Meshlet& ml : m.meshlets) {
    require(ml.triangle_count >= 1 && ml.triangle_count <= kMeshletMaxTriangles &&
                ml.vertex_count >= 1 && ml.vertex_count <= kMeshletMaxVertices,
            "a meshlet's counts");
    // Slots are consecutive: together the meshlets cover each slot exactly once.
    require(ml.first_triangle == next_slot, "meshlet slots not consecutive");
    next_slot += ml.triangle_count;
    require(next_slot <= tris, "a meshlet runs past the slots");
    require((uint64_t)ml.first_vertex + ml.vertex_count <= m.positions.size(),
            "a meshlet runs past its positions");
    for (uint32_t k = 0; k < ml.triangle_count; ++k)
      for (int c = 0; c < 3; ++c)
        require(local_index(m.triangles[ml.first_triangle + k], c) < ml.vertex_count,
                "a meshlet's local index");
  }
  require(next_slot == tris, "meshlets do not cover every triangle");
}

}  // namespace

void check_cached_scene(const Scene& s) {
  const uint64_t nv = s.positions.size();
  require(nv > 0 && !s.indices.empty() && s.indices.size() % 3 == 0, "no triangles");
  require(nv <= UINT32_MAX && s.indices.size() / 3 <= UINT32_MAX, "too many vertices or triangles");
  for (uint32_t i : s.indices) require(i < nv, "an index names no vertex");
  require(s.normals.size() == nv, "normals are not one per vertex");
  require(s.uvs.empty() || s.uvs.size() == nv, "uvs are neither absent nor one per vertex");
  require(s.colors.empty() || s.colors.size() == nv, "vertex colours are neither absent nor one per vertex");
  require(s.tri_material.size() == s.indices.size() / 3, "materials are not one per triangle");
  require(!s.materials.empty() && s.material_names.size() == s.materials.size(), "materials");
  for (uint32_t m : s.tri_material) require(m < s.materials.size(), "a triangle names no material");
  check_textures(s);
  require(s.bounds.radius > 0 && std::isfinite(s.bounds.radius), "bounds");
  check_meshlets(s);
}

}  // namespace facet
