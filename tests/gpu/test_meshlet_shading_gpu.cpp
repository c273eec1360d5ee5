// The meshlet layout of the shading that the upload builds on the device
// (kernels/prepare/meshlet_shading.cu) equals its host reference (tests/support/meshlet_shading.h) entry
// for entry, for meshlets kept in the file's order (no triangle ids) and for grown patches (a
// permutation of the triangles), with uvs and vertex colours; and once it is built the scene
// vertex layout is gone from the device. The upload's host route (the layout built on the host,
// for a device without room for the vertex records) sends the same bytes. Skips, saying why, where
// no CUDA device exists.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "engine/cuda/device_scene.h"
#include "engine/cuda/staged_upload.h"
#include "engine/load/load_model.h"
#include "engine/scene/generate.h"
#include "tests/support/gpu_skip.h"
#include "tests/support/meshlet_shading.h"
#include "tests/support/scene_edits.h"
#include "tests/support/test_scenes.h"

using namespace facet;

namespace {

template <class T>
std::vector<T> download(const T* device, size_t n) {
  std::vector<T> host(n);
  if (n) FACET_CUDA_CHECK(cudaMemcpy(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost));
  return host;
}

template <class T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

void expect_same_as_host(const Scene& s, const std::string& label, bool host_route = false) {
  DeviceScene device;
  if (host_route) {
    StagedUpload staged;
    device.upload_from_host(s, *scene_meshlets(s), staged);
  } else {
    device.upload(s);
  }
  EXPECT_EQ(device.vertex_records(), nullptr) << label << ": the scene vertex layout stayed on the device";
  EXPECT_EQ(device.vertex_indices(), nullptr) << label;
  const SceneView v = device.view();
  ASSERT_TRUE(meshlet_layout(v)) << label;
  EXPECT_EQ(v.shade, nullptr) << label;
  const std::shared_ptr<const Meshlets> m = scene_meshlets(s);
  const HostMeshletShading h = host_meshlet_shading(s, m, interleave_shade_vertices(s));
  const size_t vertices = m->positions.size();
  EXPECT_TRUE(same_bytes(download(v.meshlet.corners, s.triangle_count()), h.corners)) << label;
  ASSERT_EQ(v.meshlet.base_shift, h.bases.shift) << label;
  const std::vector<uint32_t> bases(h.bases.bases.begin(), h.bases.bases.end());
  EXPECT_TRUE(same_bytes(download(v.meshlet.vertex_bases, bases.size()), bases)) << label;
  EXPECT_TRUE(same_bytes(download(v.meshlet.points, vertices), h.points)) << label;
  EXPECT_EQ(v.meshlet.uvs == nullptr, h.uvs.empty()) << label;
  if (v.meshlet.uvs) {
    EXPECT_TRUE(same_bytes(download(v.meshlet.uvs, vertices), h.uvs)) << label;
  }
  EXPECT_EQ(v.colors == nullptr, h.colors.empty()) << label;
  if (v.colors) {
    EXPECT_TRUE(same_bytes(download(v.colors, vertices), h.colors)) << label;
  }
  EXPECT_GT(m->meshlets.size(), 10u) << label;
}

class MeshletShadingRoutes : public ::testing::TestWithParam<bool> {};

TEST_P(MeshletShadingRoutes, FileOrderAndPatchesMatchTheHost) {
  FACET_SKIP_WITHOUT_CUDA();
  const bool host_route = GetParam();
  Scene sphere = make_sphere(200000);
  for (uint32_t v = 0; v < sphere.vertex_count(); ++v) sphere.colors.push_back({(uint8_t)v, (uint8_t)(v >> 8), 9, 255});
  ASSERT_TRUE(scene_meshlets(sphere)->triangle_ids.empty());  // strips kept in the file's order
  expect_same_as_host(sphere, "sphere", host_route);
  // A scan in the file's order: grown patches, each slot naming its triangle. As loaded, the
  // same scan renumbered in its patches' order (triangle_renumber.h): slot i holds triangle i.
  const Scene loaded = load_model(test::shared_asset("bunny/stanford-bunny.obj"));
  const Scene bunny = test::in_file_order(loaded);
  ASSERT_FALSE(scene_meshlets(bunny)->triangle_ids.empty());
  expect_same_as_host(bunny, "bunny", host_route);
  ASSERT_FALSE(loaded.file_triangle.empty());
  ASSERT_TRUE(loaded.meshlets->triangle_ids.empty());
  expect_same_as_host(loaded, "bunny renumbered", host_route);
  // The renumbered scene keeps neither slot ids nor packed indices beside its corner words, whose
  // low bits the geometry stage reads instead, and a vertex base for 32 triangles where the same
  // meshlets in the file's order need one a triangle: nearly 12 bytes a triangle fewer.
  DeviceScene renumbered, file_order;
  if (host_route) {
    StagedUpload staged;
    renumbered.upload_from_host(loaded, *loaded.meshlets, staged);
    file_order.upload_from_host(bunny, *scene_meshlets(bunny), staged);
  } else {
    renumbered.upload(loaded);
    file_order.upload(bunny);
  }
  EXPECT_TRUE(renumbered.slots_in_corners());
  EXPECT_FALSE(file_order.slots_in_corners());
  const size_t triangles = loaded.triangle_count(), blocks = ((triangles - 1) >> kCornerBaseShift) + 1;
  EXPECT_EQ(file_order.bytes() - renumbered.bytes(), 12 * triangles - 4 * blocks);
  const Scene spot = load_model(test::shared_asset("spot/spot_triangulated_with_mtl.obj"));
  ASSERT_FALSE(spot.uvs.empty());
  expect_same_as_host(spot, "Spot", host_route);
}

INSTANTIATE_TEST_SUITE_P(MeshletShadingGpu, MeshletShadingRoutes, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& i) {
                           return std::string(i.param ? "HostRoute" : "VertexRoute");
                         });

}  // namespace
