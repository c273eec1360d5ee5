// Perspective-correct barycentrics: right at any scale of clip coordinates.
#include <gtest/gtest.h>

#include "kernels/frame/resolve/interp.h"

using namespace facet;

namespace {
Vec4 scaled(Vec4 c, float s) { return {c.x * s, c.y * s, c.z * s, c.w * s}; }
}  // namespace

TEST(Barycentrics, SumToOneAndInterpolateTheVerticesAtTheirPixels) {
  // A triangle whose vertices project onto pixel centres of a 100x100 frame.
  auto at = [](float px, float py, float w) {
    Vec2 n = pixel_ndc(px, py, 100, 100);
    return Vec4{n.x * w, n.y * w, 0.0f, w};
  };
  Vec4 c0 = at(10, 10, 1.0f), c1 = at(80, 20, 3.0f), c2 = at(30, 90, 0.5f);
  Barycentrics b = barycentrics_at(c0, c1, c2, 80, 20, 100, 100);
  EXPECT_NEAR(b.b[1], 1.0f, 1e-5f);
  EXPECT_NEAR(b.b[0] + b.b[1] + b.b[2], 1.0f, 1e-6f);
  Barycentrics m = barycentrics_at(c0, c1, c2, 40, 40, 100, 100);
  EXPECT_NEAR(m.b[0] + m.b[1] + m.b[2], 1.0f, 1e-6f);
  for (float w : m.b) EXPECT_GT(w, 0.0f);
}

TEST(Barycentrics, AreTheSameForClipCoordinatesScaledFrom1eMinus30To1e30) {
  Vec4 c0{-0.4f, -0.3f, 0.1f, 1.0f}, c1{0.7f, -0.2f, 0.2f, 2.0f}, c2{0.1f, 0.6f, 0.3f, 1.5f};
  Barycentrics ref = barycentrics_at(c0, c1, c2, 60, 50, 128, 128);
  for (float s : {1e-30f, 1e-12f, 1e12f, 1e19f, 1e25f, 1e30f}) {
    Barycentrics b = barycentrics_at(scaled(c0, s), scaled(c1, s), scaled(c2, s), 60, 50, 128, 128);
    for (int i = 0; i < 3; ++i) {
      EXPECT_NEAR(b.b[i], ref.b[i], 1e-5f) << "scale " << s << " weight " << i;
      EXPECT_NEAR(b.ddx[i], ref.ddx[i], 1e-5f) << "scale " << s;
    }
  }
  // Within 2^-30..2^30 the scaling is not applied: exactly the same floats as before.
  Barycentrics same = barycentrics_at(scaled(c0, 4.0f), scaled(c1, 4.0f), scaled(c2, 4.0f), 60, 50, 128, 128);
  EXPECT_EQ(homogeneous_scale(scaled(c0, 4.0f), c1, c2), 1.0f);
  EXPECT_NEAR(same.b[0], ref.b[0], 1e-6f);
}
