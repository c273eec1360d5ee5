// The OpenGL reference's alpha test against kernels/frame/raster/cutout.h: on a quad with a checkered alpha
// map seen at an angle, GL discards exactly the fragments cutout_keeps cuts (away from texel
// borders, where the two renderers' rounding may differ), and those pixels show the background.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "engine/render/renderer.h"
#include "engine/scene/generate.h"
#include "kernels/frame/raster/cutout.h"
#include "tests/gl/gl_test_env.h"
#include "tests/support/test_scenes.h"

namespace facet {
namespace {

TEST(GlReferenceCutout, DiscardsTheFragmentsCutoutKeepsCuts) {
  GL_TEST_SETUP();
  Scene s = make_quad();
  std::vector<Rgba8> alpha(64);  // 8 x 8 checker: opaque and alpha 0.25
  for (int j = 0; j < 8; ++j)
    for (int i = 0; i < 8; ++i) alpha[(size_t)j * 8 + i] = {255, 255, 255, (uint8_t)((i + j) % 2 ? 64 : 255)};
  s.materials[0].alpha_texture = add_texture(s, "alpha", 8, 8, alpha);
  const std::vector<ShadeVertex> shade = interleave_shade_vertices(s);
  const SceneView view = s.view(shade.data());
  ASSERT_TRUE(view.has_cutouts);
  RenderOptions nearest;
  nearest.filter = Filter::Nearest;
  const Camera cam = test::look_at({0.3f, -1.6f, 1.4f}, {0, 0.1f, 0}, 60.0f, 0.1f, 10.0f);
  const int w = 160, h = 120;
  const FrameParams fp = make_frame_params(cam, nearest, s.bounds, w, h);
  gl.set_scene(s);
  gl.render(fp);
  std::vector<uint32_t> ids;
  std::vector<Rgba8> rgba;
  gl.read_triangle_ids(ids);
  gl.read_rgba(rgba);
  size_t compared = 0, holes = 0, disagree = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      // Where the quad is (either triangle), by its plane: GL's coverage is not in question here.
      bool on_quad = false, keeps = false, near_border = false;
      for (uint32_t t = 0; t < 2; ++t) {
        const ShadeVertex v0 = shade[s.indices[3 * t]], v1 = shade[s.indices[3 * t + 1]],
                          v2 = shade[s.indices[3 * t + 2]];
        const HomogeneousEdges e = homogeneous_edges(mul_point(fp.view_proj, v0.p), mul_point(fp.view_proj, v1.p),
                                                     mul_point(fp.view_proj, v2.p));
        float wt[3];
        weights_at(e, window_ndc(x + 0.5f, y + 0.5f, w, h), wt);
        if (wt[0] < 0.02f || wt[1] < 0.02f || wt[2] < 0.02f) continue;  // outside or on an edge
        const Vec2 uv = interpolate(wt, v0.uv, v1.uv, v2.uv);
        const float fu = uv.x * 8 - std::floor(uv.x * 8), fv = uv.y * 8 - std::floor(uv.y * 8);
        near_border = fu < 0.1f || fu > 0.9f || fv < 0.1f || fv > 0.9f;
        on_quad = true;
        keeps = cutout_keeps(view, fp, t, x + 0.5f, y + 0.5f);
      }
      if (!on_quad || near_border) continue;
      const size_t i = (size_t)y * w + x;
      const bool gl_keeps = ids[i] != ~0u;
      ++compared;
      holes += !keeps;
      disagree += gl_keeps != keeps;
      if (!gl_keeps) {
        EXPECT_EQ(rgba[i].r, fp.background.r) << x << "," << y << ": a hole shows the background";
        EXPECT_EQ(rgba[i].b, fp.background.b) << x << "," << y;
      }
    }
  EXPECT_EQ(disagree, 0u) << "of " << compared << " pixels";
  EXPECT_GT(holes, 500u);
  EXPECT_GT(compared - holes, 500u);
}

}  // namespace
}  // namespace facet
