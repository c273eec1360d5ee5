// What the viewer asks of the CUDA backend beyond frames: Renderer::pick reads the same triangle
// and depth as the CPU backend, and the ground grid (kernels/frame/effects/ground_grid.cu) against
// the CPU backend: the same bytes where the grid lies over the background (both start from the same
// colour there), within the backends' shading tolerance (1/255) over the model. Skips, saying why,
// where no CUDA device exists.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/cuda/cuda_renderer.h"
#include "engine/render/cpu_renderer.h"
#include "engine/scene/generate.h"

using namespace facet;

namespace {

TEST(GroundGridGpu, CudaDrawsTheSameBytesAsTheCpu) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  auto scene = std::make_shared<Scene>(make_sphere(5000));
  Camera cam;
  cam.eye = {0.5f, 1.8f, 4.0f};
  cam.near_plane = 0.05f;
  cam.far_plane = 50.0f;
  RenderOptions settings;
  settings.ground_grid = true;
  CpuRenderer cpu;
  CudaRenderer gpu;
  cpu.set_scene(scene);
  gpu.set_scene(scene);
  for (int frame = 0; frame < 5; ++frame) {  // every visibility tag (raster.h) once
    cpu.render(cam, settings, 320, 240);
    gpu.render(cam, settings, 320, 240);
  }
  std::vector<Rgba8> a, b;
  std::vector<uint32_t> ids;
  cpu.read_rgba(a);
  gpu.read_rgba(b);
  cpu.read_triangle_ids(ids);
  ASSERT_EQ(a.size(), b.size());
  auto diff = [](uint8_t x, uint8_t y) { return x > y ? x - y : y - x; };
  size_t background_differing = 0, model_over_one = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    int d = std::max({diff(a[i].r, b[i].r), diff(a[i].g, b[i].g), diff(a[i].b, b[i].b), diff(a[i].a, b[i].a)});
    if (ids[i] == ~0u)
      background_differing += d != 0;
    else
      model_over_one += d > 1;
  }
  EXPECT_EQ(background_differing, 0u);
  EXPECT_EQ(model_over_one, 0u);
}

TEST(PickGpu, EveryPixelPicksTheTriangleAndDepthTheCpuPicks) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  auto scene = std::make_shared<Scene>(make_sphere(5000));
  Camera cam;
  cam.eye = {0.3f, 0.4f, 3.0f};
  CpuRenderer cpu;
  CudaRenderer gpu;
  cpu.set_scene(scene);
  gpu.set_scene(scene);
  for (int frame = 0; frame < 6; ++frame) {  // picks across the visibility tags (raster.h)
    cpu.render(cam, RenderOptions{}, 96, 64);
    gpu.render(cam, RenderOptions{}, 96, 64);
    std::vector<uint32_t> ids;
    gpu.read_triangle_ids(ids);
    size_t hits = 0;
    for (int y = 0; y < 64; ++y)
      for (int x = 0; x < 96; ++x) {
        const PixelHit a = cpu.pick(x, y), b = gpu.pick(x, y);
        ASSERT_EQ(b.triangle, ids[(size_t)y * 96 + x]) << x << "," << y << " frame " << frame;
        ASSERT_EQ(a.triangle, b.triangle) << x << "," << y;
        if (a.hit()) {
          EXPECT_EQ(a.depth, b.depth) << x << "," << y;
        }
        hits += b.hit();
      }
    EXPECT_GT(hits, 0u);
  }
  EXPECT_FALSE(gpu.pick(96, 0).hit());
}

}  // namespace
