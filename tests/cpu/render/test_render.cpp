// Whole frames on the CPU backend: known answers (a textured quad whose pixels are the
// texture), shading modes, depth order and ties, determinism.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <set>

#include "engine/load/load_model.h"
#include "engine/meshlets/meshlets.h"
#include "engine/render/cpu_renderer.h"
#include "engine/scene/generate.h"
#include "tests/support/test_scenes.h"

using namespace facet;

namespace {

std::vector<Rgba8> random_image(int w, int h, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<Rgba8> img((size_t)w * h);
  for (auto& p : img) p = {(uint8_t)rng(), (uint8_t)rng(), (uint8_t)rng(), 255};
  return img;
}

// Camera for which the quad [-1,1]^2 at z = 0 exactly fills a square frame.
Camera quad_camera() {
  float d = 3.0f;
  return test::look_at({0, 0, d}, {0, 0, 0}, glm::degrees(2.0f * std::atan(1.0f / d)), 0.5f, 10.0f);
}

// The RGBA8 frame r draws of camera c.
std::vector<Rgba8> draw(CpuRenderer& r, const Camera& c, const RenderOptions& s, int w, int h) {
  r.render(c, s, w, h);
  std::vector<Rgba8> out;
  r.read_rgba(out);
  return out;
}

bool same_bytes(const std::vector<Rgba8>& a, const std::vector<Rgba8>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Rgba8)) == 0;
}

}  // namespace

TEST(Render, TexturedQuadFillingTheFrameShowsTheTextureTexelForTexel) {
  const int N = 64;
  std::vector<Rgba8> tex = random_image(N, N, 1);
  Scene quad = make_quad(tex, N, N);
  CpuRenderer r;
  r.set_scene(std::make_shared<Scene>(quad));
  RenderOptions s;
  s.shading = Shading::Texture;
  s.filter = Filter::Nearest;
  std::vector<Rgba8> out = draw(r, quad_camera(), s, N, N);
  ASSERT_EQ(out.size(), tex.size());
  size_t wrong = 0;
  for (size_t i = 0; i < out.size(); ++i) wrong += out[i].r != tex[i].r || out[i].g != tex[i].g || out[i].b != tex[i].b;
  EXPECT_EQ(wrong, 0u);
  // Row 0 of the PNG is the top of the image: the texture's top row (v = 1) is there.
  EXPECT_EQ(out[0].r, tex[0].r);
}

TEST(Render, BilinearOnTexelCentresReproducesTexels) {
  const int N = 32;
  std::vector<Rgba8> tex = random_image(N, N, 2);
  Scene quad = make_quad(tex, N, N);
  CpuRenderer r;
  r.set_scene(std::make_shared<Scene>(quad));
  RenderOptions s;
  s.shading = Shading::Texture;
  s.filter = Filter::Bilinear;
  std::vector<Rgba8> out = draw(r, quad_camera(), s, N, N);
  int worst = 0;
  for (size_t i = 0; i < out.size(); ++i) worst = std::max(worst, std::abs(out[i].g - tex[i].g));
  EXPECT_LE(worst, 1);
}

TEST(Render, NormalsModeShowsFaceNormalFacingTheCamera) {
  Scene sphere = make_sphere(20000);
  CpuRenderer r;
  r.set_scene(std::make_shared<Scene>(sphere));
  RenderOptions s;
  s.shading = Shading::Normals;
  std::vector<Rgba8> out = draw(r, test::look_at({0, 0, 4}, {0, 0, 0}, 40.0f, 0.1f, 10.0f), s, 101, 101);
  Rgba8 c = out[50 * 101 + 50];  // centre pixel: normal (0, 0, 1) -> (128, 128, 255)
  EXPECT_NEAR(c.r, 128, 3);
  EXPECT_NEAR(c.g, 128, 3);
  EXPECT_GE(c.b, 253);
  EXPECT_EQ(out[0].r, RenderOptions{}.background.r);  // corner: background
}

TEST(Render, NearerTriangleWinsAndExactTiesGoToLowerIndex) {
  // Two coincident quads (same depth everywhere) then a nearer one over part of the frame.
  Scene s;
  s.positions = {{-1, -1, 0},          {1, -1, 0},          {1, 1, 0},      {-1, 1, 0},
                 {-0.5f, -0.5f, 0.5f}, {0.5f, -0.5f, 0.5f}, {0, 0.5f, 0.5f}};
  s.normals.assign(s.positions.size(), Vec3{0, 0, 1});
  // Triangles 0,1: quad; 2,3: the same quad again (ties); 4: nearer, drawn last.
  s.indices = {0, 1, 2, 0, 2, 3, 0, 1, 2, 0, 2, 3, 4, 5, 6};
  s.tri_material.assign(5, 0);
  s.materials.push_back({{1, 1, 1}, -1});
  s.material_names.push_back("m");
  s.bounds = compute_bounds(s.positions);
  CpuRenderer r;
  r.set_scene(std::make_shared<Scene>(s));
  r.render(test::look_at({0, 0, 3}, {0, 0, 0}, 60.0f, 0.1f, 10.0f), {}, 64, 64);
  std::vector<uint32_t> ids;
  r.read_triangle_ids(ids);
  std::set<uint32_t> seen(ids.begin(), ids.end());
  EXPECT_EQ(seen.count(2), 0u) << "tie lost to the higher index";
  EXPECT_EQ(seen.count(3), 0u) << "tie lost to the higher index";
  EXPECT_EQ(ids[32 * 64 + 32], 4u) << "the nearer triangle covers the centre";
  EXPECT_EQ(seen.count(0), 1u) << "the quad's first triangle shows around the nearer one";
  EXPECT_EQ(seen.count(1), 1u) << "the quad's second triangle shows around the nearer one";
}

TEST(Render, SameFrameTwiceGivesTheSameBytes) {
  Scene sphere = make_sphere(50000);
  CpuRenderer r;
  r.set_scene(std::make_shared<Scene>(sphere));
  Camera c = test::look_at({0.3f, 0.4f, 2.5f}, {0, 0, 0}, 50.0f, 0.1f, 10.0f);
  std::vector<Rgba8> a = draw(r, c, {}, 200, 150);
  EXPECT_TRUE(same_bytes(a, draw(r, c, {}, 200, 150)));
}

TEST(Render, NanVerticesAreDroppedAndCounted) {
  Scene s = make_sphere(1000);
  s.positions[5] = {NAN, 0, 0};
  s.positions[9] = {0, INFINITY, 0};
  CpuRenderer r;
  r.set_scene(std::make_shared<Scene>(s));
  r.render(test::look_at({0, 0, 3}, {0, 0, 0}, 50.0f, 0.1f, 10.0f), {}, 64, 64);
  std::set<uint32_t> poisoned;
  for (uint32_t t = 0; t < s.triangle_count(); ++t)
    for (int k = 0; k < 3; ++k)
      if (s.indices[3 * t + k] == 5 || s.indices[3 * t + k] == 9) poisoned.insert(t);
  ASSERT_FALSE(poisoned.empty()) << "the sphere does not use the poisoned vertices";
  EXPECT_EQ(r.stats().tris.nan, poisoned.size()) << "each triangle with a NaN/Inf vertex, once";
  std::vector<uint32_t> ids;
  r.read_triangle_ids(ids);
  size_t covered = 0;
  for (uint32_t id : ids) {
    covered += id != ~0u;
    EXPECT_EQ(poisoned.count(id), 0u) << "triangle " << id << " was drawn";
  }
  EXPECT_GT(covered, 0u) << "the rest of the sphere is drawn";
}

TEST(Render, BackFaceCullingKeepsCounterClockwiseFacesAndDropsTheRest) {
  // A closed sphere seen from outside: culling the back faces changes no pixel and drops about
  // half of the triangles. (Culling the front faces instead would show the inside.)
  Scene sphere = make_sphere(5000);
  CpuRenderer r;
  r.set_scene(std::make_shared<Scene>(sphere));
  Camera c = test::look_at({0.5f, 0.3f, 3.0f}, {0, 0, 0}, 50.0f, 0.1f, 10.0f);
  std::vector<uint32_t> all, culled;
  r.render(c, test::two_sided(), 160, 120);  // the closed sphere would skip its back faces by itself
  r.read_triangle_ids(all);
  uint32_t culled_without = r.stats().tris.culled;
  RenderOptions s;
  s.cull_backfaces = true;
  r.render(c, s, 160, 120);
  r.read_triangle_ids(culled);
  EXPECT_EQ(all, culled);
  EXPECT_GT(r.stats().tris.culled, culled_without + sphere.triangle_count() / 3);
}

TEST(Render, RefusedSceneLeavesTheLastOneWhole) {
  // A scene with a triangle pointing past its vertices (the loader never makes one, a caller
  // might) is refused by set_scene, and the scene before it still renders the same bytes.
  Scene sphere = make_sphere(2000);
  CpuRenderer r;
  r.set_scene(std::make_shared<Scene>(sphere));
  Camera cam = Camera::framing(sphere.bounds, 1.0f);
  std::vector<Rgba8> before = draw(r, cam, {}, 64, 64);
  Scene bad = make_quad();
  bad.indices[1] = 7;
  EXPECT_THROW(r.set_scene(std::make_shared<Scene>(bad)), std::invalid_argument);
  EXPECT_TRUE(same_bytes(before, draw(r, cam, {}, 64, 64)));
}

TEST(Render, CpuBackendRefusesADeviceFrameTarget) {
  CpuRenderer r;
  r.set_scene(std::make_shared<Scene>(make_sphere(100)));
  FrameTarget target;
  target.kind = FrameTarget::Kind::Device;
  std::vector<Rgba8> pixels(64 * 48);
  target.pixels = pixels.data();
  Camera cam;
  cam.eye = {0.0f, 0.0f, 4.0f};
  EXPECT_THROW(r.render(cam, RenderOptions{}, 64, 48, target), std::invalid_argument);
}

TEST(Render, CpuBackendDrawsTheSameFrameFromRunsAndFromPatches) {
  // Keys hold scene triangles, not slots: the grouping changes the order of the work only. And
  // the scene renumbered in its patches' order (what a load does, triangle_renumber.h) draws the
  // same bunny (no depth ties in it), its keys numbering the triangles in that order.
  LoadOptions runs_options;
  runs_options.meshlets = MeshletGrouping::FileOrder;
  const std::string bunny = test::shared_asset("bunny/stanford-bunny.obj");
  auto runs = std::make_shared<const Scene>(load_model(bunny, runs_options));
  Scene grown = *runs;
  grown.meshlets = std::make_shared<const Meshlets>(build_meshlet_patches(grown));
  auto patches = std::make_shared<const Scene>(std::move(grown));
  auto renumbered = std::make_shared<const Scene>(load_model(bunny));
  ASSERT_TRUE(runs->meshlets->triangle_ids.empty());
  ASSERT_FALSE(patches->meshlets->triangle_ids.empty());
  ASSERT_FALSE(renumbered->file_triangle.empty());
  for (int samples : {1, 4}) {
    SCOPED_TRACE(samples);
    std::vector<Rgba8> image[3];
    std::vector<uint32_t> ids[3];
    for (int i = 0; i < 3; ++i) {
      CpuRenderer r;
      const std::shared_ptr<const Scene>& s = i == 0 ? runs : i == 1 ? patches : renumbered;
      r.set_scene(s);
      RenderOptions settings;
      settings.samples = samples;
      r.render(Camera::framing(s->bounds, 160.0f / 120.0f, 0.8f), settings, 160, 120);
      r.read_rgba(image[i]);
      r.read_triangle_ids(ids[i]);
      for (uint32_t& id : ids[i])
        if (id != ~0u) id = s->file_index(id);
    }
    EXPECT_EQ(ids[0], ids[1]);
    EXPECT_EQ(ids[0], ids[2]);
    for (int i = 1; i < 3; ++i) {
      ASSERT_EQ(image[0].size(), image[i].size());
      EXPECT_EQ(std::memcmp(image[0].data(), image[i].data(), image[0].size() * sizeof(Rgba8)), 0) << i;
    }
    EXPECT_GT(std::count_if(ids[0].begin(), ids[0].end(), [](uint32_t t) { return t != ~0u; }), 2000);
  }
}
