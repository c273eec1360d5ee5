// Orthographic frames on the CUDA backend against the CPU reference: the same triangle ids, the
// same colours (lit with the headlight along the view, depth shading, the ground grid: the same
// bytes), the same counters with whole-meshlet culling from the view direction and with
// occlusion culling, and the same depth output bits. Skips, saying why, where no CUDA device exists.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "engine/cuda/cuda_renderer.h"
#include "engine/load/load_model.h"
#include "engine/scene/generate.h"
#include "tests/gpu/backend_agreement.h"
#include "tests/support/gpu_skip.h"
#include "tests/support/test_scenes.h"

using namespace facet;

namespace {

class OrthographicGpu : public ::testing::Test {
 protected:
  void SetUp() override { FACET_SKIP_WITHOUT_CUDA(); }
};

// Orthographic cameras about a model: framed (the perspective framing switched), from the far
// side, zoomed in past the frame's edges, and with the eye inside the model.
std::vector<Camera> ortho_cameras(const Bounds& b) {
  const glm::vec3 c{b.center.x, b.center.y, b.center.z};
  std::vector<Camera> out;
  Camera framed = Camera::framing(b, 4.0f / 3.0f);
  framed.set_projection(Projection::Orthographic);
  framed.fit_clip_planes(b);
  out.push_back(framed);
  Camera back = framed;
  back.eye = c - (framed.eye - c);
  back.fit_clip_planes(b);
  out.push_back(back);
  Camera zoomed = framed;
  zoomed.ortho_height *= 0.2f;
  zoomed.target = c + glm::vec3(0.3f * b.radius, 0.1f * b.radius, 0);
  zoomed.eye = zoomed.target + (framed.eye - c);
  zoomed.fit_clip_planes(b);
  out.push_back(zoomed);
  Camera inside = framed;
  inside.eye = c + (framed.eye - c) * 0.1f;
  inside.fit_clip_planes(b);
  out.push_back(inside);
  return out;
}

// Both backends' RGBA bytes equal (expect_backends_agree allows 1/255).
void expect_same_bytes(CudaRenderer& gpu, const std::shared_ptr<Scene>& scene, const FrameParams& fp,
                       const std::string& label) {
  EXPECT_GT(test::expect_backends_agree(gpu, scene, fp, label), 0u) << label;
  CpuRenderer cpu;
  cpu.set_scene(scene);
  cpu.render(fp);
  std::vector<Rgba8> a, b;
  cpu.read_rgba(a);
  gpu.render(fp);
  gpu.read_rgba(b);
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(Rgba8)), 0) << label;
}

}  // namespace

TEST_F(OrthographicGpu, ModelsInEveryShadingModeMatchTheCpu) {
  for (const char* rel : {"spot/spot_triangulated_with_mtl.obj", "bunny/stanford-bunny.obj"}) {
    auto scene = std::make_shared<Scene>(load_model(test::shared_asset(rel)));
    CudaRenderer gpu;
    gpu.set_scene(scene);
    int k = 0;
    for (const Camera& cam : ortho_cameras(scene->bounds))
      for (Shading sh : {Shading::Lit, Shading::Texture, Shading::Normals, Shading::Depth}) {
        RenderOptions s;
        s.shading = sh;
        expect_same_bytes(gpu, scene, test::frame_params(*scene, cam, 640, 480, s),
                          std::string(rel) + "-ortho-" + std::to_string(k++));
      }
  }
}

TEST_F(OrthographicGpu, MeshletCullingAndOcclusionCullingMatchTheCpu) {
  auto scene = std::make_shared<Scene>(make_sphere(2000000));
  for (OcclusionMode mode : {OcclusionMode::Auto, OcclusionMode::Always}) {
    CudaRenderer gpu;
    gpu.set_options({true, mode, mode == OcclusionMode::Always});
    gpu.set_scene(scene);
    RenderOptions cull;
    cull.cull_backfaces = true;
    int k = 0;
    for (const Camera& cam : ortho_cameras(scene->bounds)) {
      const std::string label = "sphere-2M-ortho-" + std::to_string(k++);
      EXPECT_GT(
          test::expect_backends_agree(gpu, scene, test::frame_params(*scene, cam, 1280, 720, cull), label + "-culled"),
          0u);
      EXPECT_GT(test::expect_backends_agree(gpu, scene, test::frame_params(*scene, cam, 1280, 720, test::two_sided()),
                                            label + "-two-sided"),
                0u);
    }
  }
}

TEST_F(OrthographicGpu, GroundGridAndDepthOutputAreTheCpusBits) {
  auto scene = std::make_shared<Scene>(make_sphere(5000));
  Camera cam = test::ortho_look_at({0.5f, 1.8f, 4.0f}, {0, 0, 0}, 3.0f, 0.05f, 50.0f);
  RenderOptions settings;
  settings.ground_grid = true;
  CpuRenderer cpu;
  CudaRenderer gpu;
  cpu.set_scene(scene);
  gpu.set_scene(scene);
  cpu.render(cam, settings, 320, 240);
  gpu.render(cam, settings, 320, 240);
  const size_t n = 320 * 240;
  std::vector<Rgba8> ca(n), cb(n);
  std::vector<float> da(n), db(n);
  FrameOutputs out;
  out.color = ca.data();
  out.depth = da.data();
  cpu.read_outputs(out);
  out.color = cb.data();
  out.depth = db.data();
  gpu.read_outputs(out);
  size_t finite = 0;
  for (size_t i = 0; i < n; ++i) {
    finite += std::isfinite(da[i]);
    ASSERT_EQ(std::memcmp(&da[i], &db[i], sizeof(float)), 0) << "pixel " << i;
  }
  EXPECT_GT(finite, 1000u);
  // The grid over the background starts from the same colour on both: the same bytes there.
  std::vector<uint32_t> ids;
  cpu.read_triangle_ids(ids);
  size_t differing = 0, grid = 0;
  for (size_t i = 0; i < n; ++i) {
    if (ids[i] != ~0u) continue;
    differing += std::memcmp(&ca[i], &cb[i], sizeof(Rgba8)) != 0;
    grid += ca[i].r != settings.background.r;
  }
  EXPECT_EQ(differing, 0u);
  EXPECT_GT(grid, 100u) << "the grid was drawn";
}
