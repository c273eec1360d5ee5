// The viewer's keys (app/viewer/viewer_keys.h), pressed without a window.
#include <gtest/gtest.h>

#include <glm/glm.hpp>

#include "app/viewer/viewer_keys.h"
#include "engine/cpu_renderer.h"

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
  press([&](KeyPresses& k) { k.screenshot = true; k.shift = true; });
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
  press([&](KeyPresses& k) { k.hide_overlay = true; k.axes = true; });
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
    press([&](KeyPresses& k) { k.numpad = c.key; k.ctrl = c.ctrl; });
    const Camera& cam = s.controller.camera();
    EXPECT_EQ(cam.target, target) << c.key << (c.ctrl ? " with ctrl" : "");
    EXPECT_NEAR(glm::length(cam.eye - target), d, 1e-4f * d);
    EXPECT_GT(glm::dot(glm::normalize(cam.eye - target), c.from), 0.999f) << c.key << c.ctrl;
  }
}

}  // namespace
}  // namespace facet
