// Vertex projection and window mapping against a float64 reference.
#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <random>

#include "engine/render/renderer.h"
#include "kernels/frame/geometry/project.h"

using namespace facet;

namespace {
Mat4 to_mat4(const glm::mat4& m) {
  Mat4 r;
  const float* p = glm::value_ptr(m);
  for (int i = 0; i < 16; ++i) r.m[i] = p[i];
  return r;
}
}  // namespace

TEST(Projection, MatchesFloat64ReferenceOnRandomPointsAndCameras) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-10.0f, 10.0f);
  for (int cam = 0; cam < 20; ++cam) {
    glm::vec3 eye{u(rng), u(rng), u(rng)}, target{u(rng) * 0.1f, u(rng) * 0.1f, u(rng) * 0.1f};
    glm::mat4 vp =
        glm::perspective(glm::radians(50.0f), 1.5f, 0.1f, 100.0f) * glm::lookAt(eye, target, glm::vec3(0, 1, 0));
    glm::dmat4 vpd(vp);
    Mat4 m = to_mat4(vp);
    for (int i = 0; i < 200; ++i) {
      Vec3 p{u(rng), u(rng), u(rng)};
      Vec4 c = project_vertex(m, p);
      glm::dvec4 r = vpd * glm::dvec4(p.x, p.y, p.z, 1.0);
      double scale = glm::length(r) + 1.0;
      EXPECT_NEAR(c.x, r.x, 1e-5 * scale);
      EXPECT_NEAR(c.y, r.y, 1e-5 * scale);
      EXPECT_NEAR(c.z, r.z, 1e-5 * scale);
      EXPECT_NEAR(c.w, r.w, 1e-5 * scale);
    }
  }
}

TEST(Projection, WindowMappingPutsNdcCornersOnFrameCornersWithRowZeroAtTop) {
  Vec2 tl = clip_to_window({-1, 1, 0, 1}, 640, 480);
  Vec2 br = clip_to_window({2, -2, 0, 2}, 640, 480);  // same point as (1,-1) after the divide
  EXPECT_FLOAT_EQ(tl.x, 0.0f);
  EXPECT_FLOAT_EQ(tl.y, 0.0f);
  EXPECT_FLOAT_EQ(br.x, 640.0f);
  EXPECT_FLOAT_EQ(br.y, 480.0f);
  EXPECT_FLOAT_EQ(clip_to_depth({0, 0, -1, 1}), 0.0f);
  EXPECT_FLOAT_EQ(clip_to_depth({0, 0, 1, 1}), 1.0f);
}

TEST(Projection, SnapRoundsToNearestSubpixelTiesToEven) {
  EXPECT_EQ(snap(1.0f), 256);
  EXPECT_EQ(snap(1.0f + 1.0f / 512.0f), 256);  // exactly half a step: to even
  EXPECT_EQ(snap(1.0f + 3.0f / 512.0f), 258);  // 1.5 steps: to even (2)
  EXPECT_EQ(snap(-0.3f / 256.0f), 0);
  EXPECT_EQ(snap(-0.7f / 256.0f), -1);
}

TEST(Projection, SnappedPointIsTheStepByStepMappingBitForBit) {
  // Points across the guard band and the depth range, with w over many binades, in frames of
  // odd and even sizes: the folded form must give exactly the snapped window mapping.
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> ndc(-3.0f, 3.0f), depth(-1.0f, 1.0f), e(-20.0f, 30.0f);
  const int sizes[][2] = {{1, 1}, {640, 480}, {1920, 1080}, {3840, 2160}, {1023, 777}};
  for (auto [w, h] : sizes) {
    for (int i = 0; i < 20000; ++i) {
      float cw = std::exp2(e(rng));
      Vec4 c{ndc(rng) * cw, ndc(rng) * cw, depth(rng) * cw, cw};
      SnappedPoint s = snap_clip_point(c, w, h);
      Vec2 win = clip_to_window(c, w, h);
      ASSERT_EQ(s.x, snap(win.x)) << w << "x" << h << " w=" << cw;
      ASSERT_EQ(s.y, snap(win.y)) << w << "x" << h << " w=" << cw;
      ASSERT_EQ(s.z, clip_to_depth(c)) << w << "x" << h << " w=" << cw;
    }
  }
}

TEST(Camera, FocalLengthAndFieldOfViewAreTheSameNumber) {
  Camera c;
  c.fov_y = glm::radians(60.0f);
  float f = c.focal_px(1080);
  EXPECT_NEAR(f, 540.0 / std::tan(glm::radians(30.0)), 1e-3);
  c.set_focal_px(1000.0f, 1080);
  EXPECT_NEAR(c.focal_px(1080), 1000.0f, 1e-3);
  c.set_focal_35mm(50.0f);
  EXPECT_NEAR(c.focal_35mm(), 50.0f, 1e-4);
}

TEST(Camera, FramingFitsAnyScale) {
  for (float r : {0.001f, 0.1f, 1.0f, 500.0f, 1e5f}) {
    Bounds b;
    b.center = {r, -2 * r, 3 * r};
    b.radius = r;
    Camera c = Camera::framing(b, 16.0f / 9.0f);
    glm::vec3 center{b.center.x, b.center.y, b.center.z};
    float d = glm::length(c.eye - center);
    EXPECT_GT(d, r);                 // outside the sphere
    EXPECT_LT(c.near_plane, d - r);  // the whole sphere is between near and far
    EXPECT_GT(c.far_plane, d + r);
    EXPECT_GT(c.near_plane, 0.0f);
    // The sphere's angular radius fits the vertical half-FOV.
    EXPECT_LT(std::asin(r / d), 0.5f * c.fov_y);
  }
}
