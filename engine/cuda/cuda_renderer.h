// The CUDA backend: the scene uploaded once (with its meshlets), then every frame in kernels on
// one stream: geometry (projection + setup per meshlet, size-classed rasterization) -> resolve,
// written into an internal RGBA8 buffer or straight into a CUDA surface (a GL texture registered
// by the viewer).
// The host never waits inside a frame: timings and counters are read one frame late. A frame is
// launched as one CUDA graph (frame_graph.h): one launch per frame, whose kernels start while
// the one before drains (dependent_launch.h) and which needs no memset of its counters (the
// previous frame's resolve zeroed them). Dense frames of very large meshes cull hidden meshlets
// in two geometry passes (kernels/occlusion.h), from what the previous frame showed.
#pragma once
#include <algorithm>
#include <array>
#include <memory>

#include "engine/cuda/device_buffer.h"
#include "engine/cuda/device_scene.h"
#include "engine/cuda/frame_graph.h"
#include "engine/renderer.h"
#include "kernels/stages.h"

namespace facet {

class CudaRenderer final : public Renderer {
 public:
  CudaRenderer();
  ~CudaRenderer() override;
  const char* name() const override { return "cuda"; }
  void set_scene(std::shared_ptr<const Scene> scene) override;
  void render(const Camera& camera, const RenderSettings& settings, int width, int height,
              const FrameTarget& target = {}) override;
  void read_rgba(std::vector<Rgba8>& out) override;
  void read_triangle_ids(std::vector<uint32_t>& out) override;
  PixelHit pick(int x, int y) override;
  FrameStats stats() const override;

  // A frame from explicit parameters (tests share them with the CPU backend).
  void render(const FrameParams& params, const FrameTarget& target = {});
  // Waits for the frame in flight and folds its timings and counters into stats().
  void finish();
  cudaStream_t stream() const { return m_stream; }
  // Sets the starting queue sizes (tests force overflow with tiny ones; frames grow them).
  void set_queue_capacities(uint32_t big, uint32_t items) {
    m_big_capacity = std::max(big, 1u);
    m_item_capacity = std::max(items, 1u);
    m_big.release();
    m_items.release();
    m_fallback.release();
  }
  // Graph launch (default) or the same work launched call by call (to measure what the graph
  // saves, `facet bench --stream-launches`).
  void set_use_graph(bool on) { m_use_graph = on; }
  // Geometry blocks that claim chunks of meshlets whatever the scene's size (geometry.cu), so
  // that tests can run both shapes of the geometry stage on small scenes.
  void set_claiming_geometry(bool on) { m_force_claims = on; }
  // Occlusion culling of meshlets (occlusion.h): by the frame's density (default), never, or on
  // every frame (tests, and `facet bench` to compare).
  void set_occlusion_culling(OcclusionMode mode) { m_occlusion = mode; }
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
    cudaEvent_t begin = nullptr, after_vertex = nullptr, after_raster = nullptr, end = nullptr;
    cudaEvent_t copied = nullptr;            // the counters have reached host_counters
    FrameCounters* host_counters = nullptr;  // pinned
    bool pending = false;                    // recorded, not yet read back
    uint32_t big_capacity = 0;               // queue sizes this frame ran with
    uint32_t item_capacity = 0;
    bool stage_marks = false;                // events between the stages (one frame in kTagCycle)
  };

  void ensure_frame_buffers(int width, int height);
  // Records one frame on the stream; returns its parameters with the frame tag it used.
  FrameParams encode_frame(const FrameParams& params, const FrameTarget& target);
  // Enqueues the frame's work on m_stream (captured into a graph, or launched directly).
  // The raster stage's parameters for a frame, its geometry planned (plan_geometry_work).
  RasterStageParams raster_params(const FrameParams& fp, FrameCounters* counters) const;
  void record_frame(const FrameParams& fp, const RasterStageParams& rp, const FrameTarget& target,
                    FrameSlot& slot, bool clear);
  void collect(FrameSlot& slot);  // reads a finished slot's timings and counters

  std::shared_ptr<const Scene> m_scene;
  DeviceScene m_device_scene;
  cudaStream_t m_stream = nullptr;
  PersistentBlocks m_persistent;  // blocks of the bin and tile kernels
  int m_geometry_blocks = 0;  // resident claiming geometry blocks on the whole device
  bool m_force_claims = false;
  OcclusionMode m_occlusion = OcclusionMode::Auto;
  DeviceBuffer<uint32_t> m_hiz, m_hiz_coarse;  // occlusion culling's tile bounds (occlusion.h)
  uint32_t m_frame_number = 2;            // of the next frame; its previous is never 0, the
                                          //   number DeviceScene::meshlet_seen starts at

  DeviceBuffer<uint64_t> m_vis;
  DeviceBuffer<Rgba8> m_rgba;
  DeviceBuffer<FrameCounters> m_counters;  // two: this frame's, and the next one's (zeroed by resolve)
  int m_counter_index = 0;                 // the block the next frame counts into
  bool m_dependent_launches = false;       // the device overlaps dependent kernels (sm_90+)
  DeviceBuffer<RasterTri> m_big;
  DeviceBuffer<TileItem> m_items;
  DeviceBuffer<uint32_t> m_fallback;
  uint32_t m_big_capacity = 1u << 16;     // grown when a frame needed more
  uint32_t m_item_capacity = 1u << 20;
  int m_width = 0, m_height = 0;
  static constexpr int kTagCycle = 4;     // frames per visibility-buffer clear (2 tag bits)
  int m_frames_since_clear = kTagCycle;   // kTagCycle: the next frame clears

  bool m_use_graph = true;
  // By [clears the visibility buffer][culls by occlusion]: frames of four shapes (other nodes),
  // each replayed by a graph of its own that is updated in place.
  FrameGraph m_graphs[2][2];

  std::array<FrameSlot, 2> m_slots{};
  int m_slot = 0;
  FrameParams m_last{};
  bool m_have_frame = false;
  bool m_last_to_surface = false;
  FrameStats m_stats;
};

}  // namespace facet
