// The orthographic camera (engine/render/camera.h, kernels/frame/view.h) on the CPU backend: points land where
// the parallel projection puts them, sizes do not depend on depth, switching projections keeps
// the size at the pivot, the closed sphere stays watertight, and the headlight, Depth shading,
// the depth output and the ground grid follow the view direction instead of an eye point.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "engine/render/cpu_renderer.h"
#include "engine/scene/generate.h"
#include "kernels/frame/geometry/project.h"
#include "tests/support/hostile_checks.h"
#include "tests/support/hostile_scenes.h"
#include "tests/support/srgb_reference.h"
#include "tests/support/test_scenes.h"

using namespace facet;
using namespace facet::test;

namespace {

// One scene of two meshes: b's triangles follow a's (ids from a.triangle_count() on).
Scene merged(const Scene& a, const Scene& b) {
  BigVector<Vec3> p = a.positions;
  BigVector<uint32_t> idx = a.indices;
  p.insert(p.end(), b.positions.begin(), b.positions.end());
  for (uint32_t i : b.indices) idx.push_back(i + (uint32_t)a.positions.size());
  return make_mesh({p.begin(), p.end()}, {idx.begin(), idx.end()}, "merged");
}

// A square of side 2s centred on c, in the plane through c with unit normal n (two triangles,
// counter-clockwise seen from the side n points to).
Scene square(glm::vec3 c, glm::vec3 n, float s) {
  const glm::vec3 a = glm::normalize(glm::cross(std::fabs(n.y) < 0.9f ? glm::vec3(0, 1, 0) : glm::vec3(1, 0, 0), n));
  const glm::vec3 b = glm::cross(n, a);
  auto v = [](glm::vec3 q) { return Vec3{q.x, q.y, q.z}; };
  return make_mesh({v(c - s * a - s * b), v(c + s * a - s * b), v(c + s * a + s * b), v(c - s * a + s * b)},
                   {0, 1, 2, 0, 2, 3}, "square");
}

// Pixel extent and count of the pixels showing triangles [lo, hi).
struct Extent {
  int x0 = 1 << 30, y0 = 1 << 30, x1 = -1, y1 = -1;
  int count = 0;
};
Extent extent_of(const std::vector<uint32_t>& ids, int w, uint32_t lo, uint32_t hi) {
  Extent e;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < lo || ids[i] >= hi) continue;
    const int x = (int)(i % w), y = (int)(i / w);
    e.x0 = std::min(e.x0, x), e.x1 = std::max(e.x1, x), e.y0 = std::min(e.y0, y), e.y1 = std::max(e.y1, y);
    ++e.count;
  }
  return e;
}

}  // namespace

TEST(Orthographic, AWorldPointProjectsWithClipWOneToItsPixelAndLinearDepth) {
  // 200 x 100 frame, view height 4: 25 px per world unit, the view axis through pixel (100, 50).
  const Camera c = ortho_look_at({0, 0, 5}, {0, 0, 0}, 4.0f, 1.0f, 11.0f);
  const FrameParams fp = make_frame_params(c, {}, make_sphere(20).bounds, 200, 100);
  EXPECT_TRUE(fp.orthographic);
  for (float z : {0.0f, -3.0f, 4.0f}) {
    const Vec4 clip = project_vertex(fp.view_proj, {1.02f, 0.5f, z});
    EXPECT_FLOAT_EQ(clip.w, 1.0f);
    const Vec2 win = clip_to_window(clip, fp.width, fp.height);
    EXPECT_NEAR(win.x, 125.5f, 1e-4f) << "z " << z;
    EXPECT_NEAR(win.y, 37.5f, 1e-4f) << "z " << z;
    EXPECT_NEAR(clip_to_depth(clip), ((5.0f - z) - 1.0f) / 10.0f, 1e-6f) << "window depth is linear in distance";
  }
}

TEST(Orthographic, ASmallTriangleAroundAPixelCentreCoversThatPixelOnly) {
  const Camera c = ortho_look_at({0, 0, 5}, {0, 0, 0}, 4.0f, 1.0f, 11.0f);
  const Scene tri = make_mesh({{1.01f, 0.49f, -3.0f}, {1.03f, 0.49f, -3.0f}, {1.02f, 0.51f, -3.0f}}, {0, 1, 2}, "tri");
  const Frame f = render(tri, make_frame_params(c, two_sided(), tri.bounds, 200, 100));
  for (size_t i = 0; i < f.ids.size(); ++i)
    EXPECT_EQ(f.ids[i] == 0u, i == 37u * 200u + 125u) << "pixel " << i % 200 << "," << i / 200;
}

TEST(Orthographic, EqualBoxesAtDifferentDepthsHaveEqualScreenSize) {
  const Scene near_box = make_box(1, {0.5f, 0.5f, 0.5f}, {-1.2f, 0.0f, 0.0f});
  const Scene boxes = merged(near_box, make_box(1, {0.5f, 0.5f, 0.5f}, {1.2f, 0.0f, -4.0f}));
  const uint32_t n = near_box.triangle_count();
  auto extents = [&](const Camera& c) {
    const Frame f = render(boxes, make_frame_params(c, {}, boxes.bounds, 120, 120));
    return std::make_pair(extent_of(f.ids, 120, 0, n), extent_of(f.ids, 120, n, 2 * n));
  };
  const auto [a, b] = extents(ortho_look_at({0, 0, 5}, {0, 0, 0}, 6.0f, 0.1f, 20.0f));
  EXPECT_EQ(a.x1 - a.x0, b.x1 - b.x0);
  EXPECT_EQ(a.y1 - a.y0, b.y1 - b.y0);
  EXPECT_EQ(a.count, b.count);
  EXPECT_EQ(a.count, 400) << "1 x 1 world units at 20 px per unit";
  // The same boxes in perspective: the far one is smaller (what the test would catch).
  const auto [pa, pb] = extents(look_at({0, 0, 5}, {0, 0, 0}, 60.0f, 0.1f, 20.0f));
  EXPECT_GT(pa.count, 2 * pb.count);
}

TEST(Orthographic, SwitchingProjectionsKeepsTheSizeAtThePivotAndTheDistance) {
  Camera c = look_at({1, 2, 4}, {0.5f, 0.0f, 0.0f}, 50.0f, 0.1f, 20.0f);
  const float d = glm::length(c.eye - c.target);
  c.set_projection(Projection::Orthographic);
  EXPECT_TRUE(c.orthographic());
  EXPECT_NEAR(c.ortho_height, 2.0f * d * std::tan(glm::radians(25.0f)), 1e-5f);
  // A square in the plane through the pivot facing the camera: the same pixels either way.
  const Scene sq = square(c.target, -c.forward(), 0.6f);
  const Frame ortho = render(sq, make_frame_params(c, two_sided(), sq.bounds, 160, 120));
  c.set_projection(Projection::Perspective);
  EXPECT_NEAR(glm::length(c.eye - c.target), d, 1e-5f * d);
  const Frame persp = render(sq, make_frame_params(c, two_sided(), sq.bounds, 160, 120));
  const Extent eo = extent_of(ortho.ids, 160, 0, 2), ep = extent_of(persp.ids, 160, 0, 2);
  EXPECT_GT(eo.count, 1000);
  EXPECT_NEAR(eo.count, ep.count, 0.05 * eo.count);
}

TEST(Orthographic, ClipPlanesHoldTheWholeModelWithTheEyeInsideIt) {
  Scene sphere = make_sphere(5000);
  Camera c = ortho_look_at({0.2f, 0.1f, 0.3f}, {0.2f, 0.1f, -1.0f}, 3.0f, 0.1f, 1.0f);
  c.fit_clip_planes(sphere.bounds);
  EXPECT_LT(c.near_plane, 0.3f - sphere.bounds.radius) << "behind the eye";
  EXPECT_GT(c.far_plane, 0.3f + sphere.bounds.radius);
  // The whole disc shows: pi r^2 at 40 px per unit, within the polygon's and the edges' error.
  const Frame f = render(sphere, make_frame_params(c, {}, sphere.bounds, 120, 120));
  const Extent e = extent_of(f.ids, 120, 0, sphere.triangle_count());
  EXPECT_NEAR(e.count, 3.14159265 * 40.0 * 40.0, 0.02 * 3.14159265 * 1600.0);
}

TEST(OrthographicWatertight, ClosedSphereUnderRandomOrthographicCamerasIsHitAnEvenNumberOfTimes) {
  Scene sphere = make_sphere(20000);
  std::mt19937 rng(83);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<Camera> cams;
  for (int k = 0; k < 10; ++k) {
    // Outside and inside the sphere (the near plane then lies behind the eye), zoomed in on its
    // rim and seeing all of it.
    const glm::vec3 eye = random_dir(rng) * (k < 7 ? 1.5f + 3.0f * u(rng) : 0.5f * u(rng));
    const glm::vec3 target = random_dir(rng) * 0.9f * u(rng);
    Camera c = ortho_look_at(eye, target, k % 2 ? 0.05f + 0.3f * u(rng) : 1.0f + 2.0f * u(rng), 0.1f, 1.0f);
    c.fit_clip_planes(sphere.bounds);
    cams.push_back(c);
  }
  expect_hits(sphere, cams, 160, 120, "an even number of times", hit_even);
}

TEST(OrthographicShading, TheHeadlightShinesAlongTheViewDirection) {
  // A square turned 60 degrees from the view: every pixel gets cos 60 of the light in
  // orthographic; in perspective the cosine changes across it.
  const glm::vec3 n = glm::normalize(glm::vec3(std::sin(glm::radians(60.0f)), 0.0f, std::cos(glm::radians(60.0f))));
  const Scene sq = square({0, 0, 0}, n, 1.0f);
  const float lit = kHostileKd * (kAmbient + (1.0f - kAmbient) * 0.5f);
  auto greys = [&](const Camera& c) {
    const Frame f = render(sq, make_frame_params(c, {}, sq.bounds, 80, 80));
    std::vector<int> g;
    for (size_t i = 0; i < f.ids.size(); ++i)
      if (f.ids[i] != kNoTriangle) g.push_back(f.rgba[i].r);
    return g;
  };
  const std::vector<int> ortho = greys(ortho_look_at({0, 0, 3}, {0, 0, 0}, 2.5f, 0.1f, 10.0f));
  ASSERT_GT(ortho.size(), 1000u);
  for (int g : ortho) ASSERT_NEAR(g, test::srgb_code(lit), 1.0f);  // lit is linear light
  const std::vector<int> persp = greys(look_at({0, 0, 3}, {0, 0, 0}, 60.0f, 0.1f, 10.0f));
  ASSERT_FALSE(persp.empty());
  EXPECT_GT(*std::max_element(persp.begin(), persp.end()) - *std::min_element(persp.begin(), persp.end()), 10);
}

TEST(OrthographicShading, DepthOutputIsTheDistanceFromTheEyePlaneAlongTheView) {
  const Scene sq = square({0.1f, -0.2f, -0.5f}, glm::normalize(glm::vec3(0.4f, 0.3f, 1.0f)), 1.5f);
  const Camera c = ortho_look_at({0.3f, 0.2f, 4.0f}, {0.0f, 0.0f, -1.0f}, 3.0f, 0.5f, 10.0f);
  const int W = 96, H = 72;
  CpuRenderer r;
  r.set_scene(std::make_shared<Scene>(sq));
  r.render(c, two_sided(), W, H);
  std::vector<float> depth((size_t)W * H);
  FrameOutputs out;
  out.depth = depth.data();
  r.read_outputs(out);
  // The plane along each pixel's ray, in double: origin on the eye's plane, direction forward.
  const glm::dvec3 f = glm::normalize(glm::dvec3(c.target - c.eye));
  const glm::dvec3 rt = glm::normalize(glm::cross(f, glm::dvec3(0, 1, 0))), up = glm::cross(rt, f);
  const glm::dvec3 p0(sq.positions[0].x, sq.positions[0].y, sq.positions[0].z);
  const glm::dvec3 pn =
      glm::normalize(glm::cross(glm::dvec3(sq.positions[1].x, sq.positions[1].y, sq.positions[1].z) - p0,
                                glm::dvec3(sq.positions[3].x, sq.positions[3].y, sq.positions[3].z) - p0));
  size_t covered = 0;
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      const float got = depth[(size_t)y * W + x];
      if (std::isinf(got)) continue;
      ++covered;
      const double nx = 2.0 * (x + 0.5) / W - 1.0, ny = 1.0 - 2.0 * (y + 0.5) / H;
      const glm::dvec3 o = glm::dvec3(c.eye) + (nx * 1.5 * W / H) * rt + (ny * 1.5) * up;
      const double t = glm::dot(pn, p0 - o) / glm::dot(pn, f);
      ASSERT_NEAR(got, t, 1e-4 * t) << "pixel " << x << "," << y;
    }
  EXPECT_GT(covered, 1000u);
}

TEST(OrthographicShading, DepthShadingSpansTheModelAlongTheView) {
  // A square facing the view, 4 units in front of the eye's plane in a sphere of depth range:
  // Depth shading shows it at the grey of its distance, whatever its offset from the axis.
  const Scene sq = square({0.0f, 0.0f, -1.0f}, {0, 0, 1}, 1.0f);
  const Camera c = ortho_look_at({0.5f, 0.5f, 3.0f}, {0.5f, 0.5f, 0.0f}, 3.0f, 0.5f, 10.0f);
  RenderOptions s;
  s.shading = Shading::Depth;
  const FrameParams fp = make_frame_params(c, s, sq.bounds, 64, 64);
  const float g = 1.0f - (4.0f - fp.depth_near) / (fp.depth_far - fp.depth_near);
  ASSERT_GT(g, 0.05f);
  ASSERT_LT(g, 0.95f);
  const Frame f = render(sq, fp);
  size_t covered = 0;
  for (size_t i = 0; i < f.ids.size(); ++i) {
    if (f.ids[i] == kNoTriangle) continue;
    ++covered;
    ASSERT_NEAR(f.rgba[i].r, g * 255.0f, 1.0f);
  }
  EXPECT_GT(covered, 500u);
}

namespace {

// Rows where the grid's lines cross column x (the first pixel of each run the grid changed).
std::vector<int> grid_line_rows(const Camera& c, int x) {
  CpuRenderer r;
  r.set_scene(std::make_shared<Scene>(make_sphere(2000)));  // radius 1: the plane y = -1, lines 0.1 apart
  RenderOptions s;
  s.ground_grid = true;
  r.render(c, s, 160, 160);
  std::vector<Rgba8> rgba;
  r.read_rgba(rgba);
  std::vector<int> rows;
  bool in_line = false;
  for (int y = 0; y < 160; ++y) {
    const Rgba8 p = rgba[(size_t)y * 160 + x];
    const bool changed = p.r != s.background.r || p.g != s.background.g || p.b != s.background.b;
    if (changed && !in_line) rows.push_back(y);
    in_line = changed;
  }
  return rows;
}

// Largest minus smallest gap between successive rows.
int spread_of_gaps(const std::vector<int>& rows) {
  int lo = 1 << 30, hi = 0;
  for (size_t i = 1; i < rows.size(); ++i)
    lo = std::min(lo, rows[i] - rows[i - 1]), hi = std::max(hi, rows[i] - rows[i - 1]);
  return hi - lo;
}

}  // namespace

TEST(OrthographicGrid, SeenAtAnAngleItsLinesStayEvenlySpacedDownTheFrame) {
  // Beside the model (column 8, between two lines of the other family), looking down at 50
  // degrees: the lines across the column are about 4 px apart from the top of the frame to the
  // bottom in orthographic; in perspective (the same scale at the target) they are not.
  const Camera ortho = ortho_look_at({0, 5, 5}, {0, -1, 0}, 3.0f, 0.1f, 20.0f);
  const std::vector<int> rows = grid_line_rows(ortho, 8);
  ASSERT_GT(rows.size(), 20u);
  EXPECT_LE(spread_of_gaps(rows), 1);
  EXPECT_GE(spread_of_gaps(grid_line_rows(look_at({0, 5, 5}, {0, -1, 0}, 22.0f, 0.1f, 20.0f), 8)), 2);
}
