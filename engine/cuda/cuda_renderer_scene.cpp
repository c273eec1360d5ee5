// The CUDA backend's scene: set_scene, which swaps in an upload only once it is complete, and
// the work ahead of it on a load's thread (the upload in part or whole, the closed-surface check
// and the Morton order on the device). The frames are cuda_renderer.cpp's.
#include "engine/cuda/cuda_renderer.h"

#include <stdexcept>

#include "engine/cuda/device_centroid_order.h"
#include "engine/cuda/device_closed_check.h"
#include "engine/cuda/staged_upload.h"

namespace facet {

void CudaRenderer::set_scene(std::shared_ptr<const Scene> scene) {
  if (!scene) throw std::invalid_argument("set_scene: no scene");
  FACET_CUDA_CHECK(cudaStreamSynchronize(m_stream));  // no frame may still read the old scene
  // Everything the new scene needs is allocated before anything of the old one is let go, so a
  // failure (out of memory) leaves the previous scene drawable.
  std::unique_ptr<DeviceScene> ahead = std::move(m_ahead);  // used once, or freed here
  // A head start whose vertex arrays already went into the meshlet layout of other meshlets
  // cannot take these: uploaded again whole.
  bool sent = false;
  if (ahead && ahead->holds_shading_of(*scene) && (ahead->holds_meshlets_of(*scene) || ahead->vertex_records())) {
    try {
      if (!ahead->holds_meshlets_of(*scene)) {
        StagedUpload staged;
        ahead->upload_meshlets(*scene, staged);
      }
      m_device_scene = std::move(*ahead);
      sent = true;
    } catch (const DeviceOutOfMemory&) {
      // No room for the layout beside the records sent ahead: they go, and upload finds a route.
    }
  }
  if (!sent) {
    ahead.reset();
    m_device_scene.upload(*scene);  // throws and keeps the old one on failure
  }
  m_scene = std::move(scene);
  uint64_t overflow = m_stats.overflow_events;
  m_stats = {};
  m_stats.overflow_events = overflow;
  m_stats.triangles_in = m_scene->triangle_count();
  m_stats.scene_bytes = m_device_scene.bytes();
  for (FrameSlot& s : m_slots) s.pending = false;
  m_have_frame = false;
}

void CudaRenderer::upload_ahead(const Scene& scene, UploadPart part) {
  m_ahead.reset();  // a head start for another scene is of no use now
  auto ahead = std::make_unique<DeviceScene>();
  if (part == UploadPart::Whole) {
    ahead->upload(scene);  // by the route the device has room for
  } else {
    // Where the records cannot sit beside the layout, set_scene takes the host route: sending
    // them would only crowd out what the load's steps on the device need.
    if (!DeviceScene::room_for_vertex_route(scene))
      throw DeviceOutOfMemory("no room on the device for the scene's vertex records beside its meshlet layout");
    StagedUpload staged;
    ahead->upload_shading(scene, staged);
  }
  m_ahead = std::move(ahead);
}

std::optional<bool> CudaRenderer::closed_outward_ahead(const Scene& scene) {
  if (!m_ahead || !m_ahead->holds_shading_of(scene)) return std::nullopt;
  if (!m_ahead->vertex_records()) return std::nullopt;  // already in the meshlet layout
  return closed_outward_on_device(m_ahead->vertex_records(), scene.vertex_count(), m_ahead->vertex_indices(),
                                  scene.triangle_count(), scene.bounds.center);
}

std::unique_ptr<uint32_t[]> CudaRenderer::centroid_order_ahead(const Scene& scene) {
  if (!m_ahead || !m_ahead->holds_shading_of(scene)) return nullptr;
  if (!m_ahead->vertex_records()) return nullptr;
  return centroid_order_on_device(m_ahead->vertex_records(), scene.vertex_count(), m_ahead->vertex_indices(),
                                  scene.triangle_count());
}

}  // namespace facet
