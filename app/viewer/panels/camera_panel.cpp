// The camera panel: perspective or orthographic, focus (field of view and its twins, focal length
// in pixels and 35 mm; in orthographic the view height instead), clip planes, eye and target as
// numbers, preset views, orbit or fly.
#include <imgui.h>

#include <cmath>
#include <glm/glm.hpp>

#include "app/viewer/panels/panels.h"
#include "engine/render/camera_values.h"

namespace facet {

namespace {

float aspect_of(const ViewerState& s) {
  return s.render_height > 0 ? (float)s.render_width / (float)s.render_height : 1.0f;
}

// Orthographic: the view height takes the focus controls' place (the field of view is kept for
// switching back). Dragged in steps of its own size: models span micrometres to kilometres.
void view_height_control(ViewerState& s) {
  Camera& cam = s.controller.camera();
  float h = cam.ortho_height;
  if (ImGui::DragFloat("view height", &h, 0.005f * h, 0.0f, 0.0f, "%.4g") && ortho_height_problem(h).empty())
    cam.ortho_height = h;
}

// Three views of one number: changing any one updates the other two on the next frame.
void focus_controls(ViewerState& s) {
  Camera& cam = s.controller.camera();
  bool ortho = cam.orthographic();
  if (ImGui::Checkbox("orthographic (O)", &ortho)) s.controller.toggle_projection();
  if (cam.orthographic()) return view_height_control(s);
  float fov_deg = glm::degrees(cam.fov_y);
  // Ctrl+click types a value past the slider's ends: every field is checked as its option is.
  if (ImGui::SliderFloat("FOV y (deg)", &fov_deg, 1.0f, 150.0f, "%.2f") && fov_y_problem(fov_deg).empty())
    cam.fov_y = glm::radians(fov_deg);
  int h = s.render_height > 0 ? s.render_height : 1;
  float f_px = cam.focal_px(h);
  if (ImGui::SliderFloat("focal (px)", &f_px, 0.1f * (float)h, 20.0f * (float)h, "%.1f",
                         ImGuiSliderFlags_Logarithmic) &&
      focal_fov_problem(f_px, h).empty())
    cam.set_focal_px(f_px, h);
  float f_mm = cam.focal_35mm();
  // The 35 mm focal length is a focal length in pixels of a frame 24 (mm) tall.
  if (ImGui::SliderFloat("focal (35 mm eq.)", &f_mm, 4.0f, 600.0f, "%.1f mm", ImGuiSliderFlags_Logarithmic) &&
      focal_fov_problem(f_mm, 24).empty())
    cam.set_focal_35mm(f_mm);
}

void clip_controls(ViewerState& s) {
  Camera& cam = s.controller.camera();
  ImGui::Checkbox("fit near/far to the model", &s.controller.auto_clip);
  ImGui::BeginDisabled(s.controller.auto_clip);
  float nf[2] = {cam.near_plane, cam.far_plane};
  // Orthographic: the near plane may lie behind the eye (Camera::fit_clip_planes).
  const float lowest = cam.orthographic() ? -1e9f : 1e-6f;
  if (ImGui::DragFloat2("near / far", nf, 0.001f * std::fabs(cam.far_plane), lowest, 1e9f, "%.4g") &&
      near_problem(nf[0]).empty() && far_problem(nf[1]).empty() &&
      near_far_problem(nf[0], nf[1], cam.orthographic()).empty()) {
    cam.near_plane = nf[0];
    cam.far_plane = nf[1];
  }
  ImGui::EndDisabled();
}

void position_controls(ViewerState& s) {
  Camera& cam = s.controller.camera();
  float speed = 0.002f * glm::length(cam.eye - cam.target) + 1e-6f;
  glm::vec3 eye = cam.eye, target = cam.target;
  bool moved = ImGui::DragFloat3("eye", &eye.x, speed, 0, 0, "%.4g");
  moved |= ImGui::DragFloat3("target", &target.x, speed, 0, 0, "%.4g");
  // lookAt needs finite, distinct points and an up that is not along the view.
  if (moved && point_problem(eye).empty() && point_problem(target).empty() && look_problem(eye, target).empty() &&
      up_problem(cam.up, eye, target).empty()) {
    cam.eye = eye;
    cam.target = target;
    s.controller.orbit_degrees(0, 0);  // refits the clip planes when that is on
  }
}

void view_buttons(ViewerState& s) {
  if (ImGui::Button("Frame all (F)")) s.controller.frame_all(aspect_of(s));
  for (int v = 0; v <= (int)ViewPreset::Iso; ++v) {
    if (v > 0) ImGui::SameLine();
    if (ImGui::Button(preset_name((ViewPreset)v))) s.controller.preset((ViewPreset)v, aspect_of(s));
  }
  int mode = (int)s.controller.mode;
  ImGui::RadioButton("orbit", &mode, (int)CameraController::Mode::Orbit);
  ImGui::SameLine();
  ImGui::RadioButton("fly (WASD, QE, drag to look)", &mode, (int)CameraController::Mode::Fly);
  s.controller.mode = (CameraController::Mode)mode;
}

}  // namespace

void draw_camera_panel(ViewerState& s) {
  place_right_panel(8);
  ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver);
  ImGui::Begin("Camera");
  focus_controls(s);
  clip_controls(s);
  position_controls(s);
  view_buttons(s);
  ImGui::End();
}

}  // namespace facet
