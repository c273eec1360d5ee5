// The scene in device memory, uploaded once per model. Replacing it builds the new buffers
// first, so a failed upload (out of memory) leaves the previous scene intact.
#pragma once
#include "engine/cuda/device_buffer.h"
#include "engine/scene.h"

namespace facet {

class DeviceScene {
 public:
  // Throws (naming the array and its size) when device memory runs out; *this is unchanged then.
  void upload(const Scene& scene);
  SceneView view() const;
  size_t bytes() const;
  bool empty() const { return m_triangle_count == 0 && m_vertex_count == 0; }

 private:
  DeviceBuffer<Vec3> m_positions;     // what the vertex stage streams (12 bytes a vertex)
  DeviceBuffer<ShadeVertex> m_shade;  // what resolve gathers (one sector a vertex)
  bool m_has_uvs = false;
  DeviceBuffer<uint32_t> m_indices, m_tri_material;
  DeviceBuffer<Material> m_materials;
  DeviceBuffer<TextureDesc> m_textures;
  DeviceBuffer<Rgba8> m_texels;
  uint32_t m_vertex_count = 0, m_triangle_count = 0;
};

}  // namespace facet
