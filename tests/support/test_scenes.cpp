// Shared helpers for tests.
#include "tests/support/test_scenes.h"

namespace facet::test {

std::string shared_asset(const std::string& relative) { return std::string(FACET_SHARED_ASSETS) + "/" + relative; }
std::string project_asset(const std::string& relative) { return std::string(FACET_ASSETS) + "/" + relative; }

Camera look_at(glm::vec3 eye, glm::vec3 target, float fov_y_deg, float near_plane, float far_plane) {
  Camera c;
  c.eye = eye;
  c.target = target;
  c.fov_y = glm::radians(fov_y_deg);
  c.near_plane = near_plane;
  c.far_plane = far_plane;
  return c;
}

FrameParams frame_params(const Scene& scene, const Camera& camera, int width, int height,
                         RenderSettings settings) {
  return make_frame_params(camera, settings, scene.bounds, width, height);
}

}  // namespace facet::test
