// Shared helpers for tests.
#include "tests/support/test_scenes.h"

#include <cstdlib>
#include <filesystem>

#include "engine/load/load_model.h"

namespace facet::test {

// FACET_SHARED_ASSETS in the environment overrides the build-time path (a GPU host that got a
// copy of the assets somewhere else).
std::string shared_asset(const std::string& relative) {
  const char* env = std::getenv("FACET_SHARED_ASSETS");
  return std::string(env && *env ? env : FACET_SHARED_ASSETS) + "/" + relative;
}
std::string project_asset(const std::string& relative) { return std::string(FACET_ASSETS) + "/" + relative; }

std::string load_refusal(const std::string& path) {
  try {
    load_model(path);
  } catch (const LoadError& e) {
    return e.what();
  }
  return "";
}

int for_each_loadable_edge_case(const std::function<void(const Scene&, const std::string&)>& each) {
  int loaded = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(shared_asset("edge-cases"))) {
    if (entry.path().extension() != ".obj") continue;
    Scene s;
    try {
      s = load_model(entry.path().string());
    } catch (const LoadError&) {
      continue;  // refused: nothing to judge
    }
    each(s, entry.path().string());
    ++loaded;
  }
  return loaded;
}

Camera look_at(glm::vec3 eye, glm::vec3 target, float fov_y_deg, float near_plane, float far_plane) {
  Camera c;
  c.eye = eye;
  c.target = target;
  c.fov_y = glm::radians(fov_y_deg);
  c.near_plane = near_plane;
  c.far_plane = far_plane;
  return c;
}

RenderOptions two_sided() {
  RenderOptions s;
  s.two_sided = true;
  return s;
}

Camera ortho_look_at(glm::vec3 eye, glm::vec3 target, float height, float near_plane, float far_plane) {
  Camera c = look_at(eye, target, 45.0f, near_plane, far_plane);
  c.projection_mode = Projection::Orthographic;
  c.ortho_height = height;
  return c;
}

FrameParams frame_params(const Scene& scene, const Camera& camera, int width, int height, RenderOptions settings) {
  return make_frame_params(camera, settings, frame_bounds(scene), width, height);
}

int32_t add_checker_alpha_map(Scene& scene, int columns, int rows) {
  std::vector<Rgba8> alpha((size_t)columns * rows);
  for (int j = 0; j < rows; ++j)
    for (int i = 0; i < columns; ++i)
      alpha[(size_t)j * columns + i] = {255, 255, 255, (uint8_t)((i + j) % 2 ? 0 : 255)};
  const int32_t t = add_texture(scene, "checker-alpha", columns, rows, alpha);
  for (Material& m : scene.materials) m.alpha_texture = t;
  return t;
}

}  // namespace facet::test
