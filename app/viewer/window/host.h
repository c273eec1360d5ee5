// Where the viewer's frames go: a GLFW window (window_host.cpp) or an EGL context with an
// offscreen framebuffer and no window (offscreen_host.cpp, for servers and tests). The frame loop
// in viewer.cpp is the same for both; only these calls differ.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace facet {

class Host {
 public:
  virtual ~Host() = default;
  virtual const char* name() const = 0;  // for the overlay
  virtual bool should_close() = 0;
  virtual void poll_events() = 0;
  virtual bool minimized() = 0;  // true: skip rendering (and sleep until events)
  virtual void wait_events() = 0;
  virtual void imgui_init() = 0;       // the ImGui platform backend (GLFW), or nothing
  virtual void imgui_new_frame() = 0;  // platform NewFrame: display size, time, input
  virtual void imgui_shutdown() = 0;
  virtual void framebuffer_size(int* width, int* height) = 0;
  virtual void bind_framebuffer() = 0;  // the target of the present pass and ImGui
  virtual void swap() = 0;
  virtual void set_vsync(bool on) = 0;
  virtual void set_title(const std::string& title) = 0;  // nothing offscreen
  // The window's top-left corner and client size in screen coordinates; false when there is no
  // window (offscreen) or the window system does not say.
  virtual bool window_placement(int* x, int* y, int* width, int* height) = 0;
  virtual void place_window(int x, int y) = 0;
};

// Called with the paths dropped on the window.
using DropHandler = std::function<void(const std::vector<std::string>& paths)>;

// Throws std::runtime_error naming what failed (no display, no GL 4.5, ...).
std::unique_ptr<Host> make_window_host(int width, int height, const std::string& title, DropHandler on_drop);
std::unique_ptr<Host> make_offscreen_host(int width, int height);

}  // namespace facet
