// The ground grid (engine/render/ground_grid.h, kernels/frame/effects/ground_grid.h) on the CPU
// backend: drawn only where the plane under the model is in front of the surface, only below the
// horizon, and only when asked for.
#include <gtest/gtest.h>

#include <glm/glm.hpp>

#include "engine/render/cpu_renderer.h"
#include "engine/scene/generate.h"

namespace facet {
namespace {

constexpr int kW = 160, kH = 120;

struct Frame {
  std::vector<Rgba8> rgba;
  std::vector<uint32_t> ids;
};

Frame render(const Camera& camera, bool grid, int width = kW, int height = kH) {
  CpuRenderer r;
  r.set_scene(std::make_shared<Scene>(make_sphere(2000)));  // radius 1 at the origin: plane y = -1
  RenderOptions settings;
  settings.ground_grid = grid;
  r.render(camera, settings, width, height);
  Frame f;
  r.read_rgba(f.rgba);
  r.read_triangle_ids(f.ids);
  return f;
}

Camera camera_at(glm::vec3 eye, glm::vec3 target) {
  Camera c;
  c.eye = eye;
  c.target = target;
  c.near_plane = 0.05f;
  c.far_plane = 50.0f;
  return c;
}

bool same(Rgba8 a, Rgba8 b) { return a.r == b.r && a.g == b.g && a.b == b.b && a.a == b.a; }

// Pixels the grid changed, and how many of them show the model.
struct Changes {
  int total = 0, over_model = 0;
};
Changes grid_changes(const Camera& camera) {
  Frame plain = render(camera, false), grid = render(camera, true);
  EXPECT_EQ(plain.ids, grid.ids) << "the grid changes no visibility";
  Changes c;
  for (size_t i = 0; i < plain.rgba.size(); ++i) {
    if (same(plain.rgba[i], grid.rgba[i])) continue;
    ++c.total;
    c.over_model += plain.ids[i] != ~0u;
  }
  return c;
}

TEST(GroundGrid, FromAboveItShowsOnlyAroundTheModelNeverOverIt) {
  // Every surface point lies above the plane, so seen from above the model hides the plane.
  Changes c = grid_changes(camera_at({0.0f, 2.0f, 4.5f}, {0, 0, 0}));
  EXPECT_GT(c.total, kW * kH / 50) << "grid lines drawn on the plane";
  EXPECT_EQ(c.over_model, 0) << "none in front of the model";
}

TEST(GroundGrid, FromBelowThePlaneItCoversTheModel) {
  // Below the plane the plane is in front of everything: lines cross the model too.
  Changes c = grid_changes(camera_at({0.0f, -2.5f, 4.5f}, {0, 0, 0}));
  EXPECT_GT(c.over_model, 0);
}

TEST(GroundGrid, NothingIsDrawnAboveTheHorizon) {
  // Looking level from above the plane: the rays of the upper half never meet it.
  const Camera cam = camera_at({0.0f, 0.5f, 4.5f}, {0.0f, 0.5f, 0.0f});
  Frame plain = render(cam, false), grid = render(cam, true);
  int changed_below = 0;
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) {
      const size_t i = (size_t)y * kW + x;
      if (same(plain.rgba[i], grid.rgba[i])) continue;
      EXPECT_GE(y, kH / 2) << "changed above the horizon at " << x << "," << y;
      ++changed_below;
    }
  EXPECT_GT(changed_below, 0);
}

TEST(GroundGrid, TheLinesThroughTheOriginShowTheXAndZAxes) {
  // From above and in front: the line z = 0 (X axis) crosses the frame left to right, x = 0 (Z
  // axis) runs towards the eye; the sphere sits on both.
  const Camera cam = camera_at({0.0f, 3.0f, 4.0f}, {0, 0, 0});
  // Large enough a frame that the 0.1-unit cells are not faded out (kGridFarCells).
  Frame plain = render(cam, false, 640, 480), grid = render(cam, true, 640, 480);
  // Grey lines raise the three channels about alike; the axes raise red or blue the most.
  int red = 0, blue = 0;
  for (size_t i = 0; i < grid.rgba.size(); ++i) {
    const int dr = grid.rgba[i].r - plain.rgba[i].r, dg = grid.rgba[i].g - plain.rgba[i].g,
              db = grid.rgba[i].b - plain.rgba[i].b;
    red += dr > dg + 20 && dr > db + 20;
    blue += db > dr + 20 && db > dg + 10;
  }
  EXPECT_GT(red, 100);
  EXPECT_GT(blue, 100);
}

TEST(GroundGrid, IsOffUnlessAskedFor) { EXPECT_FALSE(RenderOptions{}.ground_grid); }

}  // namespace
}  // namespace facet
