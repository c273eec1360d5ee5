// The CUDA backend against the CPU reference with anti-aliasing (issue 17): at 1, 4 and 8
// samples a pixel, every shading mode and texture filter, the wireframe and a transparent
// background, the two give the same bytes; so do frames between visibility clears, frames with
// occlusion culling, a renderer whose sample count changes between frames, frames large enough
// for resolve's two-pixel kernels, both shapes of resolve's warps, and alpha-tested cut-outs in
// every raster path. Skips, saying why, where no CUDA device exists.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "engine/cuda/cuda_renderer.h"
#include "engine/load/load_model.h"
#include "engine/render/cpu_renderer.h"
#include "engine/render/frame_plan.h"
#include "engine/render/frame_setup.h"
#include "engine/scene/generate.h"
#include "kernels/frame/tuning.h"
#include "tests/support/gpu_skip.h"
#include "tests/support/test_scenes.h"

using namespace facet;

namespace {

class CudaVsCpuAa : public ::testing::Test {
 protected:
  void SetUp() override { FACET_SKIP_WITHOUT_CUDA(); }
};

std::shared_ptr<Scene> spot() {
  return std::make_shared<Scene>(load_model(test::shared_asset("spot/spot_triangulated_with_mtl.obj")));
}

// Both backends' colour and nearest-sample ids of `fp`, byte for byte; `frames` frames on the
// GPU renderer (tags between clears).
void expect_same_bytes(CudaRenderer& gpu, const std::shared_ptr<Scene>& scene, const FrameParams& fp,
                       const std::string& label, int frames = 1) {
  CpuRenderer cpu;
  cpu.set_scene(scene);
  cpu.render(fp);
  for (int k = 0; k < frames; ++k) gpu.render(fp);
  std::vector<Rgba8> a, b;
  std::vector<uint32_t> ia, ib;
  cpu.read_rgba(a);
  gpu.read_rgba(b);
  cpu.read_triangle_ids(ia);
  gpu.read_triangle_ids(ib);
  ASSERT_EQ(a.size(), b.size()) << label;
  size_t colour = 0, ids = 0, covered = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    colour += std::memcmp(&a[i], &b[i], sizeof(Rgba8)) != 0;
    ids += ia[i] != ib[i];
    covered += ia[i] != ~0u;
  }
  EXPECT_EQ(colour, 0u) << label << ": pixels whose bytes differ";
  EXPECT_EQ(ids, 0u) << label << ": pixels whose nearest sample shows another triangle";
  EXPECT_GT(covered, 100u) << label << ": nothing drawn, the comparison proves little";
}

}  // namespace

TEST_F(CudaVsCpuAa, EveryShadingModeAndFilterAtEverySampleCount) {
  auto scene = spot();
  const Camera cam = Camera::framing(scene->bounds, 4.0f / 3.0f);
  CudaRenderer gpu;
  gpu.set_scene(scene);
  for (int samples : {1, 4, 8})
    for (Shading sh : {Shading::Lit, Shading::Texture, Shading::Normals, Shading::Depth})
      for (Filter f : {Filter::Nearest, Filter::Bilinear, Filter::Trilinear}) {
        RenderOptions s;
        s.shading = sh;
        s.filter = f;
        s.samples = (uint8_t)samples;
        s.wireframe = f == Filter::Bilinear;
        expect_same_bytes(gpu, scene, test::frame_params(*scene, cam, 400, 300, s),
                          "spot-aa" + std::to_string(samples) + "-mode" + std::to_string((int)sh) + "-filter" +
                              std::to_string((int)f));
      }
}

TEST_F(CudaVsCpuAa, PlainLitSpheresOfEverySizeClassAtEverySampleCount) {
  // Small (thread), medium (warp) and large (tile) triangles, 1080p and an odd size.
  for (uint64_t n : {200ull, 20000ull, 2000000ull}) {
    auto scene = std::make_shared<Scene>(make_sphere(n));
    CudaRenderer gpu;
    gpu.set_scene(scene);
    for (int samples : {1, 4, 8})
      for (auto [w, h] : {std::pair{1920, 1080}, std::pair{333, 777}}) {
        RenderOptions s;
        s.samples = (uint8_t)samples;
        const Camera cam = Camera::framing(scene->bounds, (float)w / h);
        expect_same_bytes(gpu, scene, test::frame_params(*scene, cam, w, h, s),
                          "sphere" + std::to_string(n) + "-aa" + std::to_string(samples) + "-" + std::to_string(w));
      }
  }
}

TEST_F(CudaVsCpuAa, FramesLargeEnoughForTwoPixelsAThreadInResolveAgree) {
  // From kResolveTwoPixelsFrom pixels (4K) resolve takes two pixels a thread: the plain lit kernel
  // at 4 samples and the general one at 1 (resolve.cu); below, and at 8 samples, one.
  const int w = 2048, h = (int)(kResolveTwoPixelsFrom / w);
  ASSERT_GE((int64_t)w * h, kResolveTwoPixelsFrom);
  const std::pair<std::shared_ptr<Scene>, std::string> scenes[] = {
      {std::make_shared<Scene>(make_sphere(2000)), "plain"}, {spot(), "textured"}};
  for (const auto& [scene, name] : scenes) {
    CudaRenderer gpu;
    gpu.set_scene(scene);
    const Camera cam = Camera::framing(scene->bounds, (float)w / h);
    for (int samples : {1, 4, 8}) {
      RenderOptions s;
      s.samples = (uint8_t)samples;
      expect_same_bytes(gpu, scene, test::frame_params(*scene, cam, w, h, s),
                        "two-pixel-resolve-" + name + "-aa" + std::to_string(samples));
    }
  }
}

TEST_F(CudaVsCpuAa, ResolveWarpsOfTilesAndOfRowsAgreeAtAnOddSize) {
  // Resolve's warps shade 8 x 4 tiles or rows of 32 (plan_resolve_tiles): both shapes of both
  // kernels, at a size that is a multiple of neither, so that tiles and rows end inside a warp.
  const int w = 1001, h = 751;
  struct Case {
    std::shared_ptr<Scene> scene;
    std::string name;
    Shading shading;
    bool plain;  // the plain lit kernel runs (plain_lit_frame), not the general one
  };
  const auto dense = std::make_shared<Scene>(make_sphere(200000));
  const Case cases[] = {{spot(), "textured", Shading::Lit, false},
                        {std::make_shared<Scene>(make_sphere(2000)), "sphere2K", Shading::Lit, true},
                        {dense, "sphere200K", Shading::Lit, true},
                        {dense, "sphere200K-normals", Shading::Normals, false}};
  int shapes[2][2] = {};  // [plain][tiles]: frames of each kernel and shape
  for (const Case& c : cases) {
    CudaRenderer gpu;
    gpu.set_scene(c.scene);
    const Camera cam = Camera::framing(c.scene->bounds, (float)w / h);
    for (int samples : {1, 4, 8}) {
      RenderOptions s;
      s.samples = (uint8_t)samples;
      s.shading = c.shading;
      const FrameParams fp = test::frame_params(*c.scene, cam, w, h, s);
      ResolvePlanInput in;
      in.box_pixels = pixel_count(scene_pixel_box(fp, c.scene->bounds.center, c.scene->bounds.radius));
      in.triangles = c.scene->triangle_count();
      in.samples = samples;
      in.plain = c.plain;
      ++shapes[c.plain][plan_resolve_tiles(in)];
      expect_same_bytes(gpu, c.scene, fp, "warp-shape-" + c.name + "-aa" + std::to_string(samples));
    }
  }
  for (int plain : {0, 1})
    for (int tiled : {0, 1})
      EXPECT_GT(shapes[plain][tiled], 0) << "plain " << plain << " tiles " << tiled << ": not run";
}

TEST_F(CudaVsCpuAa, TransparentBackgroundsAndFramesBetweenClearsAgree) {
  auto scene = spot();
  const Camera cam = Camera::framing(scene->bounds, 1.0f);
  CudaRenderer gpu;
  gpu.set_scene(scene);
  for (int samples : {4, 8}) {
    RenderOptions s;
    s.samples = (uint8_t)samples;
    s.background = {10, 20, 30, 0};
    expect_same_bytes(gpu, scene, test::frame_params(*scene, cam, 256, 256, s),
                      "transparent-aa" + std::to_string(samples), 6);
  }
}

TEST_F(CudaVsCpuAa, OcclusionCullingAndClaimingBlocksAgreeAtFourSamples) {
  auto scene = std::make_shared<Scene>(make_sphere(200000));
  CudaRenderer gpu;
  gpu.set_options({true, OcclusionMode::Always, true});
  gpu.set_scene(scene);
  RenderOptions s;
  s.samples = 4;
  s.two_sided = true;
  const FrameParams fp = test::frame_params(*scene, Camera::framing(scene->bounds, 4.0f / 3.0f), 640, 480, s);
  expect_same_bytes(gpu, scene, fp, "occlusion-aa4", 5);
}

TEST_F(CudaVsCpuAa, ChangingTheSampleCountBetweenFramesLeavesNoStaleSamples) {
  auto scene = spot();
  const Camera cam = Camera::framing(scene->bounds, 4.0f / 3.0f);
  CudaRenderer gpu;
  gpu.set_scene(scene);
  for (int samples : {8, 4, 1, 4}) {
    RenderOptions s;
    s.samples = (uint8_t)samples;
    expect_same_bytes(gpu, scene, test::frame_params(*scene, cam, 320, 240, s), "switch-aa" + std::to_string(samples),
                      2);
  }
}

TEST_F(CudaVsCpuAa, CutoutsAgreeInEveryRasterPathAtEverySampleCount) {
  // A checker of holes on spheres whose triangles are small (thread), medium (warp) and large
  // (tiles), bilinear (alpha edges between texels) and nearest, seen from outside: back faces show
  // through the holes.
  for (uint64_t n : {200ull, 20000ull, 500000ull}) {
    Scene sphere = make_sphere(n);
    test::add_checker_alpha_map(sphere, 16, 8);
    auto scene = std::make_shared<Scene>(std::move(sphere));
    CudaRenderer gpu;
    gpu.set_scene(scene);
    const Camera cam = test::look_at({0.4f, 0.6f, 2.6f}, {0, 0, 0}, 50.0f, 0.1f, 10.0f);
    for (int samples : {1, 4, 8})
      for (Filter f : {Filter::Nearest, Filter::Bilinear}) {
        RenderOptions s;
        s.samples = (uint8_t)samples;
        s.filter = f;
        expect_same_bytes(
            gpu, scene, test::frame_params(*scene, cam, 640, 480, s),
            "cutout-sphere" + std::to_string(n) + "-aa" + std::to_string(samples) + "-filter" + std::to_string((int)f),
            2);
      }
  }
}

TEST_F(CudaVsCpuAa, CutoutsAgreeWithOcclusionCullingAndClaimingBlocks) {
  Scene sphere = make_sphere(200000);
  test::add_checker_alpha_map(sphere, 16, 8);
  auto scene = std::make_shared<Scene>(std::move(sphere));
  CudaRenderer gpu;
  gpu.set_options({true, OcclusionMode::Always, true});
  gpu.set_scene(scene);
  for (int samples : {1, 4}) {
    RenderOptions s;
    s.samples = (uint8_t)samples;
    const FrameParams fp = test::frame_params(*scene, Camera::framing(scene->bounds, 4.0f / 3.0f), 640, 480, s);
    expect_same_bytes(gpu, scene, fp, "cutout-occlusion-aa" + std::to_string(samples), 5);
  }
}
