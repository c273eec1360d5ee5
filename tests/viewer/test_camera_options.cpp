// The command-line camera shared by `facet render` and `facet view`: what each option fixes and
// what stays framed.
#include <gtest/gtest.h>

#include "app/camera_options.h"

using namespace facet;

namespace {
Bounds unit_bounds() {
  Bounds b;
  b.min = {-1, -1, -1};
  b.max = {1, 1, 1};
  b.center = {0, 0, 0};
  b.radius = 1.7320508f;
  return b;
}
}  // namespace

TEST(CameraOptions, ViewDirectionKeepsTheFramedDistanceAndLooksAtTheTarget) {
  Bounds b = unit_bounds();
  CameraOptions plain;
  Camera framed = make_camera(plain, b, 640, 480);
  CameraOptions o;
  o.view_dir = glm::vec3(3, 0, -4);  // not unit length: only the direction counts
  Camera c = make_camera(o, b, 640, 480);
  float d = glm::length(framed.eye - framed.target);
  EXPECT_NEAR(glm::length(c.eye - c.target), d, 1e-4f);
  glm::vec3 dir = glm::normalize(c.eye - c.target);
  EXPECT_NEAR(dir.x, 0.6f, 1e-5f);
  EXPECT_NEAR(dir.z, -0.8f, 1e-5f);
  EXPECT_LT(c.near_plane, d - b.radius);  // the whole model stays between the clip planes
  EXPECT_GT(c.far_plane, d + b.radius);
}

TEST(CameraOptions, EyeWinsOverViewDirectionAndZeroDirectionIsRefused) {
  Bounds b = unit_bounds();
  CameraOptions o;
  o.eye = glm::vec3(0, 0, 9);
  o.view_dir = glm::vec3(1, 0, 0);
  EXPECT_EQ(make_camera(o, b, 640, 480).eye, glm::vec3(0, 0, 9));
  CameraOptions zero;
  zero.view_dir = glm::vec3(0, 0, 0);
  EXPECT_THROW(make_camera(zero, b, 640, 480), std::invalid_argument);
}

TEST(CameraOptions, BackendAndSizeParsingRefuseWhatTheyDoNotKnow) {
  EXPECT_EQ(parse_backend("cpu"), Backend::Cpu);
  EXPECT_EQ(parse_backend("cuda"), Backend::Cuda);
  EXPECT_EQ(parse_backend("auto"), Backend::Auto);
  EXPECT_THROW(parse_backend("gpu"), std::invalid_argument);
  int w = 0, h = 0;
  parse_size("3840x2160", w, h);
  EXPECT_EQ(w, 3840);
  EXPECT_EQ(h, 2160);
  EXPECT_THROW(parse_size("10x0", w, h), std::invalid_argument);
  EXPECT_THROW(parse_size("99999x10", w, h), std::invalid_argument);
}

TEST(CameraOptions, AModelTooLargeToFrameIsRefusedForItsScaleNotForTheUpVector) {
  // Coordinates near 1e38: the framed distance passes single precision's range.
  for (float extent : {1e38f, 3e38f}) {
    Bounds b;
    b.min = {-extent, -extent, -extent};
    b.max = {extent, extent, extent};
    b.center = {0, 0, 0};
    b.radius = extent * 1.7320508f;  // infinite for 3e38
    try {
      make_camera(CameraOptions{}, b, 640, 480);
      ADD_FAILURE() << "framed a model of extent " << extent;
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("cannot be framed at this scale"), std::string::npos) << what;
      EXPECT_EQ(what.find("--up"), std::string::npos) << what;
    }
  }
  // Large but framable coordinates: an explicit camera far out is no "--up" problem.
  Bounds b;
  b.min = {-1e36f, -1e36f, -1e36f};
  b.max = {1e36f, 1e36f, 1e36f};
  b.radius = 1.7320508e36f;
  CameraOptions o;
  o.eye = glm::vec3(0, 0, 1e37f);
  o.target = glm::vec3(0, 0, 0);
  EXPECT_NO_THROW(make_camera(o, b, 640, 480));
}
