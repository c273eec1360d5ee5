// Device limits: a scene that does not fit in device memory is refused with a message naming
// what was being allocated and how much, before anything is half-uploaded, and the previous
// scene keeps rendering; a frame larger than the pipeline allows is refused up front. A scene
// that fits but whose vertex records do not fit beside it takes the upload's host route: no head
// start, nothing on the device at any moment but the finished scene, and the same frame.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "engine/cuda/cuda_renderer.h"
#include "engine/cuda/device_buffer.h"
#include "engine/cuda/device_scene.h"
#include "engine/scene/generate.h"
#include "tests/support/gpu_skip.h"
#include "tests/support/test_scenes.h"

using namespace facet;

namespace {

class DeviceLimits : public ::testing::Test {
 protected:
  void SetUp() override { FACET_SKIP_WITHOUT_CUDA(); }
};

// Holds all but `leave` bytes of the device's free memory until destroyed.
class MemoryBlocker {
 public:
  explicit MemoryBlocker(size_t leave) {
    size_t free_b = 0, total_b = 0;
    EXPECT_EQ(cudaMemGetInfo(&free_b, &total_b), cudaSuccess);
    if (free_b > leave) {
      EXPECT_EQ(cudaMalloc(&m_block, free_b - leave), cudaSuccess);
    }
  }
  ~MemoryBlocker() {
    if (m_block) cudaFree(m_block);
  }
  MemoryBlocker(const MemoryBlocker&) = delete;
  MemoryBlocker& operator=(const MemoryBlocker&) = delete;

 private:
  void* m_block = nullptr;
};

struct Drawn {
  std::vector<uint32_t> ids;
  std::vector<Rgba8> rgba;
};

Drawn draw(CudaRenderer& r) {
  r.render(test::look_at({0, 0, 3}, {0, 0, 0}, 45.0f, 0.1f, 10.0f), {}, 320, 240);
  Drawn d;
  r.read_triangle_ids(d.ids);
  r.read_rgba(d.rgba);
  return d;
}

void expect_same(const Drawn& a, const Drawn& b) {
  size_t covered = 0;
  for (uint32_t id : a.ids) covered += id != ~0u;
  EXPECT_GT(covered, 1000u);
  EXPECT_TRUE(a.ids == b.ids);
  EXPECT_TRUE(a.rgba.size() == b.rgba.size() &&
              std::memcmp(a.rgba.data(), b.rgba.data(), a.rgba.size() * sizeof(Rgba8)) == 0);
}

// 2 M triangles: 56 MB of vertex records and index triples beside a finished scene of about
// 60 MB, both well above the allocator's 2 MiB granules.
std::shared_ptr<Scene> big_sphere() { return std::make_shared<Scene>(make_sphere(2000000)); }

// The big sphere as a renderer with the whole card holds and draws it: what a renderer given less
// room must match.
struct WithRoom {
  std::shared_ptr<Scene> scene = big_sphere();
  size_t scene_bytes = 0;
  Drawn frame;
};

WithRoom drawn_with_room() {
  WithRoom w;
  CudaRenderer roomy;
  roomy.set_scene(w.scene);
  w.scene_bytes = roomy.stats().scene_bytes;
  w.frame = draw(roomy);
  return w;
}

}  // namespace

TEST_F(DeviceLimits, ASceneWithoutRoomForItsVertexRecordsTakesTheHostRouteAndDrawsTheSame) {
  const WithRoom want = drawn_with_room();
  const std::shared_ptr<Scene>& big = want.scene;
  const size_t scene = want.scene_bytes;
  CudaRenderer tight;
  std::string message;
  {
    MemoryBlocker blocker(scene + (size_t(64) << 20));
    EXPECT_FALSE(DeviceScene::room_for_vertex_route(*big));
    try {
      tight.upload_ahead(*big, UploadPart::Shading);
    } catch (const DeviceOutOfMemory& e) {
      message = e.what();
    }
    const size_t held = device_bytes_held();
    reset_device_bytes_peak();
    tight.set_scene(big);
    // Nothing but the finished scene was allocated, at any moment of the upload.
    EXPECT_EQ(device_bytes_peak() - held, scene);
  }
  EXPECT_NE(message.find("no room on the device"), std::string::npos) << "the head start went: " << message;
  EXPECT_EQ(tight.stats().scene_bytes, scene);
  expect_same(draw(tight), want.frame);
}

TEST_F(DeviceLimits, AHeadStartWithoutRoomForItsLayoutGivesWayToTheHostRoute) {
  const WithRoom want = drawn_with_room();
  CudaRenderer ahead;
  ahead.upload_ahead(*want.scene, UploadPart::Shading);  // the records are on the device now
  {
    // Too little for the layout beside them, enough once they are gone.
    MemoryBlocker blocker(want.scene_bytes - (size_t(16) << 20));
    ahead.set_scene(want.scene);
  }
  EXPECT_EQ(ahead.stats().scene_bytes, want.scene_bytes);
  expect_same(draw(ahead), want.frame);
}

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
