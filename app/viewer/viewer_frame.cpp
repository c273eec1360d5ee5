// Per-frame updates of the viewer state (no GL here).
#include "app/viewer/viewer_frame.h"

#define GLFW_INCLUDE_NONE  // key codes only: no GL header wanted here
#include <GLFW/glfw3.h>  // key codes only: ImGui 1.86 indexes io.KeysDown by the backend's codes
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

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

void handle_keys(ViewerState& s, const ImGuiIO& io) {
  if (io.WantCaptureKeyboard) return;
  if (ImGui::IsKeyPressed(GLFW_KEY_F, false)) s.controller.frame_all(aspect_of(s));
  if (ImGui::IsKeyPressed(GLFW_KEY_F12, false)) s.screenshot_requested = true;
  if (ImGui::IsKeyPressed(GLFW_KEY_H, false)) s.overlay = !s.overlay;
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
  if (o.reload_every > 0 && s.frame_index > 0 && s.frame_index % o.reload_every == 0)
    s.loader.reload();
  s.loader.poll(*s.renderer);
  // Counted, not taken from poll(): a scripted run installs its first model before the loop.
  if (s.loader.models_installed() == s.models_seen) return;
  s.models_seen = s.loader.models_installed();
  const Bounds& bounds = s.loader.current()->bounds;
  if (s.camera_from_options) {
    // The first model: exactly the camera `facet render` would use with the same options.
    s.controller.set_model(bounds, aspect_of(s));
    s.controller.camera() = make_camera(o.camera, bounds, s.render_width, s.render_height);
    s.controller.auto_clip = !o.camera.near_plane && !o.camera.far_plane;
    s.camera_from_options = false;
  } else if (o.reload_every <= 0) {
    s.controller.set_model(bounds, aspect_of(s));  // a new model: show all of it
  }
}

void update_camera(ViewerState& s) {
  const ImGuiIO& io = ImGui::GetIO();
  handle_keys(s, io);
  s.controller.update(gather_input(io));
  if (s.options.orbit_deg_per_frame != 0) s.controller.orbit_degrees(s.options.orbit_deg_per_frame, 0);
}

std::string camera_as_options(const Camera& c) {
  // %.9g: every float prints so that it parses back to the same bits.
  char text[512];
  std::snprintf(text, sizeof text,
                "--eye %.9g,%.9g,%.9g --target %.9g,%.9g,%.9g --up %.9g,%.9g,%.9g --fov-y %.9g "
                "--near %.9g --far %.9g",
                c.eye.x, c.eye.y, c.eye.z, c.target.x, c.target.y, c.target.z, c.up.x, c.up.y,
                c.up.z, glm::degrees(c.fov_y), c.near_plane, c.far_plane);
  return text;
}

}  // namespace facet
