// Picking and measuring (app/viewer/controls/pick.h, Renderer::pick): the triangle under a pixel is the
// one the visibility buffer holds, and the world point lies on it, under that pixel.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/glm.hpp>

#include "app/viewer/controls/pick.h"
#include "engine/render/cpu_renderer.h"
#include "engine/scene/generate.h"

namespace facet {
namespace {

constexpr int kW = 64, kH = 48;

Camera looking_at_origin(float distance) {
  Camera c;
  c.eye = {0.3f, 0.2f, distance};
  c.target = {0, 0, 0};
  c.near_plane = 0.1f;
  c.far_plane = 10.0f;
  return c;
}

struct PickTest : ::testing::Test {
  void render(Scene scene, const Camera& camera) {
    m_scene = std::make_shared<Scene>(std::move(scene));
    m_renderer.set_scene(m_scene);
    m_camera = camera;
    m_renderer.render(camera, RenderOptions{}, kW, kH);
  }
  std::shared_ptr<Scene> m_scene;
  CpuRenderer m_renderer;
  Camera m_camera;
};

TEST_F(PickTest, TheTriangleUnderEveryPixelIsTheOneInTheVisibilityBuffer) {
  render(make_sphere(2000), looking_at_origin(3.0f));
  std::vector<uint32_t> ids;
  m_renderer.read_triangle_ids(ids);
  int hits = 0;
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) {
      PixelHit h = m_renderer.pick(x, y);
      ASSERT_EQ(h.triangle, ids[(size_t)y * kW + x]) << x << "," << y;
      hits += h.hit();
    }
  EXPECT_GT(hits, kW * kH / 10) << "the sphere covers part of the frame";
  EXPECT_LT(hits, kW * kH) << "and the background the rest";
}

TEST_F(PickTest, PixelsOutsideTheFramePickNothing) {
  render(make_sphere(200), looking_at_origin(3.0f));
  EXPECT_FALSE(m_renderer.pick(-1, 0).hit());
  EXPECT_FALSE(m_renderer.pick(kW, kH / 2).hit());
}

TEST_F(PickTest, ThePickedPointLiesOnItsTriangleUnderThePixel) {
  render(make_sphere(2000), looking_at_origin(3.0f));
  const float aspect = (float)kW / kH;
  int checked = 0;
  for (int y = 0; y < kH; y += 5)
    for (int x = 0; x < kW; x += 5) {
      SurfacePick p = pick_surface(m_renderer, *m_scene, m_camera, x, y, kW, kH);
      if (!p.hit) continue;
      ++checked;
      glm::vec4 clip = m_camera.view_projection(aspect) * glm::vec4(glm::vec3(p.position), 1.0f);
      glm::vec3 ndc = glm::vec3(clip) / clip.w;
      EXPECT_NEAR((ndc.x * 0.5f + 0.5f) * kW, x + 0.5f, 1e-3f);
      EXPECT_NEAR((0.5f - ndc.y * 0.5f) * kH, y + 0.5f, 1e-3f);
      // The window depth the rasterizer stored for this pixel (glm: [-1, 1] to [0, 1]).
      EXPECT_NEAR(ndc.z * 0.5f + 0.5f, p.depth, 1e-4f);
      float r = (float)glm::length(p.position);
      EXPECT_LE(r, 1.0f + 1e-5f) << "inside the sphere's circumscribing radius";
      EXPECT_GT(r, 0.99f) << "on its surface (flat triangles dip a little)";
      EXPECT_EQ(p.material, m_scene->material_names[m_scene->tri_material[p.triangle]]);
    }
  EXPECT_GT(checked, 10);
}

TEST_F(PickTest, TwoPickedPointsMeasureTheirDistanceOnThePlane) {
  render(make_quad(), Camera{});  // eye at (0, 0, 3) looking at the quad in z = 0
  const int y = kH / 2, x0 = 20, x1 = 44;
  Measurement m;
  for (int x : {x0, x1}) {
    SurfacePick p = pick_surface(m_renderer, *m_scene, m_camera, x, y, kW, kH);
    ASSERT_TRUE(p.hit) << x;
    EXPECT_NEAR(p.position.z, 0.0, 1e-9);
    m.click(p.position);
  }
  ASSERT_TRUE(m.complete());
  // Pixel centres x0 and x1 seen from distance 3 with a 45 degree vertical field of view.
  double half = std::tan(0.5 * (double)m_camera.fov_y) * (double)kW / kH * 3.0;
  double expected = ((2.0 * (x1 + 0.5) / kW - 1.0) - (2.0 * (x0 + 0.5) / kW - 1.0)) * half;
  EXPECT_NEAR(m.length(), expected, 1e-6);
  m.click({0, 0, 0});
  EXPECT_EQ(m.points.size(), 1u) << "a third click starts a new measurement";
}

TEST_F(PickTest, OrthographicPicksLieUnderTheirPixelAtTheDistanceFromTheEyePlane) {
  Camera c = looking_at_origin(3.0f);
  c.projection_mode = Projection::Orthographic;
  c.ortho_height = 2.5f;
  render(make_sphere(2000), c);
  const float aspect = (float)kW / kH;
  const glm::dvec3 f = glm::normalize(glm::dvec3(c.target - c.eye));
  int checked = 0;
  for (int y = 0; y < kH; y += 5)
    for (int x = 0; x < kW; x += 5) {
      const PixelRay ray = pixel_ray(c, x, y, kW, kH);
      EXPECT_NEAR(glm::dot(ray.direction, f), 1.0, 1e-12) << "every ray runs along the view";
      SurfacePick p = pick_surface(m_renderer, *m_scene, c, x, y, kW, kH);
      if (!p.hit) continue;
      ++checked;
      glm::vec4 clip = c.view_projection(aspect) * glm::vec4(glm::vec3(p.position), 1.0f);
      EXPECT_NEAR((clip.x * 0.5f + 0.5f) * kW, x + 0.5f, 1e-3f);
      EXPECT_NEAR((0.5f - clip.y * 0.5f) * kH, y + 0.5f, 1e-3f);
      EXPECT_NEAR(clip.z * 0.5f + 0.5f, p.depth, 1e-4f);
      EXPECT_NEAR(p.distance, glm::dot(p.position - glm::dvec3(c.eye), f), 1e-9);
      EXPECT_NEAR(glm::length(p.position), 1.0, 0.01) << "on the sphere";
    }
  EXPECT_GT(checked, 10);
}

}  // namespace
}  // namespace facet
