// The offscreen host: an EGL context with no window and no X server (app/gl/egl_context.h), an
// RGBA8 framebuffer object standing in for the window, and ImGui fed a fixed display size and a
// measured frame time instead of a platform backend. There is no input and no vsync here.
#include <imgui.h>

#include <chrono>
#include <memory>

#include "app/gl/egl_context.h"
#include "app/gl/gl_objects.h"
#include "app/viewer/window/host.h"

namespace facet {

namespace {

class OffscreenHost : public Host {
 public:
  OffscreenHost(int width, int height) : m_context(std::make_unique<EglContext>()), m_width(width), m_height(height) {
    m_color = make_gl_texture(GL_TEXTURE_2D);
    glTextureStorage2D(m_color.id(), 1, GL_RGBA8, width, height);
    m_framebuffer = make_gl_framebuffer();
    glNamedFramebufferTexture(m_framebuffer.id(), GL_COLOR_ATTACHMENT0, m_color.id(), 0);
    if (glCheckNamedFramebufferStatus(m_framebuffer.id(), GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
      throw std::runtime_error("offscreen framebuffer " + std::to_string(width) + "x" + std::to_string(height) +
                               " is incomplete");
    m_last = std::chrono::steady_clock::now();
  }
  ~OffscreenHost() override {
    // GL objects die while the context is still current, the context last.
    m_framebuffer.reset();
    m_color.reset();
  }

  const char* name() const override { return "EGL offscreen"; }
  bool should_close() override { return false; }  // only --frames ends an offscreen run
  void poll_events() override {}
  bool minimized() override { return false; }
  void wait_events() override {}
  void imgui_init() override { ImGui::GetIO().BackendPlatformName = "facet_offscreen"; }
  void imgui_new_frame() override {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2((float)m_width, (float)m_height);
    io.DisplayFramebufferScale = ImVec2(1, 1);
    auto now = std::chrono::steady_clock::now();
    float dt = std::chrono::duration<float>(now - m_last).count();
    io.DeltaTime = dt > 0 ? dt : 1e-6f;  // ImGui asserts on a zero step
    m_last = now;
  }
  void imgui_shutdown() override { ImGui::GetIO().BackendPlatformName = nullptr; }
  void framebuffer_size(int* width, int* height) override {
    *width = m_width;
    *height = m_height;
  }
  void bind_framebuffer() override { glBindFramebuffer(GL_FRAMEBUFFER, m_framebuffer.id()); }
  void swap() override { glFlush(); }
  void set_vsync(bool) override {}
  void set_title(const std::string&) override {}
  bool window_placement(int*, int*, int*, int*) override { return false; }
  void place_window(int, int) override {}

 private:
  std::unique_ptr<EglContext> m_context;  // declared first: destroyed last
  GlTexture m_color;
  GlFramebuffer m_framebuffer;
  int m_width, m_height;
  std::chrono::steady_clock::time_point m_last;
};

}  // namespace

std::unique_ptr<Host> make_offscreen_host(int width, int height) {
  return std::make_unique<OffscreenHost>(width, height);
}

}  // namespace facet
