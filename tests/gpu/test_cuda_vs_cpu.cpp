// The CUDA backend against the CPU reference: the triangle id of every pixel identical, colours
// within 1/255, on every shared model and the generated spheres, at several sizes and cameras
// (including cameras that clip the near plane). Skips, saying why, where no CUDA device exists.
#include <gtest/gtest.h>

#include <cstring>

#include "engine/cuda/cuda_renderer.h"
#include "engine/load/load_model.h"
#include "engine/meshlets/meshlets.h"
#include "engine/render/cpu_renderer.h"
#include "engine/scene/generate.h"
#include "tests/gpu/backend_agreement.h"
#include "tests/support/gpu_skip.h"
#include "tests/support/image_compare.h"
#include "tests/support/scene_edits.h"
#include "tests/support/test_scenes.h"

using namespace facet;

namespace {

class CudaVsCpu : public ::testing::Test {
 protected:
  void SetUp() override { FACET_SKIP_WITHOUT_CUDA(); }

  // Renders `scene` with both backends for `fp`; expects identical ids and colours within 1.
  void expect_same(const std::shared_ptr<Scene>& scene, const FrameParams& fp, const std::string& label) {
    CudaRenderer gpu;
    gpu.set_scene(scene);
    size_t covered = test::expect_backends_agree(gpu, scene, fp, label);
    EXPECT_GT(covered, 0u) << label << ": nothing drawn, the comparison proves little";
  }

  void compare_model(const std::shared_ptr<Scene>& scene, const std::string& name) {
    const Bounds& b = scene->bounds;
    glm::vec3 c{b.center.x, b.center.y, b.center.z};
    for (auto [w, h] : {std::pair{640, 480}, std::pair{1920, 1080}, std::pair{333, 777}}) {
      Camera framed = Camera::framing(b, (float)w / h);
      expect_same(scene, test::frame_params(*scene, framed, w, h), name + "-framed-" + std::to_string(w));
      // Close up, inside the bounding sphere: triangles cross the near plane.
      Camera close = framed;
      close.eye = c + (framed.eye - c) * 0.15f;
      close.near_plane = b.radius * 0.05f;
      close.far_plane = b.radius * 4.0f;
      expect_same(scene, test::frame_params(*scene, close, w, h), name + "-close-" + std::to_string(w));
    }
    RenderOptions tex;
    tex.shading = Shading::Texture;
    tex.wireframe = true;
    Camera side = Camera::framing(b, 1.0f);
    side.eye = c + glm::vec3(b.radius * 2.5f, 0.1f * b.radius, 0);
    expect_same(scene, test::frame_params(*scene, side, 512, 512, tex), name + "-side-texture");
  }
};

std::shared_ptr<Scene> load(const std::string& rel) {
  return std::make_shared<Scene>(load_model(test::shared_asset(rel)));
}

}  // namespace

TEST_F(CudaVsCpu, Spot) { compare_model(load("spot/spot_triangulated_with_mtl.obj"), "spot"); }
TEST_F(CudaVsCpu, CornellBox) { compare_model(load("cornell_box/CornellBox-Original.obj"), "cornell"); }
TEST_F(CudaVsCpu, Teapot) { compare_model(load("teapot/teapot.obj"), "teapot"); }
TEST_F(CudaVsCpu, Bunny) { compare_model(load("bunny/stanford-bunny.obj"), "bunny"); }
// The scan in the file's order, not renumbered (triangle_renumber.h): the CUDA backend grows its
// own patches, whose slots name their triangles (the geometry stage's other path), while the CPU
// backend draws runs.
TEST_F(CudaVsCpu, BunnyInTheFileOrder) {
  auto scene = std::make_shared<Scene>(test::in_file_order(load_model(test::shared_asset("bunny/stanford-bunny.obj"))));
  ASSERT_FALSE(scene_meshlets(*scene)->triangle_ids.empty());
  compare_model(scene, "bunny-file-order");
}
TEST_F(CudaVsCpu, DragonRes2) { compare_model(load("dragon/dragon_vrip_res2.obj"), "dragon-res2"); }
TEST_F(CudaVsCpu, Dragon) { compare_model(load("dragon/dragon_vrip.obj"), "dragon"); }

TEST_F(CudaVsCpu, Spheres) {
  for (uint64_t n : {2000ull, 200000ull, 2000000ull})
    compare_model(std::make_shared<Scene>(make_sphere(n)), "sphere-" + std::to_string(n));
}

TEST_F(CudaVsCpu, EveryShadingModeAndFilter) {
  auto scene = load("spot/spot_triangulated_with_mtl.obj");
  Camera cam = Camera::framing(scene->bounds, 4.0f / 3.0f);
  for (Shading sh : {Shading::Lit, Shading::Texture, Shading::Normals, Shading::Depth})
    for (Filter f : {Filter::Nearest, Filter::Bilinear, Filter::Trilinear}) {
      RenderOptions s;
      s.shading = sh;
      s.filter = f;
      s.cull_backfaces = sh == Shading::Lit;
      expect_same(scene, test::frame_params(*scene, cam, 400, 300, s),
                  "spot-mode" + std::to_string((int)sh) + "-filter" + std::to_string((int)f));
    }
}

TEST_F(CudaVsCpu, QueueOverflowIsCompletedByFallbackAndCounted) {
  // Many large triangles and queues far too small: nothing may be lost.
  auto scene = std::make_shared<Scene>(make_sphere(2000));
  Camera cam = test::look_at({0, 0, 2.2f}, {0, 0, 0}, 60.0f, 0.1f, 10.0f);
  FrameParams fp = test::frame_params(*scene, cam, 800, 600);
  CpuRenderer cpu;
  cpu.set_scene(scene);
  cpu.render(fp);
  std::vector<uint32_t> want, got;
  cpu.read_triangle_ids(want);
  for (auto [big, items] : {std::pair{1u, 1u}, std::pair{16u, 64u}, std::pair{100000u, 8u}}) {
    CudaRenderer gpu;
    gpu.set_queue_capacities(big, items);
    gpu.set_scene(scene);
    gpu.render(fp);
    gpu.read_triangle_ids(got);
    EXPECT_EQ(0, std::memcmp(want.data(), got.data(), want.size() * 4)) << big << "/" << items;
    EXPECT_GT(gpu.stats().overflow_events, 0u);
    // The queues grew: a later frame needs no fallback.
    uint64_t before = gpu.stats().overflow_events;
    gpu.render(fp);
    gpu.render(fp);
    gpu.finish();
    EXPECT_EQ(gpu.stats().overflow_events, before);
  }
}

TEST_F(CudaVsCpu, SameFrameTwiceGivesTheSameBytes) {
  auto scene = load("spot/spot_triangulated_with_mtl.obj");
  CudaRenderer gpu;
  gpu.set_scene(scene);
  Camera cam = Camera::framing(scene->bounds, 16.0f / 9.0f);
  std::vector<Rgba8> a, b;
  gpu.render(cam, {}, 1920, 1080);
  gpu.read_rgba(a);
  gpu.render(cam, {}, 1920, 1080);
  gpu.read_rgba(b);
  EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.size() * sizeof(Rgba8)));
}

TEST_F(CudaVsCpu, StreamLaunchesGiveTheFrameTheGraphGives) {
  // `facet bench --stream-launches` measures what the graph saves: the same work launched call by
  // call must draw the same frame and report stage times.
  auto scene = load("spot/spot_triangulated_with_mtl.obj");
  CudaRenderer graph, stream;
  stream.set_options({false, OcclusionMode::Auto, false});
  graph.set_scene(scene);
  stream.set_scene(scene);
  FrameParams fp = test::frame_params(*scene, Camera::framing(scene->bounds, 4.0f / 3.0f), 320, 240);
  std::vector<Rgba8> a, b;
  for (int frame = 0; frame < 6; ++frame) {  // past a visibility clear and the frames between
    graph.render(fp);
    stream.render(fp);
  }
  graph.read_rgba(a);
  stream.read_rgba(b);
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(Rgba8)), 0);
  EXPECT_GT(stream.stats().times.total, 0.0f);
  EXPECT_EQ(stream.graph_instantiations(), 0);
}

TEST_F(CudaVsCpu, BothGeometryShapesWithAndWithoutMeshletCulling) {
  // The geometry stage runs a block per meshlet on scenes up to ~2 M triangles and claiming
  // blocks beyond (geometry.cu); both must draw what the CPU draws, whole meshlets culled or not.
  // Cameras: framed, close (the near plane cuts the model, parts of it off screen), turned
  // half away (meshlets beyond the frame's edges) and far (the model a few pixels across: most
  // meshlets fall between the pixel centres, meshlet_cull.h), the far one at 4 samples too (the
  // kernels without that test). Triangle counters must agree too.
  for (const auto& scene : {load("spot/spot_triangulated_with_mtl.obj"), load("bunny/stanford-bunny.obj"),
                            std::make_shared<Scene>(make_sphere(200000))}) {
    const Bounds& b = scene->bounds;
    glm::vec3 c{b.center.x, b.center.y, b.center.z};
    Camera framed = Camera::framing(b, 4.0f / 3.0f);
    Camera close = framed;
    close.eye = c + (framed.eye - c) * 0.6f;  // outside: a closed model culled from inside shows nothing
    close.near_plane = glm::length(close.eye - c) - 0.8f * b.radius;
    Camera aside = framed;
    aside.target = c + glm::cross(framed.eye - c, glm::vec3(0, 1, 0)) * 0.6f;
    Camera far = framed;
    far.eye = c + (framed.eye - c) * 40.0f;
    far.far_plane = 100.0f * glm::length(far.eye - c);
    for (bool claims : {false, true})
      for (bool cull : {false, true}) {
        CudaRenderer gpu;
        gpu.set_options({true, OcclusionMode::Auto, claims});
        gpu.set_scene(scene);
        RenderOptions settings;
        settings.cull_backfaces = cull;
        settings.two_sided = !cull;  // without any culling by facing, closed models included
        int k = 0;
        for (const Camera& cam : {framed, close, aside, far, far}) {
          const int index = k++;
          settings.samples = index == 4 ? 4 : 1;
          std::string label =
              scene->source + (claims ? "-claims" : "-per-meshlet") + (cull ? "-cull-" : "-") + std::to_string(index);
          FrameParams fp = test::frame_params(*scene, cam, 320, 240, settings);
          EXPECT_GT(test::expect_backends_agree(gpu, scene, fp, label), 0u) << label;
          if (cull || index == 3) {
            EXPECT_GT(gpu.stats().tris.culled, scene->triangle_count() / 3) << label;
          }
        }
      }
  }
}

TEST_F(CudaVsCpu, TwentyMillionTrianglesMatchAnalyticCoverage) {
  auto scene = std::make_shared<Scene>(make_sphere(20000000));
  ASSERT_GE(scene->triangle_count(), 19000000u);
  CudaRenderer gpu;
  gpu.set_scene(scene);
  for (auto [w, h] : {std::pair{1920, 1080}, std::pair{3840, 2160}}) {
    float fov = glm::radians(45.0f);
    float d = distance_for_coverage(1.0f, 0.28f, w, h, fov);
    Camera cam = test::look_at({0, 0, d}, {0, 0, 0}, 45.0f, 0.1f, 100.0f);
    gpu.render(cam, {}, w, h);
    std::vector<uint32_t> ids;
    gpu.read_triangle_ids(ids);
    size_t covered = 0;
    for (uint32_t id : ids) covered += id != ~0u;
    double f = 0.5 * h / std::tan(0.5 * fov);
    double rad = f / std::sqrt((double)d * d - 1.0);
    EXPECT_NEAR(covered / (3.14159265358979 * rad * rad), 1.0, 0.005) << w << "x" << h;
  }
}

TEST_F(CudaVsCpu, EveryFrameOfASequenceMatchesWhateverTheFramesBefore) {
  // The visibility buffer is cleared only every few frames (frame tags, raster.h): what earlier
  // frames left must never show through. Cameras alternate between near and far, so a far frame
  // follows a frame that covered many more pixels.
  auto scene = load("spot/spot_triangulated_with_mtl.obj");
  CpuRenderer cpu;
  CudaRenderer gpu;
  cpu.set_scene(scene);
  gpu.set_scene(scene);
  Camera framed = Camera::framing(scene->bounds, 4.0f / 3.0f);
  glm::vec3 c{scene->bounds.center.x, scene->bounds.center.y, scene->bounds.center.z};
  std::vector<uint32_t> want, got;
  for (int frame = 0; frame < 11; ++frame) {
    Camera cam = framed;
    float k = frame % 2 ? 3.0f : 0.6f;
    cam.eye = c + (framed.eye - c) * k + glm::vec3(0.05f * frame, 0, 0);
    cam.fit_clip_planes(scene->bounds);
    FrameParams fp = test::frame_params(*scene, cam, 320, 240);
    cpu.render(fp);
    gpu.render(fp);
    cpu.read_triangle_ids(want);
    gpu.read_triangle_ids(got);
    ASSERT_EQ(want, got) << "frame " << frame;
    std::vector<Rgba8> a, b;
    cpu.read_rgba(a);
    gpu.read_rgba(b);
    EXPECT_EQ(test::compare_rgba(a, b, 1).pixels_over, 0u) << "frame " << frame;
  }
  // Frames of one shape replay two graphs (with and without the clear), updated in place.
  EXPECT_EQ(gpu.graph_instantiations(), 2);
}
