// The colour pipeline (kernels/frame/resolve/srgb.h, shade.h, texture.h): sRGB texels and colours decoded to
// linear light, filtered and lit there, and encoded back to sRGB bytes once, at the output.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "engine/render/cpu_renderer.h"
#include "engine/scene/generate.h"
#include "engine/scene/scene.h"
#include "kernels/frame/resolve/shade.h"
#include "tests/support/srgb_reference.h"
#include "tests/support/test_scenes.h"

using namespace facet;

TEST(Srgb, DecodeTableIsTheTransferFunctionRoundedToFloat) {
  for (int k = 0; k < 256; ++k)
    EXPECT_EQ(srgb_to_linear((uint8_t)k), (float)test::srgb_eotf(k / 255.0)) << "code " << k;
}

TEST(Srgb, EveryCodeSurvivesDecodeThenEncode) {
  for (int k = 0; k < 256; ++k) EXPECT_EQ(srgb_encode8(srgb_to_linear((uint8_t)k)), k) << "code " << k;
}

TEST(Srgb, EncodeRoundsToTheNearestCode) {
  // A sweep of linear values, with the ties (exactly halfway in sRGB) left out.
  int compared = 0;
  for (int i = 0; i <= 20000; ++i) {
    const double l = i / 20000.0;
    const double s = test::srgb_oetf(l) * 255.0;
    if (std::fabs(s - std::floor(s) - 0.5) < 1e-4) continue;
    ASSERT_EQ(srgb_encode8((float)l), test::srgb_code((float)l)) << "linear " << l;
    ++compared;
  }
  EXPECT_GT(compared, 19000);
}

// srgb_encode8 guesses and then corrects: it must equal the plain count of thresholds at or below
// the value everywhere, above all at the thresholds themselves and the floats beside them.
TEST(Srgb, EncodeEqualsTheCountOfThresholdsAtOrBelowEverywhere) {
  auto count = [](float c) {
    int k = 0;
    while (k < 255 && c >= srgb_threshold_table((uint32_t)k)) ++k;
    return k;
  };
  std::vector<float> values;
  for (int k = 0; k < 255; ++k) {
    const float t = srgb_threshold_table((uint32_t)k);
    float below = t, above = t;
    for (int step = 0; step < 4; ++step) {
      below = std::nextafter(below, 0.0f);
      above = std::nextafter(above, 2.0f);
      values.insert(values.end(), {below, above});
    }
    values.push_back(t);
  }
  for (int i = 0; i <= 1 << 20; ++i) values.push_back((float)i / (float)(1 << 20));
  for (float v = 1e-7f; v < 1.0f; v *= 1.0001f) values.push_back(v);  // the dark end, densely
  for (float c : values) ASSERT_EQ(srgb_encode8(c), count(c)) << "linear " << c;
}

TEST(Srgb, EncodeClampsOutOfRangeAndNan) {
  EXPECT_EQ(srgb_encode8(-1.0f), 0);
  EXPECT_EQ(srgb_encode8(1.5f), 255);
  EXPECT_EQ(srgb_encode8(std::numeric_limits<float>::infinity()), 255);
  EXPECT_EQ(srgb_encode8(std::numeric_limits<float>::quiet_NaN()), 0);
}

TEST(Srgb, HalfwayInLinearLightIsCode188NotCode128) {
  // Black and white averaged as light: half the light is sRGB 0.735.
  EXPECT_EQ(encode_color({0.5f, 0.5f, 0.5f}).r, 188);
}

TEST(Srgb, BackgroundColourEncodesBackToTheBackgroundBytes) {
  FrameParams fp{};
  for (int k = 0; k < 256; ++k) {
    fp.background = {(uint8_t)k, (uint8_t)(255 - k), (uint8_t)(k / 2), 255};
    const Rgba8 c = encode_color(background_color(fp));
    ASSERT_EQ(c.r, fp.background.r);
    ASSERT_EQ(c.g, fp.background.g);
    ASSERT_EQ(c.b, fp.background.b);
  }
}

TEST(Srgb, NormalAndDepthValuesAreWrittenAsBytesNotEncoded) {
  for (int i = 0; i <= 1000; ++i) {
    const float v = i / 1000.0f;
    ASSERT_EQ(encode_color(data_color({v, v, v})).r, (uint8_t)(v * 255.0f + 0.5f)) << v;
  }
}

namespace {

// A 256 x 4 texture: every sRGB code once per row, red rising left to right, green falling,
// blue the row's code, alpha varying too.
Scene gradient_quad() {
  std::vector<Rgba8> image(256 * 4);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 256; ++x)
      image[(size_t)y * 256 + x] = {(uint8_t)x, (uint8_t)(255 - x), (uint8_t)(60 * y), (uint8_t)(x ^ 0x5a)};
  return make_quad(image, 256, 4);
}

}  // namespace

TEST(SrgbTexture, GradientSurvivesDecodeSampleNearestAndEncode) {
  const Scene s = gradient_quad();
  const TextureDesc& d = s.textures[0];
  for (Filter f : {Filter::Nearest, Filter::Bilinear}) {
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 256; ++x) {
        // The centre of texel (x, y); v = 0 is the bottom row.
        const Vec2 uv{(x + 0.5f) / 256.0f, 1.0f - (y + 0.5f) / 4.0f};
        const Vec4 c = sample_texture(s.texels.data(), d, uv, {0, 0}, {0, 0}, f, true);
        const Rgba8 out = encode_color({c.x, c.y, c.z});
        const Rgba8 in = s.texels[(size_t)y * 256 + x];
        ASSERT_EQ(out.r, in.r) << x << "," << y << " filter " << (int)f;
        ASSERT_EQ(out.g, in.g) << x << "," << y;
        ASSERT_EQ(out.b, in.b) << x << "," << y;
        ASSERT_EQ(to_unorm8(c.w), in.a) << "alpha is linear, " << x << "," << y;
      }
  }
}

TEST(SrgbTexture, BilinearFiltersDecodedTexelsInLinearLight) {
  // Black and white texels side by side, sampled halfway between their centres.
  Scene s = make_quad({{0, 0, 0, 255}, {255, 255, 255, 255}}, 2, 1);
  const Vec4 c = sample_texture(s.texels.data(), s.textures[0], {0.5f, 0.5f}, {0, 0}, {0, 0}, Filter::Bilinear, true);
  EXPECT_FLOAT_EQ(c.x, 0.5f);
  EXPECT_EQ(encode_color({c.x, c.y, c.z}).r, 188);
}

TEST(SrgbRender, DefaultGreyFacingTheEyeShowsItsSrgbValue) {
  // A quad facing the camera head-on, no texture: the default grey (sRGB 0.8) lit fully.
  Scene s = make_quad({}, 0, 0);
  s.materials[0].kd = {0.603827f, 0.603827f, 0.603827f};
  const std::vector<ShadeVertex> shade = interleave_shade_vertices(s);
  const SceneView view = s.view(shade.data());
  const Camera cam = test::look_at({0, 0, 3}, {0, 0, 0}, 45.0f, 0.1f, 10.0f);
  const FrameParams fp = test::frame_params(s, cam, 65, 65);
  const PixelTriangle t = pixel_triangle(view, fp, 0);
  // The pixel on the axis from the eye: the cosine is 1.
  EXPECT_EQ(encode_color(shade_covered_pixel(view, fp, 32, 32, t)).r, 204);
}

TEST(SrgbRender, AGradientTextureFillingTheFrameRendersBackItsTexelBytes) {
  // 16 x 16 texels holding every sRGB code once per channel order; the quad [-1, 1]^2 seen head-on
  // fills a 16 x 16 frame exactly (tan(fov / 2) = 1 / distance), one texel per pixel.
  std::vector<Rgba8> image(256);
  for (int i = 0; i < 256; ++i) image[(size_t)i] = {(uint8_t)i, (uint8_t)(255 - i), (uint8_t)((i * 7) & 255), 255};
  const Scene s = make_quad(image, 16, 16);
  const float distance = 1.0f / std::tan(0.5f * 45.0f * 3.14159265f / 180.0f);
  const Camera cam = test::look_at({0, 0, distance}, {0, 0, 0}, 45.0f, 0.1f, 10.0f);
  RenderOptions rs;
  rs.shading = Shading::Texture;
  rs.filter = Filter::Nearest;
  CpuRenderer r;
  r.set_scene(std::make_shared<Scene>(s));
  r.render(test::frame_params(s, cam, 16, 16, rs));
  std::vector<Rgba8> out;
  r.read_rgba(out);
  ASSERT_EQ(out.size(), 256u);
  for (size_t i = 0; i < 256; ++i) {
    ASSERT_EQ(out[i].r, image[i].r) << "pixel " << i;
    ASSERT_EQ(out[i].g, image[i].g) << "pixel " << i;
    ASSERT_EQ(out[i].b, image[i].b) << "pixel " << i;
  }
}
