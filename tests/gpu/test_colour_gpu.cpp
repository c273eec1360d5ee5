// The colour pipeline and MTL materials on CUDA against the CPU backend, byte for byte: sRGB
// decode through the tables, linear lighting with Ks/Ka/Ke, vertex colours, mip chains, and the
// exact sRGB encode, in every shading mode and filter. Skips, saying why, without a CUDA device.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/cuda/cuda_renderer.h"
#include "engine/load/load_model.h"
#include "engine/render/cpu_renderer.h"
#include "engine/scene/generate.h"
#include "tests/support/gpu_skip.h"
#include "tests/support/test_scenes.h"

using namespace facet;

namespace {

// Spot with its texture, given specular (through a specular map: its own texture), ambient,
// emission and vertex colours that vary across the model.
std::shared_ptr<Scene> full_material_spot() {
  auto s = std::make_shared<Scene>(load_model(test::shared_asset("spot/spot_triangulated_with_mtl.obj")));
  Material& m = s->materials.at(0);
  m.ks = {0.6f, 0.5f, 0.4f};
  m.ns = 37;
  m.specular_texture = m.texture;
  m.ka = {0.3f, 0.6f, 0.9f};
  m.ke = {0.02f, 0.01f, 0.0f};
  m.emission_texture = m.texture;
  s->colors.resize(s->vertex_count());
  for (uint32_t v = 0; v < s->vertex_count(); ++v)
    s->colors[v] = {(uint8_t)(128 + v % 128), (uint8_t)(255 - v % 97), (uint8_t)(200 + v % 56), 255};
  return s;
}

void expect_identical_bytes(CudaRenderer& gpu, const std::shared_ptr<Scene>& scene, const FrameParams& fp,
                            const std::string& label) {
  CpuRenderer cpu;
  cpu.set_scene(scene);
  cpu.render(fp);
  gpu.render(fp);
  std::vector<Rgba8> a, b;
  cpu.read_rgba(a);
  gpu.read_rgba(b);
  ASSERT_EQ(a.size(), b.size()) << label;
  size_t differing = 0, covered = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    differing += a[i].r != b[i].r || a[i].g != b[i].g || a[i].b != b[i].b || a[i].a != b[i].a;
    covered += a[i].r != fp.background.r || a[i].g != fp.background.g || a[i].b != fp.background.b;
  }
  EXPECT_EQ(differing, 0u) << label << ": pixels whose bytes differ";
  EXPECT_GT(covered, 1000u) << label << ": too little drawn to compare";
}

}  // namespace

TEST(ColourGpu, MaterialsAndVertexColoursAreByteIdenticalInEveryModeAndFilter) {
  FACET_SKIP_WITHOUT_CUDA();
  const std::shared_ptr<Scene> scene = full_material_spot();
  CudaRenderer gpu;
  gpu.set_scene(scene);
  const Camera cam = Camera::framing(scene->bounds, 4.0f / 3.0f);
  for (Shading shading : {Shading::Lit, Shading::Texture, Shading::Normals, Shading::Depth})
    for (Filter filter : {Filter::Nearest, Filter::Bilinear, Filter::Trilinear})
      for (bool wireframe : {false, true}) {
        RenderOptions rs;
        rs.shading = shading;
        rs.filter = filter;
        rs.wireframe = wireframe;
        const std::string label = "spot-mode" + std::to_string((int)shading) + "-filter" + std::to_string((int)filter) +
                                  (wireframe ? "-wire" : "");
        expect_identical_bytes(gpu, scene, test::frame_params(*scene, cam, 480, 360, rs), label);
      }
}

TEST(ColourGpu, PlainLitFastPathIsByteIdentical) {
  FACET_SKIP_WITHOUT_CUDA();
  auto scene = std::make_shared<Scene>(make_sphere(50000));
  ASSERT_TRUE(plain_lit_scene(*scene));
  CudaRenderer gpu;
  gpu.set_scene(scene);
  expect_identical_bytes(gpu, scene, test::frame_params(*scene, Camera::framing(scene->bounds, 1.5f), 600, 400),
                         "sphere-plain-lit");
}
