// Resolve's reads of a covered pixel's triangle: a model with one material carries no
// per-triangle material array on the device, and shading must not notice.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/scene/generate.h"
#include "engine/scene/scene.h"
#include "kernels/frame/resolve/shade.h"
#include "tests/support/image_compare.h"
#include "tests/support/test_scenes.h"

using namespace facet;

TEST(SingleMaterial, IsFoundOnlyWhenEveryTriangleSharesIt) {
  Scene s = make_sphere(200);
  EXPECT_EQ(s.single_material(), 0);
  s.materials.push_back({{1.0f, 0.0f, 0.0f}, -1});
  for (uint32_t& m : s.tri_material) m = 1;
  EXPECT_EQ(s.single_material(), 1);
  s.tri_material.back() = 0;
  EXPECT_EQ(s.single_material(), -1);
  EXPECT_EQ(Scene{}.single_material(), -1);
}

TEST(SingleMaterial, ShadesAsThePerTriangleArrayWould) {
  // Every triangle uses material 1 (red); material 0 is grey, so reading the wrong one shows.
  Scene s = make_sphere(200);
  s.materials.push_back({{1.0f, 0.0f, 0.0f}, -1});
  for (uint32_t& m : s.tri_material) m = 1;
  const std::vector<ShadeVertex> shade = interleave_shade_vertices(s);
  const SceneView with_array = s.view(shade.data());
  SceneView without = with_array;
  without.tri_material = nullptr;
  without.single_material = 1;
  SceneView wrong = without;
  wrong.single_material = 0;

  const Camera cam = test::look_at({0, 0, 3}, {0, 0, 0}, 45.0f, 0.1f, 10.0f);
  const FrameParams fp = test::frame_params(s, cam, 64, 64);
  int compared = 0;
  for (uint32_t tri = 0; tri < s.triangle_count(); tri += 7) {
    const uint64_t key = tag_key(vis_key(0.5f, tri), fp.vis_tag);
    const Rgba8 a = shade_pixel(with_array, fp, 32, 32, key), b = shade_pixel(without, fp, 32, 32, key);
    EXPECT_EQ(a.r, b.r) << "triangle " << tri;
    EXPECT_EQ(a.g, b.g) << "triangle " << tri;
    EXPECT_EQ(a.b, b.b) << "triangle " << tri;
    const Rgba8 c = shade_pixel(wrong, fp, 32, 32, key);
    compared += c.r != a.r || c.g != a.g || c.b != a.b;
  }
  EXPECT_GT(compared, 0) << "material 0 and 1 shade alike: the test could not tell them apart";
}

TEST(PlainLit, IsChosenOnlyForLitFramesWithoutTextureOrWireframe) {
  FrameParams fp{};
  fp.shading = Shading::Lit;
  EXPECT_TRUE(plain_lit_frame(fp, false));
  EXPECT_FALSE(plain_lit_frame(fp, true)) << "a textured scene samples its texture under lit";
  fp.wireframe = true;
  EXPECT_FALSE(plain_lit_frame(fp, false));
  fp.wireframe = false;
  for (Shading m : {Shading::Texture, Shading::Normals, Shading::Depth}) {
    fp.shading = m;
    EXPECT_FALSE(plain_lit_frame(fp, false)) << (int)m;
  }
}

TEST(PlainLit, ShadesBitForBitAsTheGeneralPath) {
  // Two materials, so that the material index matters too.
  Scene s = make_sphere(2000);
  s.materials.push_back({{0.9f, 0.3f, 0.1f}, -1});
  for (size_t t = 0; t < s.tri_material.size(); t += 3) s.tri_material[t] = 1;
  const std::vector<ShadeVertex> shade = interleave_shade_vertices(s);
  const SceneView view = s.view(shade.data());
  const Camera cam = test::look_at({0.4f, 0.7f, 2.5f}, {0, 0, 0}, 50.0f, 0.1f, 10.0f);
  FrameParams fp = test::frame_params(s, cam, 97, 61);
  fp.shading = Shading::Lit;
  ASSERT_TRUE(plain_lit_frame(fp, false));
  std::vector<uint32_t> colours;
  for (uint32_t tri = 0; tri < s.triangle_count(); tri += 5) {
    const PixelTriangle t = pixel_triangle(view, fp, tri);
    for (int py = 0; py < fp.height; py += 6)
      for (int px = 0; px < fp.width; px += 6) {
        const Rgba8 a = encode_color(shade_plain_lit_pixel(view, fp, px, py, t)),
                    b = encode_color(shade_covered_pixel(view, fp, px, py, t));
        ASSERT_EQ(test::rgba_text(a), test::rgba_text(b)) << "triangle " << tri << " pixel " << px << "," << py;
        colours.push_back((uint32_t)a.r | (uint32_t)a.g << 8 | (uint32_t)a.b << 16);
      }
  }
  std::sort(colours.begin(), colours.end());
  EXPECT_GT(std::unique(colours.begin(), colours.end()) - colours.begin(), 100)
      << "too few colours to tell paths apart";
}
