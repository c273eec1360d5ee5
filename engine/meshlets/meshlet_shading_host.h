// The meshlet layout of a scene's shading (kernels/prepare/meshlet_shading.h) made on the host, range by
// range, for an upload with no room on the device for the scene's vertex records and index
// triples beside the layout they become (DeviceScene's host route): the upload's staging buffers
// are filled from here on every core while earlier ones cross the bus, so the device holds the
// finished scene and nothing more, and the host no copy of the layout either. The same bits as
// the device's kernel from the same scene (gather_meshlet_slot; the gpu tests compare them).
#pragma once
#include <cstddef>

#include "engine/base/big_vector.h"
#include "engine/meshlets/corner_bases.h"
#include "engine/meshlets/meshlets.h"
#include "engine/scene/scene.h"
#include "kernels/frame/params.h"

namespace facet {

class MeshletShadingOnHost {
 public:
  // Finds each meshlet vertex's scene vertex, on every core (4 bytes a meshlet vertex), and the
  // corners' vertex bases (corner_bases.h). `scene` and `meshlets` (scene_meshlets) must outlive
  // this. Every meshlet vertex has at least one corner (build_meshlets; check_cached_scene for a
  // cached scene).
  MeshletShadingOnHost(const Scene& scene, const Meshlets& meshlets);

  size_t vertex_count() const { return m_source.size(); }
  const CornerBases& bases() const { return m_bases; }
  // Slot i holds triangle i (runs in the file's order, a renumbered scene): the corners can be
  // made by ranges of triangles. Else only whole (scattered_corners).
  bool corners_by_range() const { return m_meshlets.triangle_ids.empty(); }

  // Entries [begin, end) of each array, written from out[0]: from any thread, for any ranges.
  void corners(size_t begin, size_t end, uint32_t* out) const;  // corners_by_range only
  void points(size_t begin, size_t end, MeshletPoint* out) const;
  void uvs(size_t begin, size_t end, Vec2* out) const;      // the scene has uvs
  void colors(size_t begin, size_t end, Rgba8* out) const;  // the scene has vertex colours

  // [triangle_count] every triangle's corners, on every core, whatever the slots' order.
  BigVector<uint32_t> scattered_corners() const;

 private:
  const Scene& m_scene;
  const Meshlets& m_meshlets;
  BigVector<uint32_t> m_source;  // per meshlet vertex: its scene vertex
  CornerBases m_bases;
};

}  // namespace facet
