// What CudaRenderer hands back of a finished frame: its colours (read_rgba), its triangles
// (read_triangle_ids), one pixel's hit (pick), and read_outputs: the frame-outputs kernel
// (kernels/frame/outputs/frame_outputs.cu) over the visibility buffer, into the caller's device buffers, or
// into scratch then one copy each to the host. Device outputs are ordered before later work on
// the legacy default stream (what PyTorch and CuPy use unless told otherwise) by an event,
// without the host waiting on them: a loop of renders with device outputs keeps the GPU busy
// while Python makes the next call. The frame needs no host check first: a frame that
// overflowed a queue was completed by the fallback paths, and the queues grow when a later
// frame reads its counters.
#include "engine/cuda/cuda_renderer.h"

#include <stdexcept>
#include <vector>

#include "engine/cuda/device_pointer.h"
#include "engine/cuda/stream_order.h"
#include "kernels/frame/outputs/frame_outputs_launch.h"
#include "kernels/frame/raster/raster.h"

namespace facet {

void CudaRenderer::read_rgba(std::vector<Rgba8>& out) {
  if (!m_have_frame) throw std::logic_error("read_rgba: no frame rendered");
  if (!m_last_in_own_image) m_last = launch_frame(m_last, {});  // the last frame went elsewhere
  finish();
  out.resize((size_t)m_last.width * m_last.height);
  FACET_CUDA_CHECK(cudaMemcpy(out.data(), m_rgba.data(), out.size() * sizeof(Rgba8), cudaMemcpyDeviceToHost));
}

void CudaRenderer::read_triangle_ids(std::vector<uint32_t>& out) {
  if (!m_have_frame) throw std::logic_error("read_triangle_ids: no frame rendered");
  finish();  // the visibility buffer stays intact until the next frame clears it
  const int n = m_last.samples;
  std::vector<uint64_t> vis((size_t)m_last.width * m_last.height * n);
  FACET_CUDA_CHECK(cudaMemcpy(vis.data(), m_vis.data(), vis.size() * sizeof(uint64_t), cudaMemcpyDeviceToHost));
  out.resize(vis.size() / n);
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = visible_triangle(nearest_pixel_key(vis.data(), out.size(), i, n), m_last.vis_tag);
}

PixelHit CudaRenderer::pick(int x, int y) {
  if (!m_have_frame || x < 0 || y < 0 || x >= m_last.width || y >= m_last.height) return {};
  // The pixel's keys (one 8-byte key a sample), copied in stream order after the frame; the
  // timing slots are left to finish(). Its nearest sample is what it shows.
  uint64_t keys[kMaxSamples];
  const int n = m_last.samples;
  // One key a sample plane: a strided copy (raster.h, vis_slot).
  const size_t plane_bytes = (size_t)m_last.width * m_last.height * sizeof(uint64_t);
  FACET_CUDA_CHECK(cudaMemcpy2DAsync(keys, sizeof(uint64_t), m_vis.data() + vis_index(m_last, x, y, 0), plane_bytes,
                                     sizeof(uint64_t), n, cudaMemcpyDeviceToHost, m_stream));
  FACET_CUDA_CHECK(cudaStreamSynchronize(m_stream));
  return pixel_hit_of_key(nearest_key(keys, n), m_last.vis_tag);
}

void CudaRenderer::read_outputs(const FrameOutputs& out) {
  if (!m_have_frame) throw std::logic_error("read_outputs: no frame rendered");
  // The colour of a frame that went to a surface or the caller's memory is drawn again here.
  if (out.color && !m_last_in_own_image) m_last = launch_frame(m_last, {});
  const size_t pixels = (size_t)m_last.width * m_last.height;
  FrameOutputParams p{m_device_scene.view(), m_last, m_vis.data(), out.depth, out.triangle_id, out.barycentrics};
  if (out.triangle_id && m_scene) p.file_triangle = m_device_scene.file_triangles(*m_scene);
  if (out.on_device) {
    check_device_pointer(out.color, "color output");
    check_device_pointer(out.depth, "depth output");
    check_device_pointer(out.triangle_id, "triangle_id output");
    check_device_pointer(out.barycentrics, "barycentrics output");
    if (!m_order_event) FACET_CUDA_CHECK(cudaEventCreateWithFlags(&m_order_event, cudaEventDisableTiming));
    order_after(m_stream, cudaStreamLegacy, m_order_event);  // the caller's writes to its buffers first
    if (out.color)
      FACET_CUDA_CHECK(
          cudaMemcpyAsync(out.color, m_rgba.data(), pixels * sizeof(Rgba8), cudaMemcpyDeviceToDevice, m_stream));
    if (out.depth || out.triangle_id || out.barycentrics) launch_frame_outputs(p, m_stream);
    FACET_CUDA_CHECK(cudaGetLastError());
    order_after(cudaStreamLegacy, m_stream, m_order_event);
    return;
  }
  finish();
  // Host outputs: 4 + 4 + 12 bytes a pixel of scratch, then one copy each.
  const size_t depth_at = 0, id_at = pixels * 4, bary_at = pixels * 8;
  m_output_scratch.reserve(pixels * 20, "frame outputs");
  uint8_t* base = m_output_scratch.data();
  p.depth = out.depth ? reinterpret_cast<float*>(base + depth_at) : nullptr;
  p.triangle_id = out.triangle_id ? reinterpret_cast<int32_t*>(base + id_at) : nullptr;
  p.barycentrics = out.barycentrics ? reinterpret_cast<float*>(base + bary_at) : nullptr;
  if (p.depth || p.triangle_id || p.barycentrics) launch_frame_outputs(p, m_stream);
  FACET_CUDA_CHECK(cudaGetLastError());
  auto copy = [&](void* dst, const void* src, size_t bytes) {
    if (dst) FACET_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, m_stream));
  };
  copy(out.color, m_rgba.data(), pixels * sizeof(Rgba8));
  copy(out.depth, p.depth, pixels * 4);
  copy(out.triangle_id, p.triangle_id, pixels * 4);
  copy(out.barycentrics, p.barycentrics, pixels * 12);
  FACET_CUDA_CHECK(cudaStreamSynchronize(m_stream));
}

}  // namespace facet
