#include "engine/meshlets/meshlet_shading_host.h"

#include <algorithm>

#include "engine/base/parallel.h"
#include "kernels/frame/resolve/normal_code.h"

namespace facet {

namespace {
// Meshlets a task: about 64 K triangles, enough that handing out pieces costs nothing, small enough
// to spread a 1 M-triangle model over 16 cores.
constexpr uint64_t kShadingMeshletsPerPiece = 512;
// Meshlet vertices whose scene vertex is asked for ahead of reading it. They are read in the
// meshlets' order, scattered through the scene's arrays, each a cache miss whose latency bounds a
// plain loop (docs/performance.md); 128 vertices' two lines each overlap their misses and stay
// within L1.
constexpr size_t kPrefetchVertices = 128;
}  // namespace

MeshletShadingOnHost::MeshletShadingOnHost(const Scene& s, const Meshlets& m)
    : m_scene(s), m_meshlets(m), m_source(m.positions.size()), m_bases(corner_bases(m, s.triangle_count())) {
  // A meshlet vertex holds one scene vertex, so each of its corners writes the same number.
  parallel_for(m.meshlets.size(), kShadingMeshletsPerPiece, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t i = begin; i < end; ++i) {
      const Meshlet& ml = m.meshlets[i];
      for (uint32_t k = 0; k < ml.triangle_count; ++k) {
        const uint32_t slot = ml.first_triangle + k;
        const uint32_t packed = m.triangles[slot];
        const uint64_t tri = scene_triangle(m, slot);
        for (int c = 0; c < 3; ++c) m_source[ml.first_vertex + local_index(packed, c)] = s.indices[3 * tri + c];
      }
    }
  });
}

void MeshletShadingOnHost::corners(size_t begin, size_t end, uint32_t* out) const {
  if (begin >= end) return;
  const BigVector<Meshlet>& ms = m_meshlets.meshlets;
  // The meshlet holding slot `begin`: slots are handed out in the meshlets' order.
  size_t i = std::upper_bound(ms.begin(), ms.end(), (uint32_t)begin,
                              [](uint32_t slot, const Meshlet& ml) { return slot < ml.first_triangle; }) -
             ms.begin() - 1;
  for (size_t slot = begin; slot < end; ++slot) {
    while (slot >= (size_t)ms[i].first_triangle + ms[i].triangle_count) ++i;
    out[slot - begin] = corner_word(m_meshlets.triangles[slot], corner_offset(m_bases, ms[i], (uint32_t)slot));
  }
}

void MeshletShadingOnHost::points(size_t begin, size_t end, MeshletPoint* out) const {
  const Scene& s = m_scene;
  for (size_t first = begin; first < end; first += kPrefetchVertices) {
    const size_t last = std::min(end, first + kPrefetchVertices);
    for (size_t v = first; v < last; ++v) {
      const uint32_t from = m_source[v];
      __builtin_prefetch(&s.positions[from]);
      if (from < s.normals.size()) __builtin_prefetch(&s.normals[from]);
    }
    // The code of the quantized normal the device would be sent (interleave_shade_range) is the
    // normal's own: a decoded code encodes to itself (normal_code.h), one encoding, not three.
    for (size_t v = first; v < last; ++v) {
      const uint32_t from = m_source[v];
      out[v - begin] = {s.positions[from], from < s.normals.size() ? encode_normal(s.normals[from]) : kNoNormalCode};
    }
  }
}

void MeshletShadingOnHost::uvs(size_t begin, size_t end, Vec2* out) const {
  for (size_t v = begin; v < end; ++v) out[v - begin] = m_scene.uvs[m_source[v]];
}

void MeshletShadingOnHost::colors(size_t begin, size_t end, Rgba8* out) const {
  for (size_t v = begin; v < end; ++v) out[v - begin] = m_scene.colors[m_source[v]];
}

BigVector<uint32_t> MeshletShadingOnHost::scattered_corners() const {
  const Meshlets& m = m_meshlets;
  BigVector<uint32_t> out(m_scene.triangle_count());
  parallel_for(m.meshlets.size(), kShadingMeshletsPerPiece, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t i = begin; i < end; ++i) {
      const Meshlet& ml = m.meshlets[i];
      for (uint32_t k = 0; k < ml.triangle_count; ++k) {
        const uint32_t tri = scene_triangle(m, ml.first_triangle + k);
        out[tri] = corner_word(m.triangles[ml.first_triangle + k], corner_offset(m_bases, ml, tri));
      }
    }
  });
  return out;
}

}  // namespace facet
