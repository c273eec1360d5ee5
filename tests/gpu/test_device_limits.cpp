// Device limits: a scene that does not fit in device memory is refused with a message naming
// what was being allocated and how much, before anything is half-uploaded, and the previous
// scene keeps rendering; a frame larger than the pipeline allows is refused up front.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstring>

#include "engine/cuda/cuda_renderer.h"
#include "engine/generate.h"
#include "tests/support/gpu_skip.h"
#include "tests/support/test_scenes.h"

using namespace facet;

namespace {

class DeviceLimits : public ::testing::Test {
 protected:
  void SetUp() override {
    FACET_SKIP_WITHOUT_CUDA();
  }
};

}  // namespace

TEST_F(DeviceLimits, SceneLargerThanFreeMemoryIsRefusedAndThePreviousOneStays) {
  auto small = std::make_shared<Scene>(make_sphere(2000));
  auto big = std::make_shared<Scene>(make_sphere(4000000));  // ~150 MB on the device
  CudaRenderer gpu;
  gpu.set_scene(small);
  Camera cam = test::look_at({0, 0, 3}, {0, 0, 0}, 45.0f, 0.1f, 10.0f);
  gpu.render(cam, {}, 320, 240);
  std::vector<uint32_t> before, after;
  gpu.read_triangle_ids(before);

  // Take all but 64 MB of the free memory, so that the big scene cannot fit.
  size_t free_b = 0, total_b = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_b, &total_b), cudaSuccess);
  void* blocker = nullptr;
  size_t take = free_b - (64u << 20);
  ASSERT_EQ(cudaMalloc(&blocker, take), cudaSuccess);
  std::string message;
  try {
    gpu.set_scene(big);
  } catch (const std::exception& e) {
    message = e.what();
  }
  cudaFree(blocker);
  EXPECT_NE(message.find("out of device memory"), std::string::npos) << message;
  EXPECT_NE(message.find("MiB"), std::string::npos) << message;

  // The small scene is still the one drawn, unchanged.
  gpu.render(cam, {}, 320, 240);
  gpu.read_triangle_ids(after);
  EXPECT_EQ(before, after);
  EXPECT_EQ(gpu.stats().triangles_in, small->triangle_count());
}

TEST_F(DeviceLimits, FrameLargerThanThePipelineAllowsIsRefused) {
  CudaRenderer gpu;
  gpu.set_scene(std::make_shared<Scene>(make_sphere(2000)));
  Camera cam = test::look_at({0, 0, 3}, {0, 0, 0}, 45.0f, 0.1f, 10.0f);
  EXPECT_THROW(gpu.render(cam, {}, kMaxFrameSide + 1, 100), std::invalid_argument);
  EXPECT_THROW(gpu.render(cam, {}, 0, 100), std::invalid_argument);
  gpu.render(cam, {}, 64, 64);  // and it still works afterwards
  std::vector<uint32_t> ids;
  gpu.read_triangle_ids(ids);
  EXPECT_EQ(ids.size(), 64u * 64u);
}
