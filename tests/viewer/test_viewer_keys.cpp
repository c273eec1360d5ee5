// The viewer's keys (app/viewer/controls/viewer_keys.h), pressed without a window.
#include <gtest/gtest.h>

#include <glm/glm.hpp>

#include "app/viewer/controls/viewer_keys.h"
#include "engine/render/cpu_renderer.h"
#include "tests/support/hostile_scenes.h"

namespace facet {
namespace {

Bounds unit_bounds() {
  Bounds b;
  b.min = {-1, -1, -1};
  b.max = {1, 1, 1};
  b.radius = std::sqrt(3.0f);
  return b;
}

// A viewer state with a model's bounds set and an orbiting camera.
struct KeysTest : ::testing::Test {
  void SetUp() override { s.controller.set_model(unit_bounds(), 1.0f); }
  template <class Set>
  void press(Set set) {
    KeyPresses k;
    set(k);
    apply_key_presses(s, k, 1.0f);
  }
  ViewerState s;
};

TEST_F(KeysTest, EscapeQuitsAtOnceWhenNothingIsLoading) {
  press([&](KeyPresses& k) { k.escape = true; });
  EXPECT_TRUE(s.quit_requested);
  EXPECT_FALSE(s.confirm_quit);
}

TEST_F(KeysTest, EscapeAsksFirstWhileAModelLoads) {
  s.loader.request("/nonexistent/model.obj");  // busy until the loop collects the result
  ASSERT_TRUE(s.loader.busy());
  press([&](KeyPresses& k) { k.escape = true; });
  EXPECT_FALSE(s.quit_requested);
  EXPECT_TRUE(s.confirm_quit);
  CpuRenderer renderer;
  s.loader.finish(renderer);
}

TEST_F(KeysTest, TabTogglesOrbitAndFly) {
  press([&](KeyPresses& k) { k.tab = true; });
  EXPECT_EQ(s.controller.mode, CameraController::Mode::Fly);
  press([&](KeyPresses& k) { k.tab = true; });
  EXPECT_EQ(s.controller.mode, CameraController::Mode::Orbit);
}

TEST_F(KeysTest, F1TogglesTheCheatSheet) {
  press([&](KeyPresses& k) { k.help = true; });
  EXPECT_TRUE(s.show_help);
  press([&](KeyPresses& k) { k.help = true; });
  EXPECT_FALSE(s.show_help);
}

TEST_F(KeysTest, F12SavesTheFrameAndShiftF12TheFrameWithTheOverlay) {
  press([&](KeyPresses& k) { k.screenshot = true; });
  EXPECT_TRUE(s.screenshot_requested);
  EXPECT_FALSE(s.screenshot_with_overlay);
  s.screenshot_requested = false;
  press([&](KeyPresses& k) {
    k.screenshot = true;
    k.shift = true;
  });
  EXPECT_FALSE(s.screenshot_requested);
  EXPECT_TRUE(s.screenshot_with_overlay);
}

TEST_F(KeysTest, MTogglesMeasureModeAndStartsAFreshMeasurement) {
  s.measurement.click({1, 2, 3});
  press([&](KeyPresses& k) { k.measure = true; });
  EXPECT_TRUE(s.measure_mode);
  EXPECT_TRUE(s.measurement.points.empty());
}

TEST_F(KeysTest, XTogglesTheAxesGizmoAndHTheOverlay) {
  bool axes = s.show_axes, overlay = s.overlay;
  press([&](KeyPresses& k) {
    k.hide_overlay = true;
    k.axes = true;
  });
  EXPECT_NE(s.show_axes, axes);
  EXPECT_NE(s.overlay, overlay);
}

TEST_F(KeysTest, GTogglesTheGroundGrid) {
  press([&](KeyPresses& k) { k.grid = true; });
  EXPECT_TRUE(s.settings.ground_grid);
  press([&](KeyPresses& k) { k.grid = true; });
  EXPECT_FALSE(s.settings.ground_grid);
}

TEST_F(KeysTest, NumpadViewsKeepThePivotAndTheDistance) {
  s.controller.orbit_degrees(30, 20);
  const glm::vec3 target = s.controller.camera().target;
  const float d = glm::length(s.controller.camera().eye - target);
  struct Case {
    int key;
    bool ctrl;
    glm::vec3 from;
  } cases[] = {{1, false, {0, 0, 1}}, {1, true, {0, 0, -1}}, {3, false, {1, 0, 0}},
               {3, true, {-1, 0, 0}}, {7, false, {0, 1, 0}}, {7, true, {0, -1, 0}}};
  for (const Case& c : cases) {
    press([&](KeyPresses& k) {
      k.numpad = c.key;
      k.ctrl = c.ctrl;
    });
    const Camera& cam = s.controller.camera();
    EXPECT_EQ(cam.target, target) << c.key << (c.ctrl ? " with ctrl" : "");
    EXPECT_NEAR(glm::length(cam.eye - target), d, 1e-4f * d);
    EXPECT_GT(glm::dot(glm::normalize(cam.eye - target), c.from), 0.999f) << c.key << c.ctrl;
  }
}

// Triangle ids of the box (the KeysTest model) through the controller's camera, 160 x 120.
std::vector<uint32_t> box_ids(const Camera& camera) {
  CpuRenderer r;
  r.set_scene(std::make_shared<Scene>(test::make_box(4, {1, 1, 1})));
  RenderOptions all;
  all.two_sided = true;
  r.render(camera, all, 160, 120);
  std::vector<uint32_t> ids;
  r.read_triangle_ids(ids);
  return ids;
}

TEST_F(KeysTest, OTogglesOrthographicKeepingTheModelsSizeAtThePivot) {
  s.controller.orbit_degrees(30, 20);
  const Camera persp = s.controller.camera();
  const float d = glm::length(persp.eye - persp.target);
  press([&](KeyPresses& k) { k.ortho = true; });
  const Camera ortho = s.controller.camera();
  ASSERT_TRUE(ortho.orthographic());
  EXPECT_NEAR(ortho.ortho_height, 2.0f * d * std::tan(0.5f * persp.fov_y), 1e-4f * d);
  // The image changes (the far side of the box is no longer smaller than the near side), yet
  // the box keeps about its size: the planes through the pivot are drawn at the same scale.
  const std::vector<uint32_t> a = box_ids(persp), b = box_ids(ortho);
  size_t covered_a = 0, covered_b = 0, differ = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    covered_a += a[i] != ~0u;
    covered_b += b[i] != ~0u;
    differ += a[i] != b[i];
  }
  EXPECT_GT(differ, a.size() / 50);
  EXPECT_NEAR((double)covered_b, (double)covered_a, 0.25 * covered_a);
  // O again: back to perspective at the distance it had.
  press([&](KeyPresses& k) { k.ortho = true; });
  EXPECT_FALSE(s.controller.camera().orthographic());
  EXPECT_NEAR(glm::length(s.controller.camera().eye - persp.target), d, 1e-4f * d);
  const std::vector<uint32_t> c = box_ids(s.controller.camera());
  size_t back_differ = 0;
  for (size_t i = 0; i < a.size(); ++i) back_differ += a[i] != c[i];
  EXPECT_LE(back_differ, a.size() / 500) << "the perspective image comes back";
}

}  // namespace
}  // namespace facet
