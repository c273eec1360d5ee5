// The viewer's camera moves (app/viewer/controls/camera_controller.h): what each gesture must keep fixed.
#include <gtest/gtest.h>

#include <glm/glm.hpp>

#include "app/viewer/controls/camera_controller.h"

namespace facet {
namespace {

Bounds sphere_bounds(float radius) {
  Bounds b;
  b.center = {1, 2, 3};
  b.radius = radius;
  b.min = {1 - radius, 2 - radius, 3 - radius};
  b.max = {1 + radius, 2 + radius, 3 + radius};
  return b;
}

// Window pixel (y down) where a world point lands.
glm::vec2 to_pixel(const Camera& c, glm::vec3 p, glm::vec2 viewport) {
  glm::vec4 clip = c.view_projection(viewport.x / viewport.y) * glm::vec4(p, 1.0f);
  glm::vec2 ndc = glm::vec2(clip) / clip.w;
  return {(ndc.x * 0.5f + 0.5f) * viewport.x, (0.5f - ndc.y * 0.5f) * viewport.y};
}

TEST(CameraController, ZoomKeepsThePointUnderTheCursorInPlace) {
  CameraController cc;
  glm::vec2 viewport{640, 480};
  cc.set_model(sphere_bounds(1.0f), viewport.x / viewport.y);
  glm::vec2 cursor{500, 120};
  // The world point under the cursor on the plane through the target.
  const Camera before = cc.camera();
  glm::vec3 f = glm::normalize(before.target - before.eye);
  glm::vec3 r = glm::normalize(glm::cross(f, before.up)), u = glm::cross(r, f);
  float d = glm::length(before.target - before.eye), t = std::tan(0.5f * before.fov_y);
  glm::vec3 p = before.target + (2 * cursor.x / viewport.x - 1) * t * (viewport.x / viewport.y) * d * r +
                (1 - 2 * cursor.y / viewport.y) * t * d * u;
  cc.zoom_toward(cursor, viewport, 3.0f);
  glm::vec2 after = to_pixel(cc.camera(), p, viewport);
  EXPECT_NEAR(after.x, cursor.x, 0.05f);
  EXPECT_NEAR(after.y, cursor.y, 0.05f);
  EXPECT_LT(glm::length(cc.camera().target - cc.camera().eye), d);  // and it did come closer
}

TEST(CameraController, OrbitKeepsTheDistanceToTheTarget) {
  CameraController cc;
  cc.set_model(sphere_bounds(2.0f), 1.5f);
  float d = glm::length(cc.camera().eye - cc.camera().target);
  glm::vec3 target = cc.camera().target;
  for (int i = 0; i < 100; ++i) cc.orbit_degrees(7.0f, 3.0f);
  EXPECT_NEAR(glm::length(cc.camera().eye - cc.camera().target), d, 1e-4f * d);
  EXPECT_EQ(cc.camera().target, target);
  // Pitch stops short of the pole, where lookAt would flip.
  glm::vec3 dir = glm::normalize(cc.camera().eye - target);
  EXPECT_LT(glm::dot(dir, glm::vec3(0, 1, 0)), std::sin(glm::radians(89.5f)));
}

TEST(CameraController, PanMovesEyeAndTargetTogether) {
  CameraController cc;
  cc.set_model(sphere_bounds(1.0f), 1.0f);
  Camera before = cc.camera();
  cc.pan_pixels({40, -25}, 480);
  glm::vec3 moved_eye = cc.camera().eye - before.eye, moved_target = cc.camera().target - before.target;
  EXPECT_NEAR(glm::length(moved_eye - moved_target), 0.0f, 1e-5f);
  EXPECT_GT(glm::length(moved_eye), 0.0f);
}

TEST(CameraController, FrameAllAndFlySpeedScaleWithTheModel) {
  for (float radius : {0.1f, 500.0f}) {
    CameraController cc;
    cc.set_model(sphere_bounds(radius), 16.0f / 9.0f);
    float d = glm::length(cc.camera().eye - cc.camera().target);
    EXPECT_GT(d, radius) << "the eye is outside the model";
    EXPECT_LT(d, 10 * radius) << "and not lost in the distance";
    EXPECT_LE(cc.camera().near_plane, d - radius);
    EXPECT_GE(cc.camera().far_plane, d + radius);
    cc.mode = CameraController::Mode::Fly;
    ControllerInput in;
    in.dt = 0.5f;
    in.forward = true;
    glm::vec3 eye = cc.camera().eye;
    cc.update(in);
    EXPECT_NEAR(glm::length(cc.camera().eye - eye), 0.5f * radius, 1e-3f * radius);
  }
}

TEST(CameraController, PresetViewsLookAtTheModelCentre) {
  CameraController cc;
  cc.set_model(sphere_bounds(1.0f), 1.0f);
  for (ViewPreset v : {ViewPreset::Front, ViewPreset::Top, ViewPreset::Left, ViewPreset::Iso}) {
    cc.preset(v, 1.0f);
    EXPECT_EQ(cc.camera().target, glm::vec3(1, 2, 3)) << preset_name(v);
  }
  cc.preset(ViewPreset::Front, 1.0f);
  EXPECT_GT(cc.camera().eye.z, 3.0f);
}

TEST(CameraController, FlyKeysSwitchAnOrbitingCameraToFly) {
  CameraController cc;
  cc.set_model(sphere_bounds(1.0f), 1.0f);
  ASSERT_EQ(cc.mode, CameraController::Mode::Orbit);
  ControllerInput in;
  in.dt = 0.1f;
  in.strafe_left = true;
  glm::vec3 eye = cc.camera().eye;
  cc.update(in);
  EXPECT_EQ(cc.mode, CameraController::Mode::Fly);
  EXPECT_GT(glm::length(cc.camera().eye - eye), 0.0f) << "and the camera moved";
}

TEST(CameraController, APivotComesToTheMiddleOfTheViewAtTheSameDistance) {
  CameraController cc;
  glm::vec2 viewport{640, 480};
  cc.set_model(sphere_bounds(1.0f), viewport.x / viewport.y);
  glm::vec3 p{1.3f, 2.4f, 3.5f};
  float d = glm::length(p - cc.camera().eye);
  glm::vec3 dir = glm::normalize(cc.camera().target - cc.camera().eye);
  cc.set_pivot(p);
  EXPECT_EQ(cc.camera().target, p);
  EXPECT_NEAR(glm::length(cc.camera().eye - p), d, 1e-5f);
  EXPECT_GT(glm::dot(glm::normalize(cc.camera().target - cc.camera().eye), dir), 0.99999f)
      << "the view direction stays";
  glm::vec2 px = to_pixel(cc.camera(), p, viewport);
  EXPECT_NEAR(px.x, 320.0f, 0.01f);
  EXPECT_NEAR(px.y, 240.0f, 0.01f);
  cc.orbit_degrees(40, 10);
  EXPECT_NEAR(glm::length(cc.camera().eye - p), d, 1e-4f) << "orbiting turns about the pivot";
}

TEST(CameraController, OrthographicZoomShrinksTheViewHeightKeepingThePointUnderTheCursor) {
  CameraController cc;
  glm::vec2 viewport{640, 480};
  cc.set_model(sphere_bounds(1.0f), viewport.x / viewport.y);
  cc.toggle_projection();
  ASSERT_TRUE(cc.camera().orthographic());
  const Camera before = cc.camera();
  glm::vec2 cursor{500, 120};
  // The world point under the cursor on the plane through the target.
  glm::vec3 f = before.forward();
  glm::vec3 r = glm::normalize(glm::cross(f, before.up)), u = glm::cross(r, f);
  float half_h = 0.5f * before.ortho_height;
  glm::vec3 p = before.target + (2 * cursor.x / viewport.x - 1) * half_h * (viewport.x / viewport.y) * r +
                (1 - 2 * cursor.y / viewport.y) * half_h * u;
  cc.zoom_toward(cursor, viewport, 3.0f);
  glm::vec2 after = to_pixel(cc.camera(), p, viewport);
  EXPECT_NEAR(after.x, cursor.x, 0.05f);
  EXPECT_NEAR(after.y, cursor.y, 0.05f);
  EXPECT_LT(cc.camera().ortho_height, 0.7f * before.ortho_height);
  EXPECT_NEAR(glm::length(cc.camera().target - cc.camera().eye), glm::length(before.target - before.eye), 1e-4f)
      << "the eye keeps its distance";
}

TEST(CameraController, OrthographicPanFollowsTheCursorAndFrameAllStaysOrthographic) {
  CameraController cc;
  cc.set_model(sphere_bounds(2.0f), 1.0f);
  cc.toggle_projection();
  const Camera before = cc.camera();
  cc.pan_pixels({100, 0}, 400.0f);
  // 100 of 400 pixels: a quarter of the view height, sideways.
  EXPECT_NEAR(glm::length(cc.camera().target - before.target), 0.25f * before.ortho_height, 1e-4f);
  cc.frame_all(1.0f);
  EXPECT_TRUE(cc.camera().orthographic());
  EXPECT_NEAR(cc.camera().ortho_height, before.ortho_height, 1e-3f * before.ortho_height);
}

}  // namespace
}  // namespace facet
