// FrameTarget::Device: a frame resolved straight into the caller's device memory (what the Python
// module does with a device colour output) holds the bytes the renderer's own image would, ground
// grid included, and the renderer's own image is drawn again when asked for afterwards. Skips,
// saying why, where no CUDA device exists.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstring>

#include "engine/cuda/cuda_renderer.h"
#include "engine/cuda/device_buffer.h"
#include "engine/scene/generate.h"

using namespace facet;

namespace {

constexpr int kWidth = 320, kHeight = 240;

Camera test_camera() {
  Camera cam;
  cam.eye = {0.5f, 1.8f, 4.0f};
  cam.near_plane = 0.05f;
  cam.far_plane = 50.0f;
  return cam;
}

std::vector<Rgba8> copy_to_host(const DeviceBuffer<Rgba8>& pixels) {
  std::vector<Rgba8> out(pixels.size());
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(cudaMemcpy(out.data(), pixels.data(), pixels.bytes(), cudaMemcpyDeviceToHost), cudaSuccess);
  return out;
}

bool same_bytes(const std::vector<Rgba8>& a, const std::vector<Rgba8>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Rgba8)) == 0;
}

TEST(DeviceTarget, HoldsTheBytesOfTheRenderersOwnImageWithTheGroundGrid) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  auto scene = std::make_shared<Scene>(make_sphere(5000));
  RenderOptions settings;
  settings.ground_grid = true;
  CudaRenderer own, direct;
  own.set_scene(scene);
  direct.set_scene(scene);
  DeviceBuffer<Rgba8> pixels((size_t)kWidth * kHeight, "test target");
  FrameTarget target;
  target.kind = FrameTarget::Kind::Device;
  target.pixels = pixels.data();
  std::vector<Rgba8> expected;
  for (int frame = 0; frame < 5; ++frame) {  // every visibility tag (raster.h) once
    Camera cam = test_camera();
    cam.eye.x += 0.1f * (float)frame;
    ASSERT_EQ(cudaMemset(pixels.data(), 0, pixels.bytes()), cudaSuccess);
    own.render(cam, settings, kWidth, kHeight);
    direct.render(cam, settings, kWidth, kHeight, target);
    own.read_rgba(expected);
    ASSERT_TRUE(same_bytes(copy_to_host(pixels), expected)) << "frame " << frame;
  }
  // The renderer's own image was never drawn by `direct`: asking for it draws it (without the
  // grid, which only render(Camera, ...) knows of), the same frame as the model part shows.
  std::vector<Rgba8> again, plain;
  direct.read_rgba(again);
  settings.ground_grid = false;
  Camera last = test_camera();
  last.eye.x += 0.4f;
  own.render(last, settings, kWidth, kHeight);
  own.read_rgba(plain);
  EXPECT_TRUE(same_bytes(again, plain));
}

TEST(DeviceTarget, WithoutPixelsIsRefused) {
  std::string why;
  if (!cuda_available(&why)) GTEST_SKIP() << why;
  CudaRenderer r;
  r.set_scene(std::make_shared<Scene>(make_sphere(100)));
  FrameTarget target;
  target.kind = FrameTarget::Kind::Device;
  EXPECT_THROW(r.render(test_camera(), RenderOptions{}, kWidth, kHeight, target), std::invalid_argument);
}

}  // namespace
