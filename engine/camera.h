// The camera: position, look-at orientation, vertical field of view (and its twin, the focal
// length in pixels), near and far. OpenGL conventions: right-handed, +Y up, looking down -Z.
#pragma once
#include <glm/glm.hpp>

#include "engine/scene.h"

namespace facet {

struct Camera {
  glm::vec3 eye{0, 0, 3};
  glm::vec3 target{0, 0, 0};
  glm::vec3 up{0, 1, 0};
  float fov_y = glm::radians(45.0f);  // vertical field of view, radians
  float near_plane = 0.1f;            // world units, > 0
  float far_plane = 100.0f;           // world units, > near_plane

  // f_px = (height / 2) / tan(fov_y / 2): the same number as fov_y, in pixels of a frame.
  float focal_px(int height) const;
  void set_focal_px(float f_px, int height);
  // 35 mm-equivalent focal length (24 mm film height).
  float focal_35mm() const;
  void set_focal_35mm(float mm);

  glm::mat4 view() const;
  glm::mat4 projection(float aspect) const;
  glm::mat4 view_projection(float aspect) const { return projection(aspect) * view(); }

  // Near and far that enclose the bounding sphere from the current eye, with margin.
  void fit_clip_planes(const Bounds& b);
  // A camera that frames the bounding sphere (whatever its scale), looking from the front and a
  // little above, so that the sphere fills `fill` of the smaller frame side.
  static Camera framing(const Bounds& b, float aspect, float fov_y_rad = glm::radians(45.0f),
                        float fill = 0.9f);
};

}  // namespace facet
