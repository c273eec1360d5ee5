// Renderer::upload_ahead on the CUDA backend: a scene whose shading arrays went to the device
// while its meshlets were built (the load's while_preparing) draws the same bytes and triangle ids
// as the scene sent whole by set_scene, on a textured model and one with several materials; so
// does one sent whole ahead (the viewer's load thread); a head start for another scene is not
// used; the device scene knows which parts of which scene it holds. A shuffled model of several
// materials, renumbered by the load after its head start went (engine/meshlets/triangle_renumber.h), draws
// what the CPU draws and numbers its triangle_id outputs, host and device, as the file does.
// Skips, saying why, where no CUDA device exists.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/cuda/cuda_renderer.h"
#include "engine/cuda/device_buffer.h"
#include "engine/cuda/device_scene.h"
#include "engine/cuda/staged_upload.h"
#include "engine/load/load_model.h"
#include "engine/render/cpu_renderer.h"
#include "engine/render/frame_outputs.h"
#include "engine/scene/generate.h"
#include "tests/support/gpu_skip.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/shuffled_obj.h"
#include "tests/support/test_scenes.h"

using namespace facet;

namespace {

class UploadAhead : public ::testing::Test {
 protected:
  void SetUp() override { FACET_SKIP_WITHOUT_CUDA(); }
};

struct Frame {
  std::vector<Rgba8> rgba;
  std::vector<uint32_t> ids;
};

Frame draw(CudaRenderer& renderer, const Scene& scene) {
  const Camera camera = Camera::framing(scene.bounds, 4.0f / 3.0f);
  renderer.render(test::frame_params(scene, camera, 320, 240));
  Frame f;
  renderer.read_rgba(f.rgba);
  renderer.read_triangle_ids(f.ids);
  return f;
}

bool same_pixels(const std::vector<Rgba8>& a, const std::vector<Rgba8>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Rgba8)) == 0;
}

size_t covered(const Frame& f) {
  size_t n = 0;
  for (uint32_t id : f.ids) n += id != ~0u;
  return n;
}

// `a` and `b` hold the same scene, however it got there: the same bytes on the device, the same
// frame, and enough of it drawn for that to mean something.
void expect_same_frames(CudaRenderer& a, CudaRenderer& b, const Scene& scene, const std::string& label) {
  EXPECT_EQ(a.stats().scene_bytes, b.stats().scene_bytes) << label;
  const Frame fa = draw(a, scene), fb = draw(b, scene);
  EXPECT_GT(covered(fb), 1000u) << label << ": too little drawn to compare";
  EXPECT_TRUE(fa.ids == fb.ids) << label;
  EXPECT_TRUE(same_pixels(fa.rgba, fb.rgba)) << label;
}

// The model loaded with the head start into one renderer and sent whole to another.
std::shared_ptr<Scene> expect_ahead_draws_like_whole(const std::string& path) {
  CudaRenderer ahead, whole;
  LoadOptions options;
  int calls = 0;
  options.while_preparing = [&](const Scene& s, HeadStart&) -> std::optional<bool> {
    ++calls;
    ahead.upload_ahead(s, UploadPart::Shading);
    return std::nullopt;
  };
  auto scene = std::make_shared<Scene>(load_model(path, options));
  EXPECT_EQ(calls, 1) << path;
  ahead.set_scene(scene);
  whole.set_scene(scene);
  expect_same_frames(ahead, whole, *scene, path);
  return scene;
}

// The triangle_id output of `r`'s last frame, from host memory or from device memory.
std::vector<int32_t> triangle_id_output(Renderer& r, size_t pixels, bool on_device) {
  std::vector<int32_t> ids(pixels, -7);
  FrameOutputs out;
  if (!on_device) {
    out.triangle_id = ids.data();
    r.read_outputs(out);
    return ids;
  }
  DeviceBuffer<int32_t> d;
  d.allocate(pixels, "test triangle ids");
  out.triangle_id = d.data();
  out.on_device = true;
  r.read_outputs(out);
  FACET_CUDA_CHECK(cudaMemcpy(ids.data(), d.data(), pixels * sizeof(int32_t), cudaMemcpyDeviceToHost));
  return ids;
}

}  // namespace

TEST_F(UploadAhead, ATexturedModelSentAheadDrawsLikeOneSentWhole) {
  expect_ahead_draws_like_whole(test::shared_asset("spot/spot_triangulated_with_mtl.obj"));
}

TEST_F(UploadAhead, AModelOfSeveralMaterialsSentAheadDrawsLikeOneSentWhole) {
  expect_ahead_draws_like_whole(test::shared_asset("cornell_box/CornellBox-Original.obj"));
}

TEST_F(UploadAhead, AShuffledModelRenumberedAfterItsHeadStartDrawsWhatTheCpuDraws) {
  test::ScratchDir dir;
  const test::ShuffledSphere file = test::write_shuffled_sphere(dir.path(""), 30000, 3, 5);
  std::shared_ptr<Scene> scene = expect_ahead_draws_like_whole(file.obj_path);
  ASSERT_FALSE(scene->file_triangle.empty()) << "a shuffled file's patches renumber it";
  ASSERT_FALSE(scene->tri_material.empty());
  // The head start sent the file's order: the renderer given it must match the CPU too.
  CudaRenderer ahead;
  LoadOptions options;
  options.while_preparing = [&](const Scene& s, HeadStart&) -> std::optional<bool> {
    ahead.upload_ahead(s, UploadPart::Shading);
    return std::nullopt;
  };
  auto again = std::make_shared<Scene>(load_model(file.obj_path, options));
  ahead.set_scene(again);
  CpuRenderer cpu;
  cpu.set_scene(again);
  const Camera camera = Camera::framing(again->bounds, 4.0f / 3.0f);
  const FrameParams fp = test::frame_params(*again, camera, 320, 240);
  ahead.render(fp);
  cpu.render(fp);
  std::vector<Rgba8> a, c;
  ahead.read_rgba(a);
  cpu.read_rgba(c);
  EXPECT_TRUE(same_pixels(a, c)) << "materials and corners found through the file's numbers";
  const size_t pixels = (size_t)320 * 240;
  const std::vector<int32_t> want = triangle_id_output(cpu, pixels, false);
  size_t covered = 0;
  for (int32_t id : want) covered += id >= 0;
  EXPECT_GT(covered, 1000u);
  EXPECT_TRUE(triangle_id_output(ahead, pixels, false) == want) << "host outputs";
  EXPECT_TRUE(triangle_id_output(ahead, pixels, true) == want) << "device outputs";
}

TEST_F(UploadAhead, AHeadStartForAnotherSceneIsNotUsed) {
  auto first = std::make_shared<Scene>(make_sphere(2000));
  auto second = std::make_shared<Scene>(make_sphere(20000));
  CudaRenderer switched, fresh;
  switched.upload_ahead(*first, UploadPart::Whole);
  switched.set_scene(second);
  fresh.set_scene(second);
  EXPECT_EQ(switched.stats().triangles_in, second->triangle_count());
  expect_same_frames(switched, fresh, *second, "switched");
}

TEST_F(UploadAhead, AWholeSceneSentAheadDrawsLikeOneSentBySetScene) {
  auto scene = std::make_shared<Scene>(load_model(test::shared_asset("spot/spot_triangulated_with_mtl.obj")));
  ASSERT_TRUE(scene->meshlets);
  CudaRenderer ahead, whole;
  ahead.upload_ahead(*scene, UploadPart::Whole);
  ahead.set_scene(scene);
  whole.set_scene(scene);
  expect_same_frames(ahead, whole, *scene, "spot, whole ahead");
}

TEST_F(UploadAhead, TheDeviceSceneKnowsWhichPartsOfWhichSceneItHolds) {
  auto scene = std::make_shared<Scene>(load_model(test::shared_asset("cornell_box/CornellBox-Original.obj")));
  const Scene other = make_sphere(2000);
  DeviceScene device;
  StagedUpload staged;
  device.upload_shading(*scene, staged);
  EXPECT_TRUE(device.holds_shading_of(*scene));
  EXPECT_FALSE(device.holds_meshlets_of(*scene));
  EXPECT_FALSE(device.holds_shading_of(other));
  device.upload_meshlets(*scene, staged);
  EXPECT_TRUE(device.holds_meshlets_of(*scene));
  const Scene moved = std::move(*scene);  // moved arrays keep their storage: still the same scene
  EXPECT_TRUE(device.holds_shading_of(moved));
  EXPECT_TRUE(device.holds_meshlets_of(moved));
}
