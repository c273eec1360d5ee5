// The two present paths and the present-time measurement.
#include "app/viewer/window/frame_presenter.h"

#include <cstdio>

namespace facet {

FramePresenter::FramePresenter(bool try_interop) : m_try_interop(try_interop) {
  for (GlQuery& q : m_queries) q = make_gl_query(GL_TIME_ELAPSED);
  m_path = try_interop ? "CUDA-GL interop (not yet registered)" : "CPU image -> glTexSubImage2D (CPU backend)";
}

FramePresenter::~FramePresenter() { m_interop.unregister(); }  // before the texture goes

void FramePresenter::render(Renderer& renderer, const Camera& camera, const RenderOptions& settings, int width,
                            int height) {
  if (m_texture.width() != width || m_texture.height() != height) {
    m_interop.unregister();  // it refers to the texture about to be replaced
    m_texture.resize(width, height);
    if (m_try_interop) {
      std::string why;
      if (m_interop.register_texture(m_texture.texture(), &why)) {
        ++m_registrations;
        m_path = "CUDA-GL interop (kernels write the GL texture)";
      } else {
        // Registration fails e.g. when GL runs on another GPU or on Mesa: copy instead, once said.
        m_try_interop = false;
        m_path = "CUDA image -> glTexSubImage2D (" + why + ")";
        std::fprintf(stderr, "facet view: interop unavailable, copying frames: %s\n", why.c_str());
      }
    }
  }
  if (m_interop.registered()) {
    FrameTarget target = m_interop.map(renderer.native_stream());
    try {
      renderer.render(camera, settings, width, height, target);
    } catch (...) {
      m_interop.unmap();
      throw;
    }
    m_interop.unmap();
    m_upload_pending = false;
    return;
  }
  renderer.render(camera, settings, width, height);
  renderer.read_rgba(m_pixels);
  m_upload_pending = true;
}

void FramePresenter::present(int viewport_w, int viewport_h) {
  read_present_query();
  GLuint query = m_queries[m_query_index].id();
  glBeginQuery(GL_TIME_ELAPSED, query);
  if (m_upload_pending) m_texture.upload(m_pixels);
  m_upload_pending = false;
  if (m_texture.texture()) m_texture.present(viewport_w, viewport_h);
  glEndQuery(GL_TIME_ELAPSED);
  m_query_issued[m_query_index] = true;
  m_query_index ^= 1;
}

void FramePresenter::read_present_query() {
  // The query issued a frame ago: read it only when ready, so present never waits on the GPU.
  int i = m_query_index;
  if (!m_query_issued[i]) return;
  GLint available = 0;
  glGetQueryObjectiv(m_queries[i].id(), GL_QUERY_RESULT_AVAILABLE, &available);
  if (!available) return;
  GLuint64 ns = 0;
  glGetQueryObjectui64v(m_queries[i].id(), GL_QUERY_RESULT, &ns);
  m_present_ms = (float)((double)ns * 1e-6);
  m_query_issued[i] = false;
}

}  // namespace facet
