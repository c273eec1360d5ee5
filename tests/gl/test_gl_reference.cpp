// The OpenGL reference renderer on its own, against answers known in advance: the EGL context,
// the embedded shaders, triangle ids of hand-placed triangles (coverage, orientation, depth order
// and ties, culling), colour of the shading modes, and timer queries. If these fail, the oracle
// comparisons (test_gl_oracle.cpp) mean nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "app/gl/gl_clock.h"
#include "engine/render/renderer.h"
#include "engine/scene/generate.h"
#include "shaders/shader_source.h"
#include "tests/gl/gl_test_env.h"

namespace facet {
namespace {

// Triangles given directly in NDC (x, y, z), drawn with an identity view_proj.
Scene ndc_scene(const std::vector<Vec3>& corners) {
  Scene s;
  s.source = "ndc triangles";
  s.positions.assign(corners.begin(), corners.end());
  for (uint32_t i = 0; i < (uint32_t)corners.size(); ++i) s.indices.push_back(i);
  s.tri_material.assign(corners.size() / 3, 0);
  s.materials.push_back({{1.0f, 0.5f, 0.25f}, -1});
  s.bounds = compute_bounds(s.positions);
  return s;
}

FrameParams identity_frame(int width, int height, Shading shading = Shading::Lit) {
  FrameParams fp{};
  for (int i = 0; i < 16; ++i) fp.view_proj.m[i] = (i % 5 == 0) ? 1.0f : 0.0f;
  fp.width = width;
  fp.height = height;
  fp.eye = {0, 0, 10};
  fp.depth_near = 0;
  fp.depth_far = 2;
  fp.shading = shading;
  fp.filter = Filter::Trilinear;
  fp.background = {40, 42, 48, 255};
  return fp;
}

// Signed distance in pixels from pixel (px, py)'s centre to the inside of a triangle given in
// NDC, in our window convention (row 0 = top): > 0 inside, < 0 outside.
double inside_distance_px(const Vec3* t, int px, int py, int width, int height) {
  double x[3], y[3];
  for (int i = 0; i < 3; ++i) {
    x[i] = (t[i].x * 0.5 + 0.5) * width;
    y[i] = (0.5 - t[i].y * 0.5) * height;
  }
  double cx = px + 0.5, cy = py + 0.5;
  double area = (x[1] - x[0]) * (y[2] - y[0]) - (y[1] - y[0]) * (x[2] - x[0]);
  double sign = area > 0 ? 1.0 : -1.0;
  double d = 1e30;
  for (int i = 0; i < 3; ++i) {
    int a = (i + 1) % 3, b = (i + 2) % 3;
    double ex = x[b] - x[a], ey = y[b] - y[a];
    double e = sign * (ex * (cy - y[a]) - ey * (cx - x[a])) / std::sqrt(ex * ex + ey * ey);
    d = std::min(d, e);
  }
  return d;
}

TEST(GlContext, IsOpenGl45CoreWithoutADisplay) {
  GL_TEST_SETUP();
  (void)gl;
  GLint major = 0, minor = 0, profile = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  glGetIntegerv(GL_CONTEXT_PROFILE_MASK, &profile);
  EXPECT_GE(std::make_pair(major, minor), std::make_pair(4, 5)) << "(major, minor)";
  EXPECT_TRUE(profile & GL_CONTEXT_CORE_PROFILE_BIT);
  std::string why;
  EXPECT_TRUE(egl_available(&why)) << why;
  EXPECT_FALSE(test::GlTestEnv::get().context->platform().empty());
}

TEST(GlShaders, AreEmbeddedByFileNameAndUnknownNamesThrow) {
  EXPECT_NE(shader_source("reference.vert").find("#version 450"), std::string_view::npos);
  EXPECT_NE(shader_source("reference.frag").find("gl_PrimitiveID"), std::string_view::npos);
  EXPECT_THROW(shader_source("no-such-shader.frag"), std::out_of_range);
  bool listed = false;
  for (std::string_view n : shader_names()) listed |= n == "reference.frag";
  EXPECT_TRUE(listed);
}

// Two disjoint triangles, one in the upper half of NDC: every pixel centre clearly inside one
// (more than half a pixel from its edges) has its id, every one clearly outside both is ~0u, and
// row 0 is the top of the image (triangle 0, at NDC y > 0, lands in the upper rows).
TEST(GlReferenceIds, MatchAnalyticCoverageWithRowZeroAtTheTop) {
  GL_TEST_SETUP();
  const int w = 96, h = 64;
  std::vector<Vec3> c = {{-0.9f, 0.1f, 0.0f}, {-0.1f, 0.9f, 0.0f}, {-0.8f, 0.8f, 0.0f},   // upper left
                         {0.1f, -0.9f, 0.0f}, {0.9f, -0.2f, 0.0f}, {0.3f, -0.1f, 0.0f}};  // lower right
  gl.set_scene(ndc_scene(c));
  gl.render(identity_frame(w, h));
  std::vector<uint32_t> ids;
  gl.read_triangle_ids(ids);
  ASSERT_EQ(ids.size(), (size_t)w * h);
  size_t checked = 0, covered[2] = {0, 0};
  for (int py = 0; py < h; ++py)
    for (int px = 0; px < w; ++px) {
      uint32_t id = ids[(size_t)py * w + px];
      if (id != ~0u) {
        ASSERT_LT(id, 2u);
        ++covered[id];
        if (id == 0) {
          EXPECT_LT(py, h / 2);
        }
      }
      double d0 = inside_distance_px(&c[0], px, py, w, h);
      double d1 = inside_distance_px(&c[3], px, py, w, h);
      uint32_t expect = d0 > 0.5 ? 0u : (d1 > 0.5 ? 1u : ~0u);
      if (expect == ~0u && (d0 > -0.5 || d1 > -0.5)) continue;  // within half a pixel of an edge
      ++checked;
      EXPECT_EQ(id, expect) << "pixel " << px << "," << py;
    }
  EXPECT_GT(covered[0], 100u);
  EXPECT_GT(covered[1], 100u);
  EXPECT_GT(checked, (size_t)w * h * 3 / 4);
}

// Depth: nearer wins whatever the order; an exact tie goes to the lower index (GL_LESS in index
// order), as the design's visibility rule says.
TEST(GlReferenceIds, NearerWinsAndExactTiesGoToTheLowerIndex) {
  GL_TEST_SETUP();
  const int w = 32, h = 32;
  auto big = [](float z) { return std::vector<Vec3>{{-3.0f, -3.0f, z}, {3.0f, -3.0f, z}, {0.0f, 3.0f, z}}; };
  auto center_id = [&](float z0, float z1) {
    std::vector<Vec3> c = big(z0);
    for (Vec3 v : big(z1)) c.push_back(v);
    gl.set_scene(ndc_scene(c));
    gl.render(identity_frame(w, h));
    std::vector<uint32_t> ids;
    gl.read_triangle_ids(ids);
    for (uint32_t id : ids)
      if (id != ids[0]) return ~1u;  // the frame should be uniform
    return ids[0];
  };
  EXPECT_EQ(center_id(0.5f, -0.2f), 1u);   // second is nearer
  EXPECT_EQ(center_id(-0.2f, 0.5f), 0u);   // first is nearer
  EXPECT_EQ(center_id(0.25f, 0.25f), 0u);  // tie: lower index
}

// Culling, when on, drops triangles that are clockwise in NDC and keeps counter-clockwise ones.
TEST(GlReferenceIds, CullingKeepsCounterClockwiseTrianglesInNdc) {
  GL_TEST_SETUP();
  const int w = 32, h = 32;
  std::vector<Vec3> ccw = {{-0.9f, -0.9f, 0}, {0.9f, -0.9f, 0}, {0.0f, 0.9f, 0}};
  std::vector<Vec3> cw = {ccw[0], ccw[2], ccw[1]};
  auto covered = [&](const std::vector<Vec3>& c, bool cull) {
    gl.set_scene(ndc_scene(c));
    FrameParams fp = identity_frame(w, h);
    fp.cull_backfaces = cull;
    gl.render(fp);
    std::vector<uint32_t> ids;
    gl.read_triangle_ids(ids);
    size_t n = 0;
    for (uint32_t id : ids) n += id != ~0u;
    return n;
  };
  EXPECT_GT(covered(ccw, true), 200u);
  EXPECT_EQ(covered(cw, true), 0u);
  EXPECT_EQ(covered(cw, false), covered(ccw, false));
}

// A closed, outward-wound mesh seen from outside shows only front faces, so culling back faces
// changes no pixel: a check of the winding convention on a real projection (not NDC input).
TEST(GlReferenceIds, CullingAClosedSphereSeenFromOutsideChangesNoPixel) {
  GL_TEST_SETUP();
  Scene s = make_sphere(2000);
  gl.set_scene(s);
  Camera cam = Camera::framing(s.bounds, 4.0f / 3.0f);
  RenderOptions settings;
  settings.two_sided = true;  // else the closed sphere skips its back faces by itself
  std::vector<uint32_t> unculled, culled;
  gl.render(make_frame_params(cam, settings, s.bounds, 160, 120));
  EXPECT_FALSE(make_frame_params(cam, settings, s.bounds, 160, 120).cull_backfaces);
  gl.read_triangle_ids(unculled);
  settings.two_sided = false;  // the default: skipped as hidden
  ASSERT_TRUE(make_frame_params(cam, settings, s.bounds, 160, 120).cull_backfaces);
  gl.render(make_frame_params(cam, settings, s.bounds, 160, 120));
  gl.read_triangle_ids(culled);
  size_t covered = 0;
  for (uint32_t id : unculled) covered += id != ~0u;
  EXPECT_GT(covered, 5000u);
  EXPECT_EQ(culled, unculled);
}

// Colour: the background where nothing is drawn; a face turned to +Z world shows (0.5, 0.5, 1) in
// normals shading; lit shading of a face square to the headlight is Kd.
TEST(GlReferenceColor, ShadesNormalsLitAndBackgroundInTheSameOrientationAsIds) {
  GL_TEST_SETUP();
  const int w = 40, h = 30;
  // Upper half of the frame only, counter-clockwise seen from +Z (the eye).
  std::vector<Vec3> c = {{-2.0f, 0.0f, 0}, {2.0f, 0.0f, 0}, {0.0f, 4.0f, 0}};
  Scene s = ndc_scene(c);
  s.normals.assign(3, Vec3{0, 0, 1});
  gl.set_scene(s);
  for (Shading shading : {Shading::Normals, Shading::Lit}) {
    FrameParams fp = identity_frame(w, h, shading);
    fp.eye = {0, 0, 1000};  // far away: the headlight is square to the face everywhere
    gl.render(fp);
    std::vector<Rgba8> rgba;
    gl.read_rgba(rgba);
    ASSERT_EQ(rgba.size(), (size_t)w * h);
    Rgba8 top = rgba[(size_t)2 * w + w / 2], bottom = rgba[(size_t)(h - 3) * w + w / 2];
    EXPECT_EQ(bottom.r, 40);
    EXPECT_EQ(bottom.g, 42);
    EXPECT_EQ(bottom.b, 48);
    if (shading == Shading::Normals) {
      EXPECT_NEAR(top.r, 128, 1);
      EXPECT_NEAR(top.g, 128, 1);
      EXPECT_EQ(top.b, 255);
    } else {
      // Kd (1, 0.5, 0.25) is linear light: written encoded to sRGB.
      EXPECT_NEAR(top.r, 255, 1);
      EXPECT_NEAR(top.g, 188, 1);
      EXPECT_NEAR(top.b, 137, 1);
    }
  }
}

TEST(GlReferenceFrame, FollowsTheFrameSizeAcrossResizes) {
  GL_TEST_SETUP();
  gl.set_scene(ndc_scene({{-1, -1, 0}, {3, -1, 0}, {-1, 3, 0}}));  // covers the whole frame
  for (auto [w, h] : {std::pair{17, 9}, std::pair{64, 48}, std::pair{5, 70}}) {
    gl.render(identity_frame(w, h));
    std::vector<uint32_t> ids;
    gl.read_triangle_ids(ids);
    ASSERT_EQ(ids.size(), (size_t)w * h);
    for (uint32_t id : ids) ASSERT_EQ(id, 0u);
    EXPECT_EQ(gl.width(), w);
    EXPECT_EQ(gl.height(), h);
  }
}

// Mesa's software rasterizers rasterize after their timer queries end, so their frames are timed
// by the wall clock; every other driver by its timer queries.
TEST(GlReferenceTiming, SoftwareRasterizersAreTimedByTheWallClock) {
  for (const char* software : {"llvmpipe (LLVM 15.0.6, 256 bits)", "softpipe", "Mesa X11 (swrast)"})
    EXPECT_EQ(gl_clock_for_renderer(software), GlClock::WallClock) << software;
  for (const char* hardware :
       {"NVIDIA H200/PCIe/SSE2", "AMD Radeon RX 7900 XTX (radeonsi, navi31, LLVM 15.0.7, DRM 3.54)",
        "Mesa Intel(R) UHD Graphics 620 (KBL GT2)", ""})
    EXPECT_EQ(gl_clock_for_renderer(hardware), GlClock::TimerQueries) << hardware;
}

TEST(GlReferenceTiming, GivesOneTimePerFrameOnThisDriversClock) {
  GL_TEST_SETUP();
  const GLubyte* renderer = glGetString(GL_RENDERER);
  ASSERT_NE(renderer, nullptr);
  EXPECT_EQ(gl.clock(), gl_clock_for_renderer(reinterpret_cast<const char*>(renderer)));
  Scene s = make_sphere(2000);
  gl.set_scene(s);
  Camera cam = Camera::framing(s.bounds, 4.0f / 3.0f);
  FrameParams fp = make_frame_params(cam, RenderOptions{}, s.bounds, 128, 96);
  std::vector<double> ms = gl.time_frames(fp, 2, 5);
  ASSERT_EQ(ms.size(), 5u);
  double sum = 0;
  for (double t : ms) {
    EXPECT_TRUE(std::isfinite(t)) << t;
    EXPECT_GE(t, 0.0);
    sum += t;
  }
  EXPECT_GT(sum, 0.0);
  // A frame rendered after timing has its ids again.
  gl.render(fp);
  std::vector<uint32_t> ids;
  gl.read_triangle_ids(ids);
  EXPECT_EQ(ids.size(), (size_t)128 * 96);
}

}  // namespace
}  // namespace facet
