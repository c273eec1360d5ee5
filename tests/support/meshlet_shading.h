// The meshlet layout of a scene's shading (kernels/prepare/meshlet_shading.h) built on the host, on every
// core: the reference the gpu tests hold the upload's kernel (kernels/prepare/meshlet_shading.cu) to, and
// what the CPU tests read the scene through to check that both layouts give the same bits. Plain
// host code with no CUDA in it.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/base/parallel.h"
#include "engine/meshlets/corner_bases.h"
#include "engine/meshlets/meshlets.h"
#include "engine/scene/scene.h"
#include "kernels/prepare/meshlet_shading.h"
#include "tests/support/triangle_meshlets.h"  // kMeshletsPerPiece

namespace facet {

struct HostMeshletShading {
  std::shared_ptr<const Meshlets> meshlets;
  CornerBases bases;                 // the corners' vertex bases (made as the upload makes them)
  std::vector<uint32_t> corners;     // [triangle_count] corner words
  std::vector<MeshletPoint> points;  // per meshlet vertex
  std::vector<Vec2> uvs;             // per meshlet vertex, or empty without uvs
  std::vector<Rgba8> colors;         // per meshlet vertex, or empty without vertex colours

  // `base` (a scene layout view of the same scene) with its vertex arrays swapped for these.
  SceneView view(SceneView base) const {
    base.positions = nullptr;
    base.shade = nullptr;
    base.indices = nullptr;
    base.colors = colors.empty() ? nullptr : colors.data();
    base.meshlet = {corners.data(), bases.bases.data(), bases.shift, points.data(), uvs.empty() ? nullptr : uvs.data()};
    return base;
  }
};

// Every entry written: each triangle has one slot (build_meshlets; check_cached_scene for a cached
// scene) and each meshlet vertex at least one corner.
inline HostMeshletShading host_meshlet_shading(const Scene& s, std::shared_ptr<const Meshlets> m,
                                               const std::vector<ShadeVertex>& shade) {
  HostMeshletShading h;
  h.meshlets = std::move(m);
  const Meshlets& ms = *h.meshlets;
  const size_t vertices = ms.positions.size();
  h.bases = corner_bases(ms, s.triangle_count());
  h.corners.assign(s.triangle_count(), ~0u);  // no corner word: local indices under 128
  h.points.resize(vertices);
  if (!s.uvs.empty()) h.uvs.resize(vertices);
  if (!s.colors.empty()) h.colors.resize(vertices);
  MeshletShadingArrays a;
  a.meshlets = ms.meshlets.data();
  a.meshlet_count = (uint32_t)ms.meshlets.size();
  a.triangles = ms.triangles.data();
  a.triangle_ids = ms.triangle_ids.empty() ? nullptr : ms.triangle_ids.data();
  a.indices = s.indices.data();
  a.shade = shade.data();
  a.colors = s.colors.empty() ? nullptr : s.colors.data();
  a.vertex_bases = h.bases.bases.data();
  a.base_shift = h.bases.shift;
  a.corners = h.corners.data();
  a.points = h.points.data();
  a.uvs = h.uvs.empty() ? nullptr : h.uvs.data();
  a.vertex_colors = h.colors.empty() ? nullptr : h.colors.data();
  parallel_for(ms.meshlets.size(), kMeshletsPerPiece, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t i = begin; i < end; ++i) {
      const Meshlet& ml = ms.meshlets[i];
      for (uint32_t k = 0; k < ml.triangle_count; ++k) gather_meshlet_slot(a, ml, k);
    }
  });
  return h;
}

}  // namespace facet
