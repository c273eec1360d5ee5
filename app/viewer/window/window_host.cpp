// The windowed host: GLFW 3.3 window with an OpenGL 4.5 core context loaded by glad, ImGui's GLFW
// backend for input, and the drop callback that hands paths to the model loader.
#include <glad/gl.h>
// glad first, and GLFW told not to pull in the system GL header.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>

#include <cstdio>
#include <stdexcept>

#include "app/viewer/window/host.h"

namespace facet {

namespace {

void glfw_error_callback(int error, const char* description) {
  std::fprintf(stderr, "facet view: GLFW error %d: %s\n", error, description);
}

class WindowHost : public Host {
 public:
  WindowHost(int width, int height, const std::string& title, DropHandler on_drop) : m_on_drop(std::move(on_drop)) {
    glfwSetErrorCallback(glfw_error_callback);
    if (!glfwInit())
      throw std::runtime_error(
          "cannot open a window: GLFW could not initialise (no display? "
          "try --offscreen)");
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 5);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    m_window = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
    if (!m_window) {
      glfwTerminate();
      throw std::runtime_error("cannot open a window with an OpenGL 4.5 core context");
    }
    glfwMakeContextCurrent(m_window);
    if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress))) {
      glfwDestroyWindow(m_window);
      glfwTerminate();
      throw std::runtime_error("cannot load OpenGL 4.5 functions (glad)");
    }
    glfwSetWindowUserPointer(m_window, this);
    glfwSetDropCallback(m_window, [](GLFWwindow* w, int count, const char** paths) {
      auto* self = static_cast<WindowHost*>(glfwGetWindowUserPointer(w));
      if (self->m_on_drop) self->m_on_drop(std::vector<std::string>(paths, paths + count));
    });
  }
  ~WindowHost() override {
    glfwDestroyWindow(m_window);
    glfwTerminate();
  }

  const char* name() const override { return "GLFW window"; }
  bool should_close() override { return glfwWindowShouldClose(m_window); }
  void poll_events() override { glfwPollEvents(); }
  bool minimized() override { return glfwGetWindowAttrib(m_window, GLFW_ICONIFIED) != 0; }
  void wait_events() override { glfwWaitEventsTimeout(0.1); }
  void imgui_init() override { ImGui_ImplGlfw_InitForOpenGL(m_window, true); }
  void imgui_new_frame() override { ImGui_ImplGlfw_NewFrame(); }
  void imgui_shutdown() override { ImGui_ImplGlfw_Shutdown(); }
  void framebuffer_size(int* width, int* height) override { glfwGetFramebufferSize(m_window, width, height); }
  void bind_framebuffer() override { glBindFramebuffer(GL_FRAMEBUFFER, 0); }
  void swap() override { glfwSwapBuffers(m_window); }
  void set_vsync(bool on) override { glfwSwapInterval(on ? 1 : 0); }
  void set_title(const std::string& title) override { glfwSetWindowTitle(m_window, title.c_str()); }
  bool window_placement(int* x, int* y, int* width, int* height) override {
    if (glfwGetWindowAttrib(m_window, GLFW_ICONIFIED)) return false;  // sizes of an icon
    glfwGetWindowPos(m_window, x, y);
    glfwGetWindowSize(m_window, width, height);
    return *width > 0 && *height > 0;
  }
  void place_window(int x, int y) override { glfwSetWindowPos(m_window, x, y); }

 private:
  GLFWwindow* m_window = nullptr;
  DropHandler m_on_drop;
};

}  // namespace

std::unique_ptr<Host> make_window_host(int width, int height, const std::string& title, DropHandler on_drop) {
  return std::make_unique<WindowHost>(width, height, title, std::move(on_drop));
}

}  // namespace facet
