// The one check of every camera value (engine/render/camera_values.h): what it accepts and what
// it refuses, in the words every entry point (command line, defaults file, cameras file, viewer,
// Python) repeats after the value's name.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <limits>

#include "engine/render/camera_values.h"

namespace facet {
namespace {

const double kNan = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

bool refused(const std::string& problem) { return !problem.empty(); }

TEST(CameraValues, NumbersThatAreNotFiniteOrBeyondSinglePrecisionAreRefusedByEveryScalarCheck) {
  for (auto check : {fov_y_problem, focal_px_problem, ortho_height_problem, near_problem, far_problem}) {
    for (double v : {kNan, kInf, -kInf, 1e39, -1e39, (double)FLT_MAX * 1.0001}) EXPECT_TRUE(refused(check(v))) << v;
  }
  EXPECT_NE(focal_px_problem(1e39).find("beyond single precision"), std::string::npos);
  EXPECT_NE(fov_y_problem(kNan).find("got nan"), std::string::npos);
  EXPECT_NE(near_problem(-kInf).find("got -inf"), std::string::npos);
}

TEST(CameraValues, TheFieldOfViewSpansTheCommandLinesRange) {
  for (double ok : {0.01, 1.0, 45.0, 179.0}) EXPECT_EQ(fov_y_problem(ok), "") << ok;
  for (double bad : {0.0, 0.009, 179.001, 180.0, -45.0}) EXPECT_TRUE(refused(fov_y_problem(bad))) << bad;
  EXPECT_NE(fov_y_problem(200).find("0.01 to 179"), std::string::npos);
}

TEST(CameraValues, LengthsMustBePositiveExceptTheNearPlaneAlone) {
  EXPECT_EQ(focal_px_problem(800), "");
  EXPECT_TRUE(refused(focal_px_problem(0)));
  EXPECT_TRUE(refused(ortho_height_problem(-1)));
  EXPECT_EQ(near_problem(-1), "") << "an orthographic near plane may lie behind the eye";
  EXPECT_TRUE(refused(far_problem(0)));
}

TEST(CameraValues, NearAndFarAreCheckedTogether) {
  EXPECT_EQ(near_far_problem(0.1, 10, false), "");
  EXPECT_TRUE(refused(near_far_problem(5, 1, false)));
  EXPECT_TRUE(refused(near_far_problem(2, 2, true)));
  EXPECT_TRUE(refused(near_far_problem(-1, 10, false)));
  EXPECT_EQ(near_far_problem(-1, 10, true), "");
  EXPECT_NE(near_far_problem(5, 1, false).find("the far plane (1) must be beyond the near plane (5)"),
            std::string::npos);
}

TEST(CameraValues, AZeroUpIsCalledZeroAndAnUpAlongTheViewParallel) {
  const glm::vec3 eye(0, 0, 3), target(0, 0, 0);
  const std::string zero = up_problem({0, 0, 0}, eye, target);
  EXPECT_NE(zero.find("zero"), std::string::npos) << zero;
  EXPECT_EQ(zero.find("parallel"), std::string::npos) << zero;
  EXPECT_EQ(direction_problem({0, 0, 0}), zero);
  const std::string along = up_problem({0, 0, -2}, eye, target);
  EXPECT_NE(along.find("parallel"), std::string::npos) << along;
  EXPECT_EQ(up_problem({0, 1, 0}, eye, target), "");
  EXPECT_EQ(up_problem({1e30f, 1e30f, 0}, eye, target), "") << "huge but finite: no overflow in the length";
}

TEST(CameraValues, PointsMustBeFiniteAndDistinct) {
  EXPECT_EQ(point_problem({1, 2, 3}), "");
  EXPECT_TRUE(refused(point_problem({kNan, 0, 0})));
  EXPECT_TRUE(refused(point_problem({0, 1e39, 0})));
  EXPECT_TRUE(refused(look_problem({1, 2, 3}, {1, 2, 3})));
  EXPECT_EQ(look_problem({1, 2, 3}, {1, 2, 4}), "");
}

TEST(CameraValues, AFocalLengthMustGiveAFieldOfViewInRangeForTheFrameHeight) {
  EXPECT_EQ(focal_fov_problem(500, 1080), "");
  EXPECT_TRUE(refused(focal_fov_problem(1e-30, 32)));  // 180 degrees
  EXPECT_TRUE(refused(focal_fov_problem(3e38, 32)));   // far below 0.01 degrees
  EXPECT_NE(focal_fov_problem(1e-30, 32).find("180 degrees"), std::string::npos);
}

TEST(CameraValues, TheWholeCameraIsCheckedAsTheRendererReceivesIt) {
  Camera c;
  EXPECT_EQ(camera_problem(c), "");
  c.fov_y = glm::radians(179.0f);
  EXPECT_EQ(camera_problem(c), "") << "179 degrees survives the round trip through float radians";
  c.fov_y = std::nanf("");
  EXPECT_NE(camera_problem(c).find("fov_y"), std::string::npos);
  c = Camera{};
  c.far_plane = c.near_plane;
  EXPECT_TRUE(refused(camera_problem(c)));
  c = Camera{};
  c.up = {0, 0, 0};
  EXPECT_NE(camera_problem(c).find("zero"), std::string::npos);
  c = Camera{};
  c.projection_mode = Projection::Orthographic;
  c.near_plane = -5;
  EXPECT_EQ(camera_problem(c), "");
  c.ortho_height = std::numeric_limits<float>::infinity();
  EXPECT_NE(camera_problem(c).find("ortho_height"), std::string::npos);
}

TEST(CameraValues, NumbersAreReadWholeAndWrittenAsTyped) {
  EXPECT_EQ(parse_number("1.5"), 1.5);
  EXPECT_EQ(parse_number("-2e3"), -2000.0);
  EXPECT_TRUE(std::isnan(*parse_number("nan")));
  EXPECT_TRUE(std::isinf(*parse_number("inf")));
  EXPECT_TRUE(std::isinf(*parse_number("1e999")));
  for (const char* bad : {"", " 1", "1 ", "1,2", "abc", "1.5x"}) EXPECT_FALSE(parse_number(bad)) << bad;
  EXPECT_EQ(number_text(kNan), "nan");
  EXPECT_EQ(number_text(-kInf), "-inf");
  EXPECT_EQ(number_text(1e39), "1e+39");
  EXPECT_EQ(number_text(0.25), "0.25");
}

}  // namespace
}  // namespace facet
