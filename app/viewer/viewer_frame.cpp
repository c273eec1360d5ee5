// Per-frame updates of the viewer state (no GL here).
#include "app/viewer/viewer_frame.h"

#define GLFW_INCLUDE_NONE  // key codes only: no GL header wanted here
#include <GLFW/glfw3.h>    // key codes only: ImGui 1.86 indexes io.KeysDown by the backend's codes
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>

#include "app/viewer/controls/viewer_keys.h"
#include "app/viewer/viewer_session.h"
#include "engine/formats/format_messages.h"

namespace facet {

namespace {

float aspect_of(const ViewerState& s) {
  return s.render_height > 0 ? (float)s.render_width / (float)s.render_height : 1.0f;
}

ControllerInput gather_input(const ImGuiIO& io) {
  ControllerInput in;
  in.dt = io.DeltaTime;
  in.viewport = {std::max(io.DisplaySize.x, 1.0f), std::max(io.DisplaySize.y, 1.0f)};
  in.mouse = {io.MousePos.x, io.MousePos.y};
  if (!io.WantCaptureMouse) {
    in.mouse_delta = {io.MouseDelta.x, io.MouseDelta.y};
    in.left = io.MouseDown[0];
    in.right = io.MouseDown[1];
    in.middle = io.MouseDown[2];
    in.wheel = io.MouseWheel;
  }
  if (!io.WantCaptureKeyboard) {
    in.forward = io.KeysDown[GLFW_KEY_W];
    in.back = io.KeysDown[GLFW_KEY_S];
    in.strafe_left = io.KeysDown[GLFW_KEY_A];
    in.strafe_right = io.KeysDown[GLFW_KEY_D];
    in.rise = io.KeysDown[GLFW_KEY_E];
    in.sink = io.KeysDown[GLFW_KEY_Q];
    in.fast = io.KeyShift;
  }
  return in;
}

bool pressed(int key) { return ImGui::IsKeyPressed(key, false); }

KeyPresses gather_keys(const ImGuiIO& io) {
  KeyPresses k;
  if (io.WantCaptureKeyboard) return k;
  k.escape = pressed(GLFW_KEY_ESCAPE);
  k.help = pressed(GLFW_KEY_F1);
  for (int i = 0; i < io.InputQueueCharacters.Size; ++i) k.help |= io.InputQueueCharacters[i] == '?';
  k.tab = pressed(GLFW_KEY_TAB);
  k.frame_all = pressed(GLFW_KEY_F);
  k.screenshot = pressed(GLFW_KEY_F12);
  k.hide_overlay = pressed(GLFW_KEY_H);
  k.measure = pressed(GLFW_KEY_M);
  k.axes = pressed(GLFW_KEY_X);
  k.ortho = pressed(GLFW_KEY_O);
  k.grid = pressed(GLFW_KEY_G);
  // The number row stands in for the numpad on keyboards without one.
  for (int n : {1, 3, 7})
    if (pressed(GLFW_KEY_KP_0 + n) || pressed(GLFW_KEY_0 + n)) k.numpad = n;
  k.shift = io.KeyShift;
  k.ctrl = io.KeyCtrl;
  return k;
}

// Double-click: orbit about the surface under the cursor. Measure mode: a click places a point.
void handle_clicks(ViewerState& s, const ImGuiIO& io) {
  if (io.WantCaptureMouse || !s.hover.hit) return;
  if (io.MouseDoubleClicked[0])
    s.controller.set_pivot(glm::vec3(s.hover.position));
  else if (s.measure_mode && io.MouseClicked[0])
    s.measurement.click(s.hover.position);
}

}  // namespace

void update_render_size(ViewerState& s, int framebuffer_w, int framebuffer_h) {
  auto scaled = [&](int side) {
    return std::clamp((int)std::lround((float)side * s.resolution_scale), 1, kMaxFrameSide);
  };
  s.render_width = scaled(framebuffer_w);
  s.render_height = scaled(framebuffer_h);
}

void update_model(ViewerState& s) {
  const ViewerOptions& o = s.options;
  if (o.reload_every > 0 && s.frame_index > 0 && s.frame_index % o.reload_every == 0) s.loader.reload();
  s.loader.poll(*s.renderer);
  // Counted, not taken from poll(): a scripted run installs its first model before the loop.
  if (s.loader.models_installed() == s.models_seen) return;
  s.models_seen = s.loader.models_installed();
  remember_model(s, s.loader.current_path());
  const Bounds& bounds = s.loader.current()->bounds;
  if (s.camera_from_options) {
    // The first model: exactly the camera `facet render` would use with the same options.
    s.controller.set_model(bounds, aspect_of(s));
    try {
      s.controller.camera() = make_camera(o.camera, bounds, s.render_width, s.render_height);
      s.controller.auto_clip = !o.camera.near_plane && !o.camera.far_plane;
    } catch (const std::exception& e) {
      // A conflict that shows only with the model's size (a --near beyond the fitted far plane):
      // the viewer stays up, framing the model as set_model did.
      std::fprintf(stderr, "facet view: warning: %s; the camera frames the model instead\n",
                   shown_path(e.what()).c_str());
    }
    s.camera_from_options = false;
  } else if (o.reload_every <= 0) {
    s.controller.set_model(bounds, aspect_of(s));  // a new model: show all of it
  }
}

void update_camera(ViewerState& s) {
  const ImGuiIO& io = ImGui::GetIO();
  apply_key_presses(s, gather_keys(io), aspect_of(s));
  handle_clicks(s, io);
  s.controller.update(gather_input(io));
  if (s.options.orbit_deg_per_frame != 0) s.controller.orbit_degrees(s.options.orbit_deg_per_frame, 0);
}

void update_hover(ViewerState& s) {
  const ImGuiIO& io = ImGui::GetIO();
  s.hover = {};
  auto scene = s.loader.current();
  if (!scene || io.WantCaptureMouse || !ImGui::IsMousePosValid() || io.DisplaySize.x <= 0 || io.DisplaySize.y <= 0)
    return;
  // Window coordinates to render pixels (the resolution scale may differ from 1).
  int x = (int)std::floor(io.MousePos.x / io.DisplaySize.x * (float)s.render_width);
  int y = (int)std::floor(io.MousePos.y / io.DisplaySize.y * (float)s.render_height);
  if (x < 0 || y < 0 || x >= s.render_width || y >= s.render_height) return;
  s.hover = pick_surface(*s.renderer, *scene, s.controller.camera(), x, y, s.render_width, s.render_height);
}

std::string camera_as_options(const Camera& c) {
  // %.9g: every float prints so that it parses back to the same bits.
  char text[512];
  std::snprintf(text, sizeof text,
                "--eye %.9g,%.9g,%.9g --target %.9g,%.9g,%.9g --up %.9g,%.9g,%.9g --fov-y %.9g "
                "--near %.9g --far %.9g",
                c.eye.x, c.eye.y, c.eye.z, c.target.x, c.target.y, c.target.z, c.up.x, c.up.y, c.up.z,
                glm::degrees(c.fov_y), c.near_plane, c.far_plane);
  if (!c.orthographic()) return text;
  char ortho[48];
  std::snprintf(ortho, sizeof ortho, " --ortho %.9g", c.ortho_height);
  return std::string(text) + ortho;
}

}  // namespace facet
