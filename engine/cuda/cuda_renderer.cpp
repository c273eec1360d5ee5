// The CUDA backend's host side: buffers, the frame's launches on one stream, and timings and
// overflow counters read back one frame late. The scene and the work ahead of it are
// cuda_renderer_scene.cpp's.
#include "engine/cuda/cuda_renderer.h"

#include <cstring>
#include <stdexcept>
#include <string>

#include "engine/base/platform.h"
#include "engine/cuda/device_pointer.h"
#include "engine/cuda/stream_order.h"
#include "engine/render/frame_plan.h"
#include "engine/render/frame_setup.h"
#include "engine/render/ground_grid.h"
#include "kernels/frame/effects/ground_grid_launch.h"
#include "kernels/frame/raster/raster.h"
#include "kernels/frame/resolve/shade.h"

namespace facet {

bool cuda_driver_installed() {
  static const bool installed = platform::nvidia_driver_installed();  // looked for once
  return installed;
}

bool cuda_available(std::string* why) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    if (why) *why = std::string("no usable CUDA device: ") + cudaGetErrorString(e);
    (void)cudaGetLastError();
    return false;
  }
  if (count == 0) {
    if (why) *why = "no CUDA device found";
    return false;
  }
  return true;
}

CudaRenderer::CudaRenderer() {
  FACET_CUDA_CHECK(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking));
  int device = 0, sms = 0;
  FACET_CUDA_CHECK(cudaGetDevice(&device));
  FACET_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  m_persistent = persistent_blocks(std::max(1, sms));
  m_geometry_blocks = std::max(1, sms) * geometry_blocks_per_sm();
  for (FrameSlot& s : m_slots) {
    for (cudaEvent_t* e : {&s.begin, &s.after_clear, &s.after_geometry, &s.end}) FACET_CUDA_CHECK(cudaEventCreate(e));
    // Pinned, so mapped into the device's address space (unified addressing): resolve writes it.
    FACET_CUDA_CHECK(cudaMallocHost(&s.host_counters, sizeof(FrameCounters)));
  }
  // Two counter blocks used in turn (kernels/frame/frame.cu).
  m_counters.allocate(2, "frame counters");
  FACET_CUDA_CHECK(cudaMemset(m_counters.data(), 0, m_counters.bytes()));
  cudaDeviceProp prop{};
  FACET_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  m_dependent_launches = prop.major >= 9;
}

CudaRenderer::~CudaRenderer() {
  if (m_stream) FACET_CUDA_CHECK_NOTHROW(cudaStreamSynchronize(m_stream));
  for (FrameSlot& s : m_slots) {
    for (cudaEvent_t e : {s.begin, s.after_clear, s.after_geometry, s.end})
      if (e) FACET_CUDA_CHECK_NOTHROW(cudaEventDestroy(e));
    if (s.host_counters) FACET_CUDA_CHECK_NOTHROW(cudaFreeHost(s.host_counters));
  }
  if (m_order_event) FACET_CUDA_CHECK_NOTHROW(cudaEventDestroy(m_order_event));
  if (m_stream) FACET_CUDA_CHECK_NOTHROW(cudaStreamDestroy(m_stream));
}

BackendCapabilities CudaRenderer::capabilities() const {
  BackendCapabilities c;
  c.device_frames = true;
  c.work_ahead = true;
  c.occlusion_culling = true;
  c.graph_launch = true;
  c.sampled_stage_times = true;  // on the frames that clear the visibility buffer (record_frame)
  return c;
}

void CudaRenderer::ensure_frame_buffers(int width, int height, int samples) {
  size_t pixels = (size_t)width * height;
  if (width != m_width || height != m_height || samples != m_samples || m_vis.size() < pixels * samples) {
    FACET_CUDA_CHECK(cudaStreamSynchronize(m_stream));
    // A new layout: keys of the last frame would be read as other pixels' samples, so it is
    // cleared before the next frame like new memory.
    m_vis.allocate(pixels * samples, "the visibility buffer");
    m_hiz.allocate((size_t)hiz_tiles(width) * hiz_tiles(height), "the occlusion tile bounds");
    m_hiz_coarse.allocate((size_t)hiz_coarse_tiles(width) * hiz_coarse_tiles(height), "the occlusion tile bounds");
    m_frames_since_clear = kTagCycle;  // new memory: clear before the next frame
    m_rgba.release();                  // allocated on first use: frames drawn into a GL surface never need it
    m_width = width;
    m_height = height;
    m_samples = samples;
  }
  if (m_warp_tris.size() < m_warp_capacity || m_tile_items.size() < m_tile_item_capacity)
    FACET_CUDA_CHECK(cudaStreamSynchronize(m_stream));  // a frame in flight may use the queues
  if (m_warp_tris.size() < m_warp_capacity) {
    m_warp_tris.allocate(m_warp_capacity, "the warp queue");
    m_fallback.allocate(m_warp_capacity, "the fallback queue");
  }
  if (m_tile_items.size() < m_tile_item_capacity) m_tile_items.allocate(m_tile_item_capacity, "the tile-item queue");
}

void CudaRenderer::render(const Camera& camera, const RenderOptions& settings, int width, int height,
                          const FrameTarget& target) {
  if (!m_scene) throw std::logic_error("render: no scene set");
  draw(make_frame_params(camera, settings, frame_bounds(*m_scene), width, height), target,
       settings.ground_grid ? &camera : nullptr);
}

void CudaRenderer::render(const FrameParams& fp, const FrameTarget& target) {
  if (!m_scene) throw std::logic_error("render: no scene set");
  draw(fp, target, nullptr);
}

void CudaRenderer::draw(const FrameParams& fp, const FrameTarget& target, const Camera* grid_camera) {
  const bool device = target.kind == FrameTarget::Kind::Device;
  if (device) {
    check_device_pointer(target.pixels, "frame target");
    if (!target.pixels) throw std::invalid_argument("render: a device frame target without pixels");
    if (!m_order_event) FACET_CUDA_CHECK(cudaEventCreateWithFlags(&m_order_event, cudaEventDisableTiming));
    order_after(m_stream, cudaStreamLegacy, m_order_event);  // the caller's work on its buffer first
  }
  m_last = launch_frame(fp, target);
  m_stats.back_faces_culled = fp.cull_backfaces;
  m_have_frame = true;
  m_last_in_own_image = target.kind == FrameTarget::Kind::Internal;
  if (grid_camera) {  // after the frame's graph, in stream order; m_last carries the frame's tag
    launch_ground_grid(make_grid_params(*grid_camera, m_last, m_scene->bounds), m_vis.data(), target_image(target),
                       target.surface, m_stream);
    FACET_CUDA_CHECK(cudaGetLastError());
  }
  if (device) order_after(cudaStreamLegacy, m_stream, m_order_event);
}

FrameParams CudaRenderer::launch_frame(const FrameParams& params, const FrameTarget& target) {
  // The slot we are about to reuse holds frame N-2: read it if it is done (it almost always is;
  // if not, this waits, which only happens when the GPU is two frames behind).
  FrameSlot& slot = m_slots[m_slot];
  if (slot.pending) collect(slot);

  // Everything that may allocate or wait happens before the frame is recorded.
  if (!valid_sample_count(params.samples))
    throw std::invalid_argument("render: " + std::to_string(params.samples) + " samples a pixel (1, 4 or 8)");
  ensure_frame_buffers(params.width, params.height, params.samples);
  if (target.kind == FrameTarget::Kind::Internal && m_rgba.size() < (size_t)params.width * params.height)
    m_rgba.allocate((size_t)params.width * params.height, "the frame image");
  // The visibility buffer is cleared every kTagCycle frames; between clears the frame tag in
  // each key tells this frame's keys from older ones (raster.h).
  const bool clear = m_frames_since_clear >= kTagCycle;
  if (clear) m_frames_since_clear = 0;
  FrameParams fp = params;
  fp.vis_tag = (uint32_t)(kTagCycle - 1 - m_frames_since_clear);
  ++m_frames_since_clear;

  RasterStageParams rp = raster_params(fp, m_counters.data() + m_counter_index);
  // The first frame that culls by occlusion builds each triangle's meshlet, which its resolve
  // marks the shown meshlets by; a device without room for them draws without occlusion culling
  // (slower, never different).
  if (rp.occlusion.enabled) {
    rp.occlusion.enabled = m_device_scene.build_triangle_meshlets(m_stream);
    m_stats.scene_bytes = m_device_scene.bytes();
  }
  auto record = [&] { record_frame(fp, rp, target, slot, clear); };
  try {
    if (m_options.graph_launch)
      m_graphs[clear][rp.occlusion.enabled].run(m_stream, record);
    else
      record();
  } catch (...) {
    // Part of a frame may have run and left counts behind: both blocks start from zero again.
    (void)cudaMemsetAsync(m_counters.data(), 0, m_counters.bytes(), m_stream);
    throw;
  }
  m_counter_index ^= 1;
  ++m_frame_number;
  slot.pending = true;
  m_slot = (m_slot + 1) % (int)m_slots.size();
  return fp;
}

RasterStageParams CudaRenderer::raster_params(const FrameParams& fp, FrameCounters* counters) const {
  RasterStageParams rp{};
  rp.meshlets = m_device_scene.meshlets();
  rp.meshlet_count = m_device_scene.meshlet_count();
  rp.meshlet_points = m_device_scene.meshlet_points();
  rp.meshlet_triangles = m_device_scene.meshlet_triangles();
  rp.slots_in_corners = m_device_scene.slots_in_corners();
  rp.meshlet_triangle_ids = m_device_scene.meshlet_triangle_ids();
  rp.frame = fp;
  rp.planes = make_clip_planes(fp.width, fp.height);
  rp.cull = make_meshlet_cull(fp, rp.planes);
  skip_meshlet_cull_when_useless(rp.cull, m_scene->bounds.center, m_scene->bounds.radius,
                                 m_device_scene.meshlet_count());
  rp.vis = m_vis.data();
  rp.queues = {m_warp_tris.data(), (uint32_t)m_warp_tris.size(), m_tile_items.data(), (uint32_t)m_tile_items.size(),
               m_fallback.data()};
  rp.counters = counters;
  rp.chain_launches = m_dependent_launches;
  rp.persistent = m_persistent;
  rp.occlusion.seen = m_device_scene.meshlet_seen();
  rp.occlusion.previous_frame = m_frame_number - 1;
  rp.occlusion.hiz = m_hiz.data();
  rp.occlusion.hiz_coarse = m_hiz_coarse.data();
  rp.occlusion.test = make_occlusion_test(fp, m_hiz.data(), m_hiz_coarse.data());
  rp.scene = m_device_scene.view();
  GeometryPlanInput in;
  in.meshlet_count = rp.meshlet_count;
  in.width = fp.width;
  in.height = fp.height;
  in.samples = fp.samples;
  in.resident_blocks = (uint32_t)m_geometry_blocks;
  in.cull_backfaces = fp.cull_backfaces;
  in.occlusion_buffers = rp.occlusion.seen != nullptr;
  in.occlusion = m_options.occlusion;
  in.force_claims = m_options.claiming_geometry;
  const GeometryPlan plan = plan_geometry_work(in);
  rp.geometry_blocks = plan.blocks;
  rp.meshlet_chunk = plan.meshlet_chunk;
  rp.meshlet_claims = plan.claims;
  rp.occlusion.enabled = plan.occlusion;
  rp.small_tri_pixels = plan.small_tri_pixels;
  return rp;
}

void CudaRenderer::record_frame(const FrameParams& fp, const RasterStageParams& rp, const FrameTarget& target,
                                FrameSlot& slot, bool clear) {
  // Inside a capture an event record must be "external" to become an event node of the graph
  // (and that flag is refused outside a capture).
  auto mark = [&](cudaEvent_t e) {
    if (m_options.graph_launch)
      FACET_CUDA_CHECK(cudaEventRecordWithFlags(e, m_stream, cudaEventRecordExternal));
    else
      FACET_CUDA_CHECK(cudaEventRecord(e, m_stream));
  };
  slot.warp_capacity = rp.queues.warp_capacity;
  slot.tile_item_capacity = rp.queues.tile_item_capacity;
  // Events between the stages cost time (two graph nodes, and kernels that can no longer
  // overlap), so only the frames that clear the visibility buffer (one in kTagCycle) time each
  // stage; every frame times the whole.
  const bool stage_marks = clear;
  slot.stage_marks = stage_marks;
  mark(slot.begin);
  if (clear)
    FACET_CUDA_CHECK(
        cudaMemsetAsync(m_vis.data(), 0xff, (size_t)fp.width * fp.height * fp.samples * sizeof(uint64_t), m_stream));
  if (stage_marks) mark(slot.after_clear);
  launch_visibility(rp, m_stream);
  FACET_CUDA_CHECK(cudaGetLastError());
  if (stage_marks) mark(slot.after_geometry);
  // Resolve also copies the counters to slot.host_counters (mapped pinned memory): once `end`
  // has passed, they are there.
  record_resolve(fp, rp, target, slot, m_dependent_launches && !stage_marks);  // an event node is not a kernel
  mark(slot.end);
}

void CudaRenderer::record_resolve(const FrameParams& fp, const RasterStageParams& rp, const FrameTarget& target,
                                  FrameSlot& slot, bool after_kernel) {
  ResolveStageParams res{};
  res.scene = m_device_scene.view();
  res.scene_textured = m_device_scene.general_shading();
  res.frame = fp;
  res.vis = m_vis.data();
  res.drawable = scene_pixel_box(fp, m_scene->bounds.center, m_scene->bounds.radius);
  ResolvePlanInput plan;
  plan.box_pixels = pixel_count(res.drawable);
  plan.triangles = m_scene->triangle_count();
  plan.samples = fp.samples;
  plan.plain = plain_lit_frame(fp, res.scene_textured);
  res.tile_warps = plan_resolve_tiles(plan);
  res.out = target_image(target);
  res.surface = target.surface;
  res.next_counters = m_counters.data() + (m_counter_index ^ 1);
  res.counters = rp.counters;
  res.host_counters = slot.host_counters;
  if (rp.occlusion.enabled) {  // frames without it leave the next frame's pass 1 nothing to draw
    res.meshlet_seen = m_device_scene.meshlet_seen();
    res.triangle_meshlet = m_device_scene.triangle_meshlet();
  }
  res.frame_number = m_frame_number;
  res.after_kernel = after_kernel;
  launch_resolve_stage(res, m_stream);
  FACET_CUDA_CHECK(cudaGetLastError());
}

void CudaRenderer::collect(FrameSlot& slot) {
  FACET_CUDA_CHECK(cudaEventSynchronize(slot.end));  // resolve wrote the counters before it
  slot.pending = false;
  StageTimes& times = m_stats.times;
  FACET_CUDA_CHECK(cudaEventElapsedTime(&times.total, slot.begin, slot.end));
  times.stages_this_frame = slot.stage_marks;
  if (slot.stage_marks) {  // otherwise the stages keep the last timed frame's figures
    FACET_CUDA_CHECK(cudaEventElapsedTime(&times.clear, slot.begin, slot.after_clear));
    FACET_CUDA_CHECK(cudaEventElapsedTime(&times.geometry, slot.after_clear, slot.after_geometry));
    FACET_CUDA_CHECK(cudaEventElapsedTime(&times.resolve, slot.after_geometry, slot.end));
  }
  const FrameCounters c = *slot.host_counters;
  m_stats.tris = {};
  for (const TriCounters& t : c.tris) add_counters(m_stats.tris, t);
  // Overflow: the frame was completed by the fallback paths; grow so later frames need none.
  bool overflow = false;
  auto grown = [](uint32_t needed) {
    return (uint32_t)std::min<uint64_t>((uint64_t)needed + needed / kQueueGrowthDivisor, 0xffffffffu);
  };
  if (c.warp_queued > slot.warp_capacity) {
    m_warp_capacity = std::max(m_warp_capacity, grown(c.warp_queued));
    overflow = true;
  }
  if (c.tile_items_wanted > slot.tile_item_capacity) {
    m_tile_item_capacity = std::max(m_tile_item_capacity, grown(c.tile_items_wanted));
    overflow = true;
  }
  if (overflow) ++m_stats.overflow_events;
}

void CudaRenderer::finish() {
  FACET_CUDA_CHECK(cudaStreamSynchronize(m_stream));
  // Collect in frame order: the older slot first.
  for (int k = 0; k < (int)m_slots.size(); ++k) {
    FrameSlot& s = m_slots[(m_slot + k) % m_slots.size()];
    if (s.pending) collect(s);
  }
}

FrameStats CudaRenderer::stats() const {
  FrameStats s = m_stats;
  s.frame_bytes = m_vis.bytes() + m_hiz.bytes() + m_hiz_coarse.bytes() + m_rgba.bytes() + m_counters.bytes() +
                  m_warp_tris.bytes() + m_tile_items.bytes() + m_fallback.bytes();
  s.peak_bytes = device_bytes_peak();
  return s;
}

}  // namespace facet
