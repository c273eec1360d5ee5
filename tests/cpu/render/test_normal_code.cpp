// The 32-bit normal code (kernels/frame/resolve/normal_code.h): decoding gives a vector within the stated
// length of unit and angle of the normal encoded, encoding what was decoded gives the same code back (what keeps the
// device's normals, coded from the decoded ones it is sent, equal to the CPU backend's), and zero
// or non-finite normals stay zero (unlit), as they were before any coding.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "kernels/frame/resolve/normal_code.h"

using namespace facet;

namespace {

double angle(Vec3 a, Vec3 b) {
  const double d = (double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z;
  const double la = std::sqrt((double)a.x * a.x + (double)a.y * a.y + (double)a.z * a.z);
  const double lb = std::sqrt((double)b.x * b.x + (double)b.y * b.y + (double)b.z * b.z);
  return std::acos(std::fmin(1.0, std::fabs(d / (la * lb))) * (d < 0 ? -1.0 : 1.0));
}

// Every axis, diagonal and fold edge, with both signs of zero.
std::vector<Vec3> special_normals() {
  std::vector<Vec3> out;
  const float v[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 1e-30f, -1e-30f};
  for (float x : v)
    for (float y : v)
      for (float z : v)
        if (std::fabs(x) + std::fabs(y) + std::fabs(z) > 0.0f) out.push_back({x, y, z});
  return out;
}

}  // namespace

TEST(NormalCode, DecodesWithinTheStatedAngleOfTheNormal) {
  std::mt19937 rng(5);
  std::normal_distribution<float> g;
  double worst = 0, worst_length = 0;
  std::vector<Vec3> normals = special_normals();
  for (int i = 0; i < 2000000; ++i) normals.push_back({g(rng), g(rng), g(rng)});
  for (const Vec3& n : normals) {
    const Vec3 d = quantize_normal(n);
    const double length = std::sqrt((double)d.x * d.x + (double)d.y * d.y + (double)d.z * d.z);
    worst_length = std::fmax(worst_length, std::fabs(length - 1.0));
    worst = std::fmax(worst, angle(n, d));
  }
  EXPECT_LT(worst_length, 3e-5);
  EXPECT_LT(worst, 1e-4) << "radians";
  EXPECT_GT(worst, 1e-6) << "no rounding at all: the test cannot tell a code from the floats";
}

// For every code the encoder gives (random normals, the special ones, normals on and next to
// the fold's edges and the axes): a code of the square's edge decodes to a normal with a zero
// coordinate, which the encoder files under its positive side, so codes it never gives need not
// round-trip.
TEST(NormalCode, EncodingTheDecodedNormalGivesTheSameCode) {
  std::mt19937 rng(9);
  std::normal_distribution<float> g;
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  size_t differ = 0, tried = 0;
  auto check = [&](Vec3 n) {
    const uint32_t code = encode_normal(n);
    ++tried;
    differ += encode_normal(decode_normal(code)) != code;
  };
  for (int i = 0; i < 3000000; ++i) check({g(rng), g(rng), g(rng)});
  for (int i = 0; i < 1000000; ++i) {
    const float a = u(rng), t = 1.0f - std::fabs(a), tiny = (float)(rng() % 5) * 1e-7f;
    check({a, t, tiny});  // the equator, from either side
    check({a, t, -tiny});
    check({a, 0.0f, -std::fabs(u(rng))});  // a zero coordinate in the folded half
    check({-0.0f, a, -std::fabs(u(rng))});
  }
  for (const Vec3& n : special_normals()) check(n);
  EXPECT_EQ(differ, 0u) << "of " << tried;
}

TEST(NormalCode, ZeroAndNonFiniteNormalsStayZero) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  for (Vec3 n : {Vec3{0, 0, 0}, Vec3{-0.0f, 0, -0.0f}, Vec3{nan, 0, 1}, Vec3{inf, 0, 0}, Vec3{1, -inf, 0},
                 Vec3{3e38f, 3e38f, 3e38f}}) {
    EXPECT_EQ(encode_normal(n), kNoNormalCode) << n.x << " " << n.y << " " << n.z;
    const Vec3 d = quantize_normal(n);
    EXPECT_TRUE(d.x == 0.0f && d.y == 0.0f && d.z == 0.0f);
  }
  // A finite normal never codes as the zero one.
  EXPECT_NE(encode_normal({1e-38f, 0, 0}), kNoNormalCode);
}
