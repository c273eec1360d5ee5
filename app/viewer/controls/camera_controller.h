// Turns mouse and keyboard input into camera moves: orbit around a target, pan, zoom toward the
// cursor, fly (WASD + mouse) at a speed scaled to the model, frame-all and preset views, in
// perspective or orthographic (where zoom and framing change the view height, not the distance).
// Pure math on facet::Camera: no GL, no GLFW, no ImGui (the viewer fills ControllerInput).
#pragma once
#include <glm/glm.hpp>

#include "engine/render/camera.h"

namespace facet {

// One frame of input, already filtered: buttons and keys ImGui wants for itself are false here.
struct ControllerInput {
  float dt = 0;                                      // seconds since the previous frame
  glm::vec2 mouse{0, 0};                             // cursor, window pixels, y down
  glm::vec2 mouse_delta{0, 0};                       // cursor motion since the previous frame, window pixels
  glm::vec2 viewport{1, 1};                          // window size, pixels
  bool left = false, right = false, middle = false;  // buttons held
  float wheel = 0;                                   // scroll steps this frame, positive = away from the user (zoom in)
  bool forward = false, back = false, strafe_left = false, strafe_right = false;  // W S A D
  bool rise = false, sink = false;                                                // E Q
  bool fast = false;                                                              // shift: fly four times faster
  bool moving() const { return forward || back || strafe_left || strafe_right || rise || sink; }
};

enum class ViewPreset { Front, Back, Left, Right, Top, Bottom, Iso };

class CameraController {
 public:
  enum class Mode { Orbit, Fly };

  // A new model: remember its size (fly speed, zoom limits) and frame it.
  void set_model(const Bounds& bounds, float aspect);
  // Frame the whole model from the current viewing direction (F).
  void frame_all(float aspect);
  void preset(ViewPreset view, float aspect);
  // Look at the pivot (the target) from a preset direction, keeping the distance (numpad keys).
  void view_from(ViewPreset view);
  // Orbit about `p` from now on (double-click): the target moves there, the view direction stays
  // and the eye keeps its distance to p, so p comes to the middle of the view.
  void set_pivot(glm::vec3 p);
  void toggle_mode() { mode = mode == Mode::Orbit ? Mode::Fly : Mode::Orbit; }
  // Orthographic <-> perspective (O), the model keeping its size on screen at the pivot
  // (Camera::set_projection).
  void toggle_projection();
  // One frame of input. W/A/S/D/Q/E switch an orbiting camera to fly, then move it.
  void update(const ControllerInput& in);

  // The scripted `--orbit`: turn the eye around the target about the camera's up axis.
  void orbit_degrees(float yaw_deg, float pitch_deg);
  void pan_pixels(glm::vec2 delta_px, float viewport_height);
  // Zoom by `steps` wheel notches, keeping the point under `cursor_px` fixed on screen
  // (orthographic: the view height shrinks, the eye's distance stays).
  void zoom_toward(glm::vec2 cursor_px, glm::vec2 viewport, float steps);

  Camera& camera() { return m_camera; }
  const Camera& camera() const { return m_camera; }
  Mode mode = Mode::Orbit;
  bool auto_clip = true;  // refit near/far to the model after every move

 private:
  void after_move();
  Camera m_camera;
  Bounds m_bounds;
  float m_model_radius = 1.0f;
};

const char* preset_name(ViewPreset view);

}  // namespace facet
