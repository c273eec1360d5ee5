// Each scene triangle's meshlet, written on the device when occlusion culling first needs it
// (kernels/prepare/triangle_meshlets.cu), equals its host reference (tests/support/triangle_meshlets.h)
// entry for entry: for meshlets kept in the file's order (no triangle ids) and for grown
// patches (a permutation of the triangles). Skips, saying why, where no CUDA device exists.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/cuda/device_scene.h"
#include "engine/load/load_model.h"
#include "engine/scene/generate.h"
#include "tests/support/gpu_skip.h"
#include "tests/support/scene_edits.h"
#include "tests/support/test_scenes.h"
#include "tests/support/triangle_meshlets.h"

using namespace facet;

namespace {

void expect_same_as_host(const Scene& s, const std::string& label) {
  DeviceScene device;
  device.upload(s);
  EXPECT_EQ(device.triangle_meshlet(), nullptr) << label << ": built before a frame needs them";
  const size_t bytes = device.bytes();
  ASSERT_TRUE(device.build_triangle_meshlets(cudaStreamLegacy)) << label;
  EXPECT_EQ(device.bytes(), bytes + 4 * (size_t)s.triangle_count()) << label;
  FACET_CUDA_CHECK(cudaStreamSynchronize(cudaStreamLegacy));
  std::vector<uint32_t> on_device(s.triangle_count());
  FACET_CUDA_CHECK(
      cudaMemcpy(on_device.data(), device.triangle_meshlet(), on_device.size() * 4, cudaMemcpyDeviceToHost));
  const std::shared_ptr<const Meshlets> m = scene_meshlets(s);
  const std::unique_ptr<uint32_t[]> host = triangle_meshlets(*m, s.triangle_count());
  size_t differ = 0;
  for (size_t t = 0; t < on_device.size(); ++t) differ += on_device[t] != host[t];
  EXPECT_EQ(differ, 0u) << label << ": of " << on_device.size();
  EXPECT_GT(m->meshlets.size(), 10u) << label;
}

TEST(TriangleMeshletsGpu, FileOrderAndPatchesMatchTheHost) {
  FACET_SKIP_WITHOUT_CUDA();
  const Scene sphere = make_sphere(200000);
  ASSERT_TRUE(scene_meshlets(sphere)->triangle_ids.empty());  // strips kept in the file's order
  expect_same_as_host(sphere, "sphere");
  // A scan in the file's order: grown patches, each slot naming its triangle. As loaded, the
  // same scan renumbered in its patches' order (triangle_renumber.h): slot i holds triangle i.
  const Scene loaded = load_model(test::shared_asset("bunny/stanford-bunny.obj"));
  const Scene bunny = test::in_file_order(loaded);
  ASSERT_FALSE(scene_meshlets(bunny)->triangle_ids.empty());
  expect_same_as_host(bunny, "bunny");
  ASSERT_FALSE(loaded.file_triangle.empty());
  ASSERT_TRUE(loaded.meshlets->triangle_ids.empty());
  expect_same_as_host(loaded, "bunny renumbered");
}

}  // namespace
