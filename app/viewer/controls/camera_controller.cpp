// Camera moves for the viewer. Orbit and pan keep the target; zoom is a scaling about the point
// under the cursor, so that point stays put on screen (of the distance in perspective, of the view
// height in orthographic); fly moves eye and target together.
#include "app/viewer/controls/camera_controller.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace facet {

namespace {
constexpr float kOrbitDegPerPixel = 0.3f;
constexpr float kFlyDegPerPixel = 0.15f;
constexpr float kZoomPerStep = 0.85f;  // distance factor per wheel notch
constexpr float kMaxPitchDeg = 89.0f;  // never look straight along up: lookAt degenerates
constexpr float kFlyModelRadiiPerSec = 1.0f;

glm::vec3 to_glm(Vec3 v) { return {v.x, v.y, v.z}; }

glm::vec3 rotate_about(glm::vec3 v, glm::vec3 axis, float rad) {
  return glm::vec3(glm::rotate(glm::mat4(1.0f), rad, glm::normalize(axis)) * glm::vec4(v, 0.0f));
}

// Angle between v and up, in degrees above the plane orthogonal to up.
float elevation_deg(glm::vec3 v, glm::vec3 up) {
  float s = glm::dot(glm::normalize(v), glm::normalize(up));
  return glm::degrees(std::asin(std::clamp(s, -1.0f, 1.0f)));
}

// Index by ViewPreset: where the eye is seen from, relative to the target.
glm::vec3 preset_direction(ViewPreset view) {
  static const glm::vec3 dirs[] = {{0, 0, 1},     {0, 0, -1},     {-1, 0, 0},  {1, 0, 0},
                                   {0, 1, 1e-3f}, {0, -1, 1e-3f}, {1, 0.8f, 1}};
  return glm::normalize(dirs[(int)view]);
}

}  // namespace

void CameraController::set_model(const Bounds& bounds, float aspect) {
  m_bounds = bounds;
  m_model_radius = std::max(bounds.radius, 1e-6f);
  frame_all(aspect);
}

void CameraController::frame_all(float aspect) {
  glm::vec3 dir = m_camera.eye - m_camera.target;
  Camera framed = Camera::framing(m_bounds, aspect, m_camera.fov_y);
  float d = glm::length(framed.eye - framed.target);
  if (glm::length(dir) > 0) framed.eye = framed.target + glm::normalize(dir) * d;
  framed.up = m_camera.up;
  if (m_camera.orthographic()) framed.set_projection(Projection::Orthographic);
  m_camera = framed;
  after_move();
}

void CameraController::toggle_projection() {
  m_camera.set_projection(m_camera.orthographic() ? Projection::Perspective : Projection::Orthographic);
  after_move();
}

void CameraController::preset(ViewPreset view, float aspect) {
  m_camera.up = {0, 1, 0};
  m_camera.target = to_glm(m_bounds.center);
  m_camera.eye = m_camera.target + preset_direction(view);
  frame_all(aspect);
}

void CameraController::view_from(ViewPreset view) {
  float d = glm::length(m_camera.eye - m_camera.target);
  m_camera.up = {0, 1, 0};
  m_camera.eye = m_camera.target + preset_direction(view) * d;
  after_move();
}

void CameraController::set_pivot(glm::vec3 p) {
  glm::vec3 f = glm::normalize(m_camera.target - m_camera.eye);
  float d = glm::length(p - m_camera.eye);
  m_camera.target = p;
  m_camera.eye = p - f * d;
  after_move();
}

void CameraController::orbit_degrees(float yaw_deg, float pitch_deg) {
  glm::vec3 offset = m_camera.eye - m_camera.target;
  offset = rotate_about(offset, m_camera.up, glm::radians(yaw_deg));
  if (pitch_deg == 0) {  // a pure turn (the scripted orbit) stays a single rotation
    m_camera.eye = m_camera.target + offset;
    return after_move();
  }
  // Pitch about the camera's right axis, clamped so the view never flips over the pole.
  float elev = elevation_deg(offset, m_camera.up);
  float new_elev = std::clamp(elev + pitch_deg, -kMaxPitchDeg, kMaxPitchDeg);
  glm::vec3 right = glm::cross(m_camera.up, offset);
  if (glm::length(right) > 0) offset = rotate_about(offset, right, glm::radians(-(new_elev - elev)));
  m_camera.eye = m_camera.target + offset;
  after_move();
}

void CameraController::pan_pixels(glm::vec2 delta_px, float viewport_height) {
  glm::vec3 fwd = m_camera.target - m_camera.eye;
  float dist = glm::length(fwd);
  glm::vec3 right = glm::normalize(glm::cross(fwd, m_camera.up));
  glm::vec3 up = glm::normalize(glm::cross(right, fwd));
  // World units per pixel at the target's depth, so the model follows the cursor.
  const float view_height =
      m_camera.orthographic() ? m_camera.ortho_height : 2.0f * dist * std::tan(0.5f * m_camera.fov_y);
  float per_px = view_height / std::max(viewport_height, 1.0f);
  glm::vec3 move = (-delta_px.x * right + delta_px.y * up) * per_px;
  m_camera.eye += move;
  m_camera.target += move;
  after_move();
}

void CameraController::zoom_toward(glm::vec2 cursor_px, glm::vec2 viewport, float steps) {
  glm::vec3 fwd = m_camera.target - m_camera.eye;
  float dist = glm::length(fwd);
  glm::vec3 f = fwd / dist;
  glm::vec3 right = glm::normalize(glm::cross(f, m_camera.up));
  glm::vec3 up = glm::cross(right, f);
  // The point under the cursor on the plane through the target facing the camera.
  float t = m_camera.orthographic() ? 0.5f * m_camera.ortho_height / dist : std::tan(0.5f * m_camera.fov_y);
  float ndc_x = 2.0f * cursor_px.x / viewport.x - 1.0f;
  float ndc_y = 1.0f - 2.0f * cursor_px.y / viewport.y;
  float aspect = viewport.x / std::max(viewport.y, 1.0f);
  glm::vec3 p = m_camera.target + (ndc_x * t * aspect * dist) * right + (ndc_y * t * dist) * up;
  // Scaling eye and target about p keeps p's projection where it was.
  float s = std::pow(kZoomPerStep, steps);
  float min_dist = 1e-3f * m_model_radius;
  if (m_camera.orthographic()) {
    // The view height scales about p on the target's plane; the eye keeps its distance, since
    // moving it along the rays would change nothing but the clipping.
    if (m_camera.ortho_height * s < min_dist) s = min_dist / m_camera.ortho_height;
    const glm::vec3 target = p + (m_camera.target - p) * s;
    m_camera.eye += target - m_camera.target;
    m_camera.target = target;
    m_camera.ortho_height *= s;
    return after_move();
  }
  if (dist * s < min_dist) s = min_dist / dist;
  m_camera.eye = p + (m_camera.eye - p) * s;
  m_camera.target = p + (m_camera.target - p) * s;
  after_move();
}

void CameraController::update(const ControllerInput& in) {
  if (in.moving()) mode = Mode::Fly;  // flying keys fly from either mode
  if (mode == Mode::Orbit) {
    if (in.left && (in.mouse_delta.x != 0 || in.mouse_delta.y != 0))
      orbit_degrees(-in.mouse_delta.x * kOrbitDegPerPixel, in.mouse_delta.y * kOrbitDegPerPixel);
    if ((in.right || in.middle) && (in.mouse_delta.x != 0 || in.mouse_delta.y != 0))
      pan_pixels(in.mouse_delta, in.viewport.y);
    if (in.wheel != 0) zoom_toward(in.mouse, in.viewport, in.wheel);
    return;
  }
  // Fly: the mouse (any button held) turns the view about the eye, WASD/QE move.
  glm::vec3 fwd = m_camera.target - m_camera.eye;
  float dist = std::max(glm::length(fwd), 1e-6f);
  if ((in.left || in.right) && (in.mouse_delta.x != 0 || in.mouse_delta.y != 0)) {
    glm::vec3 back = -fwd;
    back = rotate_about(back, m_camera.up, glm::radians(-in.mouse_delta.x * kFlyDegPerPixel));
    float elev = elevation_deg(-back, m_camera.up);
    float new_elev = std::clamp(elev - in.mouse_delta.y * kFlyDegPerPixel, -kMaxPitchDeg, kMaxPitchDeg);
    glm::vec3 right = glm::cross(m_camera.up, back);
    if (glm::length(right) > 0) back = rotate_about(back, right, glm::radians(new_elev - elev));
    m_camera.target = m_camera.eye - back;
    fwd = -back;
  }
  glm::vec3 f = fwd / dist;
  glm::vec3 right = glm::normalize(glm::cross(f, m_camera.up));
  glm::vec3 up = glm::normalize(m_camera.up);
  glm::vec3 move{0};
  if (in.forward) move += f;
  if (in.back) move -= f;
  if (in.strafe_right) move += right;
  if (in.strafe_left) move -= right;
  if (in.rise) move += up;
  if (in.sink) move -= up;
  // Speed scales with the model: a 0.2 m dragon and a 500-unit spider take the same time to cross.
  float speed = kFlyModelRadiiPerSec * m_model_radius * (in.fast ? 4.0f : 1.0f);
  if (glm::length(move) > 0) {
    glm::vec3 step = glm::normalize(move) * speed * in.dt;
    m_camera.eye += step;
    m_camera.target += step;
  }
  if (in.wheel != 0) zoom_toward(in.mouse, in.viewport, in.wheel);
  after_move();
}

void CameraController::after_move() {
  if (auto_clip) m_camera.fit_clip_planes(m_bounds);
}

const char* preset_name(ViewPreset view) {
  static const char* names[] = {"Front", "Back", "Left", "Right", "Top", "Bottom", "Iso"};
  return names[(int)view];
}

}  // namespace facet
