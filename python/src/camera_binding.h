// facet.Camera's C++ side: what the user gave (eye/target/up with fov_y or focal_px, or the
// seed's R, shift, focus), resolved into an engine Camera for a frame height and a mesh's bounds.
#pragma once
#include <pybind11/pybind11.h>

#include <glm/glm.hpp>
#include <optional>

#include "engine/render/camera.h"

namespace facet_py {

struct CameraSpec {
  glm::vec3 eye{0, 0, 3}, target{0, 0, 0}, up{0, 1, 0};
  std::optional<float> fov_y_deg;   // vertical field of view, degrees (default 45)
  std::optional<float> focal_px;    // focal length in pixels, instead of fov_y
  std::optional<float> near_plane;  // world units; default: fit the mesh's bounding sphere
  std::optional<float> far_plane;
  std::optional<float> ortho_height;  // orthographic with this view height (world units); unset:
                                      //   perspective

  // The engine camera for a frame `height` pixels tall; clip planes fitted to `bounds` where
  // not given (as `facet render` does).
  facet::Camera resolve(const facet::Bounds& bounds, int height) const;
};

void bind_camera(pybind11::module_& m);

}  // namespace facet_py
