// The camera: position, look-at orientation, vertical field of view (and its twin, the focal
// length in pixels), near and far, and the projection: perspective from the eye, or orthographic
// (parallel rays along the view direction, a view height in world units instead of a field of
// view). OpenGL conventions: right-handed, +Y up, looking down -Z.
#pragma once
#include <glm/glm.hpp>

#include "engine/scene/scene.h"

namespace facet {

enum class Projection { Perspective, Orthographic };

struct Camera {
  glm::vec3 eye{0, 0, 3};
  glm::vec3 target{0, 0, 0};
  glm::vec3 up{0, 1, 0};
  float fov_y = glm::radians(45.0f);  // vertical field of view, radians
  float near_plane = 0.1f;            // world units, > 0
  float far_plane = 100.0f;           // world units, > near_plane
  Projection projection_mode = Projection::Perspective;
  float ortho_height = 2.0f;  // orthographic: world units the frame's height spans, > 0;
                              //   fov_y is then unused by the projection

  bool orthographic() const { return projection_mode == Projection::Orthographic; }
  // Unit direction from the eye towards the target.
  glm::vec3 forward() const;
  // The orthographic view height showing the target's plane as the perspective does:
  // 2 * |target - eye| * tan(fov_y / 2).
  float height_at_target() const;
  // Switches the projection, keeping the model the same size on screen at the target (the
  // orbit pivot): to orthographic, ortho_height = height_at_target(); to perspective, the eye
  // moves along the view direction to the distance where the field of view spans ortho_height.
  void set_projection(Projection p);

  // f_px = (height / 2) / tan(fov_y / 2): the same number as fov_y, in pixels of a frame.
  float focal_px(int height) const;
  void set_focal_px(float f_px, int height);
  // 35 mm-equivalent focal length (24 mm film height).
  float focal_35mm() const;
  void set_focal_35mm(float mm);

  glm::mat4 view() const;
  glm::mat4 projection(float aspect) const;
  glm::mat4 view_projection(float aspect) const { return projection(aspect) * view(); }

  // Near and far that enclose the bounding sphere from the current eye, with margin. In
  // orthographic the near plane may lie behind the eye (a parallel projection has no centre to
  // keep away from), so the whole model shows wherever the eye stands along the view direction.
  void fit_clip_planes(const Bounds& b);
  // A camera that frames the bounding sphere (whatever its scale), looking from the front and a
  // little above, so that the sphere fills `fill` of the smaller frame side.
  static Camera framing(const Bounds& b, float aspect, float fov_y_rad = glm::radians(45.0f), float fill = 0.9f);
};

}  // namespace facet
