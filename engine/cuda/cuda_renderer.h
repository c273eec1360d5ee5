// The CUDA backend: the scene uploaded once (with its meshlets), then every frame in kernels on
// one stream: geometry (projection + setup per meshlet, size-classed rasterization) -> resolve,
// written into an internal RGBA8 buffer or straight into a CUDA surface (a GL texture registered
// by the viewer).
// The host never waits inside a frame: timings and counters are read one frame late. A frame is
// launched as one CUDA graph (frame_graph.h): one launch per frame, whose kernels start while
// the one before drains (kernels/base/launch.h) and which needs no memset of its counters
// (kernels/frame/frame.cu). Dense frames of very large meshes cull hidden meshlets in two geometry
// passes (kernels/frame/geometry/occlusion.h), from what the previous frame showed.
#pragma once
#include <algorithm>
#include <array>
#include <memory>

#include "engine/cuda/device_buffer.h"
#include "engine/cuda/device_scene.h"
#include "engine/cuda/frame_graph.h"
#include "engine/render/option_names.h"
#include "engine/render/renderer.h"
#include "kernels/frame/stages.h"
#include "kernels/frame/tuning.h"

namespace facet {

class CudaRenderer final : public Renderer {
 public:
  CudaRenderer();
  ~CudaRenderer() override;
  const char* name() const override { return name_of(Backend::Cuda); }
  BackendCapabilities capabilities() const override;
  void set_scene(std::shared_ptr<const Scene> scene) override;
  void upload_ahead(const Scene& scene, UploadPart part) override;
  std::optional<bool> closed_outward_ahead(const Scene& scene) override;
  std::unique_ptr<uint32_t[]> centroid_order_ahead(const Scene& scene) override;
  void render(const Camera& camera, const RenderOptions& settings, int width, int height,
              const FrameTarget& target = {}) override;
  // Reading the frame back: cuda_frame_outputs.cpp.
  void read_rgba(std::vector<Rgba8>& out) override;
  void read_triangle_ids(std::vector<uint32_t>& out) override;
  void read_outputs(const FrameOutputs& out) override;
  PixelHit pick(int x, int y) override;
  FrameStats stats() const override;
  void render(const FrameParams& params, const FrameTarget& target = {}) override;
  void finish() override;
  void set_options(const BackendOptions& options) override { m_options = options; }
  void* native_stream() const override { return m_stream; }

  // Sets the starting queue sizes (tests force overflow with tiny ones; frames grow them).
  void set_queue_capacities(uint32_t warp_tris, uint32_t tile_items) {
    m_warp_capacity = std::max(warp_tris, 1u);
    m_tile_item_capacity = std::max(tile_items, 1u);
    m_warp_tris.release();
    m_tile_items.release();
    m_fallback.release();
  }
  // Executable graphs instantiated so far: stays at 2 (frames with and without the clear) while
  // the frame's shape stays the same, 4 where occlusion culling (two more kernels) comes and goes;
  // every other frame updates a graph in place.
  int graph_instantiations() const {
    int n = 0;
    for (const auto& by_occlusion : m_graphs)
      for (const FrameGraph& g : by_occlusion) n += g.instantiations();
    return n;
  }

 private:
  // Per-frame record, two deep so the host reads frame N-1 while frame N runs.
  struct FrameSlot {
    cudaEvent_t begin = nullptr, after_clear = nullptr, after_geometry = nullptr, end = nullptr;
    FrameCounters* host_counters = nullptr;  // pinned; resolve writes the counters here
    bool pending = false;                    // recorded, not yet read back
    uint32_t warp_capacity = 0;              // queue sizes this frame ran with
    uint32_t tile_item_capacity = 0;
    bool stage_marks = false;  // events between the stages (one frame in kTagCycle)
  };

  void ensure_frame_buffers(int width, int height, int samples);
  // One frame into `target`, and, where `grid_camera` is not null, the ground grid over it.
  void draw(const FrameParams& params, const FrameTarget& target, const Camera* grid_camera);
  // The image a frame for `target` resolves into: null for a surface.
  Rgba8* target_image(const FrameTarget& target) {
    return target.kind == FrameTarget::Kind::Surface  ? nullptr
           : target.kind == FrameTarget::Kind::Device ? target.pixels
                                                      : m_rgba.data();
  }
  // Records one frame on the stream; returns its parameters with the frame tag it used.
  FrameParams launch_frame(const FrameParams& params, const FrameTarget& target);
  // The raster stage's parameters for a frame, its geometry planned (engine/render/frame_plan.h).
  RasterStageParams raster_params(const FrameParams& fp, FrameCounters* counters) const;
  void record_frame(const FrameParams& fp, const RasterStageParams& rp, const FrameTarget& target, FrameSlot& slot,
                    bool clear);
  // Enqueues the frame's resolve on m_stream.
  void record_resolve(const FrameParams& fp, const RasterStageParams& rp, const FrameTarget& target, FrameSlot& slot,
                      bool after_kernel);
  void collect(FrameSlot& slot);  // reads a finished slot's timings and counters

  std::shared_ptr<const Scene> m_scene;
  DeviceScene m_device_scene;
  std::unique_ptr<DeviceScene> m_ahead;  // upload_ahead's part (or whole) of the next scene, until set_scene
  cudaStream_t m_stream = nullptr;
  PersistentBlocks m_persistent;  // blocks of the warp and tile raster kernels
  int m_geometry_blocks = 0;      // resident claiming geometry blocks on the whole device
  BackendOptions m_options;
  DeviceBuffer<uint32_t> m_hiz, m_hiz_coarse;  // occlusion culling's tile bounds (occlusion.h)
  uint32_t m_frame_number = 2;                 // of the next frame; its previous is never 0, the
                                               //   number DeviceScene::meshlet_seen starts at

  DeviceBuffer<uint64_t> m_vis;  // [width * height * samples] keys (raster.h, vis_index)
  DeviceBuffer<Rgba8> m_rgba;
  DeviceBuffer<uint8_t> m_output_scratch;  // read_outputs' device copies of host-bound outputs
  cudaEvent_t m_order_event = nullptr;     // read_outputs: orders device outputs with the caller's
                                           //   stream (made on first use)
  DeviceBuffer<FrameCounters> m_counters;  // two: this frame's, and the next one's (zeroed by resolve)
  int m_counter_index = 0;                 // the block the next frame counts into
  bool m_dependent_launches = false;       // the device overlaps dependent kernels (sm_90+)
  DeviceBuffer<RasterTri> m_warp_tris;     // the warp queue: medium and large triangles
  DeviceBuffer<TileItem> m_tile_items;
  DeviceBuffer<uint32_t> m_fallback;
  uint32_t m_warp_capacity = kWarpQueueStart;  // grown when a frame needed more
  uint32_t m_tile_item_capacity = kTileItemQueueStart;
  int m_width = 0, m_height = 0;
  int m_samples = 1;                     // keys a pixel the visibility buffer is laid out for
  static constexpr int kTagCycle = 4;    // frames per visibility-buffer clear (2 tag bits)
  int m_frames_since_clear = kTagCycle;  // kTagCycle: the next frame clears

  // By [clears the visibility buffer][culls by occlusion]: frames of four shapes (other nodes),
  // each replayed by a graph of its own that is updated in place.
  FrameGraph m_graphs[2][2];

  std::array<FrameSlot, 2> m_slots{};
  int m_slot = 0;
  FrameParams m_last{};
  bool m_have_frame = false;
  bool m_last_in_own_image = false;  // the last frame resolved into m_rgba (not a surface or the
                                     //   caller's memory)
  FrameStats m_stats;
};

}  // namespace facet
