// The patch meshlets' Morton order on the device (engine/cuda/device_centroid_order.h) is the CPU's
// (patch_ranges) element for element: on the shared models, every edge-case model that loads, a
// sphere, corners that are non-finite, repeated, all on one point or -0 and +0 on the box's side,
// and four tiled dragons; a
// load whose head start gives it builds the CPU's meshlets; the renderer sorts only the scene it
// was sent ahead. Skips, saying why, where no CUDA device exists.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "engine/cuda/cuda_renderer.h"
#include "engine/cuda/device_centroid_order.h"
#include "engine/load/load_model.h"
#include "engine/meshlets/meshlet_ranges.h"
#include "engine/meshlets/meshlets.h"
#include "engine/scene/generate.h"
#include "tests/support/device_mesh.h"
#include "tests/support/gpu_skip.h"
#include "tests/support/scene_edits.h"
#include "tests/support/test_scenes.h"

using namespace facet;

namespace {

class CentroidOrderGpu : public ::testing::Test {
 protected:
  void SetUp() override { FACET_SKIP_WITHOUT_CUDA(); }
};

// The device's order for the scene's positions and indices, uploaded here.
std::unique_ptr<uint32_t[]> on_device(const Scene& s) {
  const test::DeviceMesh mesh(s);
  return centroid_order_on_device(mesh.vertices.data(), (uint32_t)s.positions.size(), mesh.indices.data(),
                                  s.triangle_count());
}

void expect_cpu_order(const Scene& s, const std::string& label) {
  BackgroundRelease release;
  const std::unique_ptr<uint32_t[]> cpu = patch_ranges(s, release).order;
  const std::unique_ptr<uint32_t[]> gpu = on_device(s);
  const uint32_t n = s.triangle_count();
  ASSERT_TRUE(gpu != nullptr) << label;
  uint32_t first_difference = n;
  for (uint32_t i = 0; i < n && first_difference == n; ++i)
    if (cpu[i] != gpu[i]) first_difference = i;
  EXPECT_EQ(first_difference, n) << label << ": the orders part at rank " << first_difference << " of " << n;
}

TEST_F(CentroidOrderGpu, SharedModelsAndEdgeCases) {
  for (const char* model : {"spot/spot_triangulated_with_mtl.obj", "bunny/stanford-bunny.obj", "dragon/dragon_vrip.obj",
                            "teapot/teapot.obj", "cornell_box/CornellBox-Original.obj"})
    expect_cpu_order(load_model(test::shared_asset(model)), model);
  EXPECT_GT(test::for_each_loadable_edge_case(expect_cpu_order), 10);
}

TEST_F(CentroidOrderGpu, SpheresOddCornersAndTiledDragons) {
  expect_cpu_order(make_sphere(200000), "sphere");
  Scene odd = make_sphere(2000);
  odd.positions[3].x = NAN;
  odd.positions[5].y = INFINITY;
  odd.positions[7].z = -INFINITY;
  odd.positions[9] = odd.positions[10];
  expect_cpu_order(odd, "non-finite and repeated corners");
  Scene point = make_sphere(2000);
  for (Vec3& p : point.positions) p = {1.0f, 2.0f, 3.0f};
  expect_cpu_order(point, "every corner on one point");
  Scene nothing_finite = make_sphere(200);
  for (Vec3& p : nothing_finite.positions) p.y = NAN;
  expect_cpu_order(nothing_finite, "no finite corner");
  Scene zeros = make_sphere(2000);  // the box's least x is 0, as -0 and +0 in turn
  for (size_t v = 0; v < zeros.positions.size(); ++v)
    if (zeros.positions[v].x <= 0) zeros.positions[v].x = v % 2 ? -0.0f : 0.0f;
  expect_cpu_order(zeros, "-0 and +0 on the box's side");
  const Scene dragon = load_model(test::shared_asset("dragon/dragon_vrip.obj"));
  expect_cpu_order(test::tiled(dragon, 4, 1.5f * (dragon.bounds.max.x - dragon.bounds.min.x)), "four dragons");
}

TEST_F(CentroidOrderGpu, ALoadGivenItBuildsTheCpusMeshlets) {
  const Scene plain = load_model(test::shared_asset("dragon/dragon_vrip.obj"));
  CudaRenderer renderer;
  int given = 0;
  LoadOptions options;
  options.while_preparing = [&](const Scene& fresh, HeadStart& head) -> std::optional<bool> {
    head.promise_order();
    renderer.upload_ahead(fresh, UploadPart::Shading);
    std::unique_ptr<uint32_t[]> order = renderer.centroid_order_ahead(fresh);
    given += order != nullptr;
    head.give_order(std::move(order));
    return std::nullopt;
  };
  const Scene ahead = load_model(test::shared_asset("dragon/dragon_vrip.obj"), options);
  EXPECT_EQ(given, 1);
  const Meshlets& a = *ahead.meshlets;
  const Meshlets& b = *plain.meshlets;
  ASSERT_EQ(a.meshlets.size(), b.meshlets.size());
  EXPECT_EQ(std::memcmp(a.meshlets.data(), b.meshlets.data(), a.meshlets.size() * sizeof(Meshlet)), 0);
  EXPECT_EQ(a.triangles, b.triangles);
  EXPECT_EQ(a.triangle_ids, b.triangle_ids);
}

TEST_F(CentroidOrderGpu, TheRendererSortsTheSceneSentAheadOnly) {
  const Scene bunny = load_model(test::shared_asset("bunny/stanford-bunny.obj"));
  const Scene spot = load_model(test::shared_asset("spot/spot_triangulated_with_mtl.obj"));
  CudaRenderer renderer;
  EXPECT_TRUE(renderer.centroid_order_ahead(bunny) == nullptr);  // nothing sent
  renderer.upload_ahead(bunny, UploadPart::Shading);
  EXPECT_TRUE(renderer.centroid_order_ahead(spot) == nullptr);  // another scene
  EXPECT_TRUE(renderer.centroid_order_ahead(bunny) != nullptr);
}

}  // namespace
