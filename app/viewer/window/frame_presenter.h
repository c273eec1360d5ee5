// Gets a rendered frame onto the screen by the fastest path that works here: the CUDA backend
// writing straight into the GL frame texture through interop, or the renderer's image uploaded with
// glTexSubImage2D (CPU backend, or interop registration failed). Says which path is live, and how
// long the GL side (upload + present pass) took, measured with GL timer queries a frame late.
#pragma once
#include <string>
#include <vector>

#include "app/viewer/window/cuda_interop.h"
#include "app/viewer/window/frame_texture.h"
#include "engine/render/renderer.h"

namespace facet {

class FramePresenter {
 public:
  // try_interop: the renderer's frames are on the device (BackendCapabilities::device_frames),
  // so registering the texture is worth a try.
  explicit FramePresenter(bool try_interop);
  ~FramePresenter();

  // Draws the frame (width x height) into the frame texture; re-registers interop after a resize.
  void render(Renderer& renderer, const Camera& camera, const RenderOptions& settings, int width, int height);
  // Uploads (copy path) and shows the frame over viewport (0, 0, w, h) of the bound framebuffer.
  void present(int viewport_w, int viewport_h);

  bool interop_live() const { return m_interop.registered(); }
  const std::string& path() const { return m_path; }  // for the overlay
  float present_ms() const { return m_present_ms; }   // GL time of upload + present, last known
  int registrations() const { return m_registrations; }

 private:
  void read_present_query();

  FrameTexture m_texture;
  CudaGlInterop m_interop;
  bool m_try_interop;
  std::string m_path;
  std::vector<Rgba8> m_pixels;  // copy path: the image waiting for upload
  bool m_upload_pending = false;
  GlQuery m_queries[2];  // GL_TIME_ELAPSED, alternating so a result is read a frame late
  bool m_query_issued[2] = {false, false};
  int m_query_index = 0;
  float m_present_ms = 0;
  int m_registrations = 0;
};

}  // namespace facet
