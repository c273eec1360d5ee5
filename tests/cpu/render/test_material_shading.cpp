// Lit shading of the MTL material terms (kernels/frame/resolve/shade.h shade_material): the Blinn-Phong
// highlight under the headlight sits where the half-vector predicts, emission is added unlit,
// vertex colours multiply Kd, and the plain-lit fast path is chosen only for plain scenes.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "engine/render/cpu_renderer.h"
#include "engine/scene/generate.h"
#include "engine/scene/scene.h"
#include "kernels/frame/resolve/shade.h"
#include "tests/support/srgb_reference.h"
#include "tests/support/test_scenes.h"

using namespace facet;

namespace {

std::vector<Rgba8> render(const Scene& s, const FrameParams& fp) {
  CpuRenderer r;
  r.set_scene(std::make_shared<Scene>(s));
  r.render(fp);
  std::vector<Rgba8> out;
  r.read_rgba(out);
  return out;
}

// Window position (pixel units, centres at integers) of world point p.
Vec2 window_of(const FrameParams& fp, Vec3 p) {
  const Vec4 c = mul_point(fp.view_proj, p);
  return {(c.x / c.w + 1.0f) * 0.5f * (float)fp.width - 0.5f, (1.0f - c.y / c.w) * 0.5f * (float)fp.height - 0.5f};
}

// The pixel with the largest r + g + b (the first of equals).
Vec2 brightest(const std::vector<Rgba8>& rgba, int width) {
  size_t best = 0;
  int best_sum = -1;
  for (size_t i = 0; i < rgba.size(); ++i) {
    const int sum = rgba[i].r + rgba[i].g + rgba[i].b;
    if (sum > best_sum) {
      best_sum = sum;
      best = i;
    }
  }
  return {(float)(best % (size_t)width), (float)(best / (size_t)width)};
}

}  // namespace

TEST(Specular, HighlightOnAPlaneSitsAtTheFootOfThePerpendicularFromTheEye) {
  // The quad z = 0, [-1, 1]^2, normal +Z. With the light at the eye the half-vector is the view
  // direction, so n . h peaks where the view direction is the normal: below the eye.
  Scene s = make_quad();
  s.materials[0].kd = {0.05f, 0.05f, 0.05f};
  s.materials[0].ks = {0.5f, 0.5f, 0.5f};
  s.materials[0].ns = 200;
  const Vec3 eye{0.35f, -0.25f, 2.0f};
  const Camera cam = test::look_at({eye.x, eye.y, eye.z}, {0, 0, 0}, 60.0f, 0.1f, 10.0f);
  const FrameParams fp = test::frame_params(s, cam, 160, 120);
  const Vec2 expected = window_of(fp, {eye.x, eye.y, 0.0f});
  const Vec2 found = brightest(render(s, fp), fp.width);
  // Not at the frame's centre (the camera looks at the origin), so the test tells them apart.
  ASSERT_GT(std::hypot(expected.x - 79.5f, expected.y - 59.5f), 10.0f);
  EXPECT_NEAR(found.x, expected.x, 1.0f);
  EXPECT_NEAR(found.y, expected.y, 1.0f);
}

TEST(Specular, HighlightOnASphereSitsOnTheLineFromTheEyeToItsCentre) {
  Scene s = make_sphere(80000);
  s.materials[0].kd = {0.05f, 0.05f, 0.05f};
  s.materials[0].ks = {0.6f, 0.6f, 0.6f};
  s.materials[0].ns = 300;
  const Vec3 eye{1.2f, 0.9f, 2.6f};
  const Camera cam = test::look_at({eye.x, eye.y, eye.z}, {0.4f, -0.3f, 0.0f}, 50.0f, 0.1f, 10.0f);
  const FrameParams fp = test::frame_params(s, cam, 200, 150);
  const float len = std::sqrt(eye.x * eye.x + eye.y * eye.y + eye.z * eye.z);
  const Vec2 expected = window_of(fp, {eye.x / len, eye.y / len, eye.z / len});
  const Vec2 found = brightest(render(s, fp), fp.width);
  ASSERT_GT(std::hypot(expected.x - 99.5f, expected.y - 74.5f), 10.0f);
  EXPECT_NEAR(found.x, expected.x, 1.5f);
  EXPECT_NEAR(found.y, expected.y, 1.5f);
}

TEST(Specular, ExponentIsRaisedExactlyAsAWholePower) {
  EXPECT_EQ(pow_whole(0.5f, 10), 0.5f * 0.5f * 0.5f * 0.5f * 0.5f * 0.5f * 0.5f * 0.5f * 0.5f * 0.5f);
  EXPECT_EQ(pow_whole(0.9f, 0), 1.0f);
  EXPECT_NEAR(pow_whole(0.99f, 1000), std::pow(0.99, 1000), 1e-7);
}

TEST(Emission, IsAddedWithoutLight) {
  // A black surface that glows shows its emission whatever the light does.
  Scene s = make_quad();
  s.materials[0].kd = {0, 0, 0};
  s.materials[0].ke = {0.2f, 0.0f, 0.5f};
  const Camera cam = test::look_at({0.9f, 0.2f, 1.0f}, {0, 0, 0}, 60.0f, 0.1f, 10.0f);
  const FrameParams fp = test::frame_params(s, cam, 64, 48);
  const std::vector<Rgba8> rgba = render(s, fp);
  const Rgba8 c = rgba[(size_t)24 * 64 + 32];
  EXPECT_EQ(c.r, test::srgb_code(0.2));
  EXPECT_EQ(c.g, 0);
  EXPECT_EQ(c.b, test::srgb_code(0.5));
}

TEST(VertexColours, MultiplyKdInLinearLight) {
  Scene s = make_quad();
  s.colors.assign(4, Rgba8{128, 64, 255, 255});
  s.materials[0].kd = {0.5f, 1.0f, 1.0f};
  const Camera cam = test::look_at({0, 0, 3}, {0, 0, 0}, 45.0f, 0.1f, 10.0f);
  RenderOptions texture_only;
  texture_only.shading = Shading::Texture;  // albedo without light
  const FrameParams fp = test::frame_params(s, cam, 32, 32, texture_only);
  const Rgba8 c = render(s, fp)[(size_t)16 * 32 + 16];
  EXPECT_EQ(c.r, test::srgb_code(0.5 * test::code_to_linear(128)));
  EXPECT_EQ(c.g, 64);
  EXPECT_EQ(c.b, 255);
}

TEST(PlainLit, SceneIsPlainOnlyWithoutTexturesSpecularEmissionAmbientOrColours) {
  Scene s = make_sphere(200);
  EXPECT_TRUE(plain_lit_scene(s));
  Scene t = s;
  t.materials[0].ks = {0.1f, 0, 0};
  EXPECT_FALSE(plain_lit_scene(t));
  t = s;
  t.materials[0].ke = {0, 0, 0.1f};
  EXPECT_FALSE(plain_lit_scene(t));
  t = s;
  t.materials[0].ka = {0.5f, 0.5f, 0.5f};
  EXPECT_FALSE(plain_lit_scene(t));
  t = s;
  t.colors.assign(t.vertex_count(), Rgba8{1, 2, 3, 255});
  EXPECT_FALSE(plain_lit_scene(t));
  t = s;
  t.materials[0].alpha = 0.2f;  // cut-outs are the raster's business, not the shading's
  EXPECT_TRUE(plain_lit_scene(t));
}
