// Occlusion culling (kernels/frame/geometry/occlusion.h) changes no pixel: every frame of camera paths that
// orbit, cut to the far side, and go close enough to clip the near plane draws what the CPU
// backend (which culls nothing by occlusion) draws, whatever the frame before showed; and on a
// closed mesh it does skip meshlets.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/cuda/cuda_renderer.h"
#include "engine/load/load_model.h"
#include "engine/scene/generate.h"
#include "tests/gpu/backend_agreement.h"
#include "tests/support/gpu_skip.h"
#include "tests/support/test_scenes.h"

using namespace facet;

namespace {

class OcclusionFrames : public ::testing::Test {
 protected:
  void SetUp() override { FACET_SKIP_WITHOUT_CUDA(); }
};

// Cameras around the model's bounding sphere: an orbit in steps, a cut to the opposite side,
// and a close one inside the sphere of the model.
std::vector<Camera> camera_path(const Bounds& b) {
  const glm::vec3 c{b.center.x, b.center.y, b.center.z};
  std::vector<Camera> path;
  for (int k = 0; k < 7; ++k) {
    const float a = 0.35f * (float)k;
    Camera cam = Camera::framing(b, 4.0f / 3.0f);
    const float d = glm::length(cam.eye - c);
    cam.eye = c + d * glm::vec3(std::sin(a), 0.3f, std::cos(a));
    cam.fit_clip_planes(b);
    path.push_back(cam);
  }
  Camera cut = path.front();
  cut.eye = c - (cut.eye - c);  // the far side: last frame's visible meshlets are the hidden ones
  cut.fit_clip_planes(b);
  path.push_back(cut);
  path.push_back(cut);
  Camera close = path.front();
  close.eye = c + (close.eye - c) * 0.2f;
  close.near_plane = b.radius * 0.05f;
  close.far_plane = b.radius * 4.0f;
  path.push_back(close);
  path.push_back(path.front());
  return path;
}

void expect_path_agrees(const std::shared_ptr<Scene>& scene, const std::string& name, bool expect_occluded) {
  CudaRenderer gpu;
  gpu.set_options({true, OcclusionMode::Always, false});  // the passes run on claiming blocks
  gpu.set_scene(scene);
  uint64_t occluded = 0;
  int frame = 0;
  for (const Camera& cam : camera_path(scene->bounds)) {
    for (auto [w, h] : {std::pair{320, 240}}) {
      const std::string label = name + "-occlusion-" + std::to_string(frame++);
      // Two-sided: a closed model skipping its hidden back faces leaves the passes little to
      // skip (that path is the default one, tested everywhere else).
      const FrameParams fp = test::frame_params(*scene, cam, w, h, test::two_sided());
      EXPECT_GT(test::expect_backends_agree(gpu, scene, fp, label), 0u) << label;
      occluded += gpu.stats().tris.occluded;
    }
  }
  // Frames of one shape replay two graphs (with and without the clear), updated in place.
  EXPECT_EQ(gpu.graph_instantiations(), 2) << name;
  if (expect_occluded) {
    EXPECT_GT(occluded, scene->triangle_count() / 10) << name << ": occlusion culling skipped almost nothing";
  }
}

}  // namespace

TEST_F(OcclusionFrames, SphereDrawsWhatTheCpuDraws) {
  expect_path_agrees(std::make_shared<Scene>(make_sphere(200000)), "sphere-200K", true);
}

TEST_F(OcclusionFrames, ScannedModelsDrawWhatTheCpuDraws) {
  for (const char* rel :
       {"bunny/stanford-bunny.obj", "dragon/dragon_vrip_res2.obj", "spot/spot_triangulated_with_mtl.obj"})
    expect_path_agrees(std::make_shared<Scene>(load_model(test::shared_asset(rel))), rel, false);
}

TEST_F(OcclusionFrames, OffDrawsTheSameAndSkipsNothing) {
  auto scene = std::make_shared<Scene>(make_sphere(200000));
  CudaRenderer gpu;
  gpu.set_options({true, OcclusionMode::Off, false});
  gpu.set_scene(scene);
  for (const Camera& cam : camera_path(scene->bounds)) {
    test::expect_backends_agree(gpu, scene, test::frame_params(*scene, cam, 320, 240), "sphere-off");
    EXPECT_EQ(gpu.stats().tris.occluded, 0u);
  }
}
