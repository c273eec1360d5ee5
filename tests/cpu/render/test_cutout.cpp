// Alpha-tested cut-outs (kernels/frame/raster/cutout.h): a triangle keeps a sample where its material's alpha
// times its alpha map at the perspective-correct uv is at least 0.5, and loses it below.
#include <gtest/gtest.h>

#include <vector>

#include "engine/scene/generate.h"
#include "engine/scene/scene.h"
#include "kernels/frame/raster/cutout.h"
#include "tests/support/test_scenes.h"

using namespace facet;

namespace {

// The quad [-1, 1]^2 at z = 0 with a 4 x 4 alpha map: opaque where (column + row) is even, alpha
// 0.25 (64) where odd. Texel (i, j) covers u in [i/4, (i+1)/4), v in [1 - (j+1)/4, 1 - j/4).
struct CutoutQuad {
  Scene scene;
  std::vector<ShadeVertex> shade;
  SceneView view;
  CutoutQuad() : scene(make_quad()) {
    std::vector<Rgba8> alpha(16);
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 4; ++i) alpha[(size_t)j * 4 + i] = {255, 255, 255, (uint8_t)((i + j) % 2 ? 64 : 255)};
    scene.materials[0].alpha_texture = add_texture(scene, "alpha", 4, 4, alpha);
    shade = interleave_shade_vertices(scene);
    view = scene.view(shade.data());
  }
  bool opaque_at(float u, float v) const { return ((int)(u * 4) + (int)((1 - v) * 4)) % 2 == 0; }
};

// Window position (pixels, top-left corner at 0) of world point p.
Vec2 window_of(const FrameParams& fp, Vec3 p) {
  const Vec4 c = mul_point(fp.view_proj, p);
  return {(c.x / c.w + 1.0f) * 0.5f * (float)fp.width, (1.0f - c.y / c.w) * 0.5f * (float)fp.height};
}

// The quad's triangle (of two: 0 1 2 and 0 2 3) holding uv (u, v).
uint32_t triangle_at(float u, float v) { return v <= u ? 0u : 1u; }

}  // namespace

TEST(Cutout, HolesWhereTheAlphaMapIsBelowHalfSeenHeadOn) {
  CutoutQuad q;
  const Camera cam = test::look_at({0, 0, 3}, {0, 0, 0}, 45.0f, 0.1f, 10.0f);
  const FrameParams fp = test::frame_params(q.scene, cam, 200, 200);
  int holes = 0, kept = 0;
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 4; ++i) {
      const float u = (i + 0.3f) / 4, v = 1 - (j + 0.6f) / 4;  // inside texel (i, j), off the diagonal
      const Vec2 w = window_of(fp, {2 * u - 1, 2 * v - 1, 0});
      const bool keeps = cutout_keeps(q.view, fp, triangle_at(u, v), w.x, w.y);
      EXPECT_EQ(keeps, q.opaque_at(u, v)) << "texel " << i << "," << j;
      (keeps ? kept : holes) += 1;
    }
  EXPECT_EQ(holes, 8);
  EXPECT_EQ(kept, 8);
}

TEST(Cutout, UvIsPerspectiveCorrectOnASteepQuad) {
  // Seen at a grazing angle, screen-space (affine) interpolation would pick the wrong texels.
  CutoutQuad q;
  const Camera cam = test::look_at({0.2f, -2.2f, 0.9f}, {0, 0.3f, 0}, 60.0f, 0.1f, 10.0f);
  RenderOptions nearest;  // texel by texel: bilinear would blur the borders this test probes
  nearest.filter = Filter::Nearest;
  const FrameParams fp = test::frame_params(q.scene, cam, 320, 240, nearest);
  int compared = 0;
  for (int a = 0; a < 40; ++a)
    for (int b = 0; b < 40; ++b) {
      const float u = (a + 0.5f) / 40, v = (b + 0.5f) / 40;
      // Away from texel borders and the diagonal, where a rounding could go either way.
      const float fu = u * 4 - (int)(u * 4), fv = v * 4 - (int)(v * 4);
      if (fu < 0.1f || fu > 0.9f || fv < 0.1f || fv > 0.9f || std::fabs(u - v) < 0.02f) continue;
      const Vec2 w = window_of(fp, {2 * u - 1, 2 * v - 1, 0});
      ASSERT_EQ(cutout_keeps(q.view, fp, triangle_at(u, v), w.x, w.y), q.opaque_at(u, v)) << u << "," << v;
      ++compared;
    }
  EXPECT_GT(compared, 500);
}

TEST(Cutout, MaterialAlphaAloneCutsOrKeepsEverything) {
  CutoutQuad q;
  q.scene.materials[0].alpha_texture = -1;
  const Camera cam = test::look_at({0, 0, 3}, {0, 0, 0}, 45.0f, 0.1f, 10.0f);
  const FrameParams fp = test::frame_params(q.scene, cam, 64, 64);
  q.scene.materials[0].alpha = 0.49f;
  EXPECT_FALSE(cutout_keeps(q.scene.view(q.shade.data()), fp, 0, 32, 32));
  q.scene.materials[0].alpha = 0.5f;
  EXPECT_TRUE(cutout_keeps(q.scene.view(q.shade.data()), fp, 0, 32, 32));
}

TEST(Cutout, MaterialAlphaScalesTheMap) {
  // 0.6 x 1 keeps; 0.6 x 0.25 cuts; 0.4 x 1 cuts.
  CutoutQuad q;
  const Camera cam = test::look_at({0, 0, 3}, {0, 0, 0}, 45.0f, 0.1f, 10.0f);
  const FrameParams fp = test::frame_params(q.scene, cam, 200, 200);
  const Vec2 opaque = window_of(fp, {2 * 0.1f - 1, 2 * (1 - 0.15f) - 1, 0});  // texel (0, 0)
  const Vec2 faint = window_of(fp, {2 * 0.35f - 1, 2 * (1 - 0.15f) - 1, 0});  // texel (1, 0)
  q.scene.materials[0].alpha = 0.6f;
  SceneView v = q.scene.view(q.shade.data());
  EXPECT_TRUE(cutout_keeps(v, fp, 1, opaque.x, opaque.y));
  EXPECT_FALSE(cutout_keeps(v, fp, 1, faint.x, faint.y));
  q.scene.materials[0].alpha = 0.4f;
  v = q.scene.view(q.shade.data());
  EXPECT_FALSE(cutout_keeps(v, fp, 1, opaque.x, opaque.y));
}

TEST(Cutout, SceneFlagIsSetOnlyWhenSomethingCanBeCut) {
  CutoutQuad q;
  EXPECT_TRUE(q.view.has_cutouts);
  Scene plain = make_quad();
  EXPECT_FALSE(plain.view(nullptr).has_cutouts);
  plain.materials[0].alpha = 0.3f;
  EXPECT_TRUE(plain.view(nullptr).has_cutouts);
  Scene no_uvs = q.scene;
  no_uvs.uvs.clear();  // an alpha map without uvs to sample it is never read
  EXPECT_FALSE(no_uvs.view(nullptr).has_cutouts);
}
