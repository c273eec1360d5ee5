// The load's renumbering of a scan's triangles in meshlet order (engine/meshlets/triangle_renumber.h): a
// shuffled model is held in slot order with the file's numbers beside it, draws the same image
// as the same file held in the file's order, reports the file's triangle numbers in its frame
// outputs, and keeps all of it through the scene cache; runs and scenes renumbered before are
// left alone; a scene made in memory is prepared as a load prepares a file.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "engine/load/load_model.h"
#include "engine/meshlets/meshlets.h"
#include "engine/meshlets/triangle_renumber.h"
#include "engine/render/cpu_renderer.h"
#include "engine/render/frame_outputs.h"
#include "engine/scene/generate.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/shuffled_obj.h"
#include "tests/support/test_scenes.h"

using namespace facet;

namespace {

constexpr int kW = 320, kH = 240;

Scene load(const std::string& path, MeshletGrouping grouping, const std::string& cache_dir = "") {
  LoadOptions o;
  o.meshlets = grouping;
  o.use_cache = !cache_dir.empty();
  o.cache_dir = cache_dir;
  return load_model(path, o);
}

bool is_permutation(const BigVector<uint32_t>& p, size_t n) {
  std::vector<char> seen(n, 0);
  if (p.size() != n) return false;
  for (uint32_t v : p) {
    if (v >= n || seen[v]) return false;
    seen[v] = 1;
  }
  return true;
}

struct Drawn {
  std::vector<Rgba8> rgba;
  std::vector<uint32_t> keys_ids;   // read_triangle_ids: the scene's numbers
  std::vector<int32_t> output_ids;  // the triangle_id output: the file's numbers
};

Drawn draw(const Scene& scene) {
  CpuRenderer r;
  r.set_scene(std::make_shared<const Scene>(scene));
  r.render(test::frame_params(scene, Camera::framing(scene.bounds, (float)kW / kH), kW, kH));
  Drawn d;
  r.read_rgba(d.rgba);
  r.read_triangle_ids(d.keys_ids);
  d.output_ids.resize((size_t)kW * kH);
  FrameOutputs out;
  out.triangle_id = d.output_ids.data();
  r.read_outputs(out);
  return d;
}

class TriangleRenumber : public ::testing::Test {
 protected:
  test::ScratchDir m_dir;
};

}  // namespace

TEST_F(TriangleRenumber, AShuffledModelIsHeldInSlotOrderWithTheFileNumbersBeside) {
  const test::ShuffledSphere file = test::write_shuffled_sphere(m_dir.path(""), 20000, 3, 7);
  const Scene in_file_order = load(file.obj_path, MeshletGrouping::FileOrder);
  const Scene renumbered = load(file.obj_path, MeshletGrouping::Auto);
  ASSERT_TRUE(in_file_order.file_triangle.empty()) << "runs need no renumbering";
  ASSERT_TRUE(in_file_order.meshlets && renumbered.meshlets);
  const uint32_t n = renumbered.triangle_count();
  ASSERT_EQ(n, in_file_order.triangle_count());
  ASSERT_GT(n, 10000u);
  ASSERT_TRUE(is_permutation(renumbered.file_triangle, n)) << "patches are renumbered, every triangle once";
  EXPECT_TRUE(renumbered.meshlets->triangle_ids.empty()) << "slot i holds triangle i";
  EXPECT_EQ(scene_triangle(*renumbered.meshlets, 12345), 12345u);
  size_t moved = 0;
  for (uint32_t t = 0; t < n; ++t) {
    const uint32_t f = renumbered.file_triangle[t];
    moved += f != t;
    for (int c = 0; c < 3; ++c) {
      const Vec3 a = renumbered.positions[renumbered.indices[3 * (size_t)t + c]];
      const Vec3 b = in_file_order.positions[in_file_order.indices[3 * (size_t)f + c]];
      ASSERT_TRUE(a.x == b.x && a.y == b.y && a.z == b.z) << "triangle " << t << " corner " << c;
    }
    ASSERT_EQ(renumbered.tri_material[t], in_file_order.tri_material[f]) << "triangle " << t;
  }
  EXPECT_GT(moved, n / 2) << "a shuffled file's patches reorder most triangles";
}

TEST_F(TriangleRenumber, DrawsTheSameImageAndReportsTheFileNumbers) {
  const test::ShuffledSphere file = test::write_shuffled_sphere(m_dir.path(""), 20000, 3, 11);
  const Scene in_file_order = load(file.obj_path, MeshletGrouping::FileOrder);
  const Scene renumbered = load(file.obj_path, MeshletGrouping::Auto);
  ASSERT_FALSE(renumbered.file_triangle.empty());
  const Drawn a = draw(in_file_order), b = draw(renumbered);
  size_t covered = 0;
  for (int32_t id : a.output_ids) covered += id >= 0;
  ASSERT_GT(covered, 10000u) << "too little drawn to compare";
  ASSERT_EQ(a.rgba.size(), b.rgba.size());
  EXPECT_EQ(std::memcmp(a.rgba.data(), b.rgba.data(), a.rgba.size() * sizeof(Rgba8)), 0)
      << "a closed sphere has no depth ties: the order cannot show";
  EXPECT_TRUE(a.output_ids == b.output_ids) << "the triangle_id output numbers triangles as the file does";
  size_t differ = 0;
  for (size_t i = 0; i < b.keys_ids.size(); ++i) {
    const uint32_t k = b.keys_ids[i];
    ASSERT_EQ(k == ~0u ? ~0u : renumbered.file_triangle[k], a.keys_ids[i]) << "pixel " << i;
    differ += k != a.keys_ids[i];
  }
  EXPECT_GT(differ, 0u) << "the keys carry the scene's own numbers";
}

TEST_F(TriangleRenumber, TheSceneCacheKeepsTheOrderAndTheFileNumbers) {
  const test::ShuffledSphere file = test::write_shuffled_sphere(m_dir.path(""), 8000, 2, 3);
  const std::string cache = m_dir.path("cache");
  const Scene fresh = load(file.obj_path, MeshletGrouping::Auto, cache);
  const Scene hit = load(file.obj_path, MeshletGrouping::Auto, cache);
  ASSERT_FALSE(fresh.file_triangle.empty());
  EXPECT_TRUE(hit.file_triangle == fresh.file_triangle);
  EXPECT_TRUE(hit.indices == fresh.indices);
  EXPECT_TRUE(hit.tri_material == fresh.tri_material);
  ASSERT_TRUE(hit.meshlets);
  EXPECT_TRUE(hit.meshlets->triangle_ids.empty());
  EXPECT_TRUE(hit.meshlets->triangles == fresh.meshlets->triangles);
  // The CPU backend's grouping takes the renumbered file as it is (meshlets_serve).
  const Scene for_cpu = load(file.obj_path, MeshletGrouping::FileOrder, cache);
  EXPECT_TRUE(for_cpu.file_triangle == fresh.file_triangle);
}

TEST_F(TriangleRenumber, RunsAndScenesRenumberedBeforeAreLeftAlone) {
  Scene sphere = make_sphere(2000);
  Meshlets runs = build_meshlet_runs(sphere);
  const BigVector<uint32_t> before = sphere.indices;
  EXPECT_FALSE(renumbers(sphere, runs));
  renumber_in_slot_order(sphere, runs);
  EXPECT_TRUE(sphere.indices == before);
  EXPECT_TRUE(sphere.file_triangle.empty());

  Meshlets patches = build_meshlet_patches(sphere);
  ASSERT_FALSE(patches.triangle_ids.empty());
  const BigVector<uint32_t> ids = patches.triangle_ids;
  ASSERT_TRUE(renumbers(sphere, patches));
  const uint32_t* storage = sphere.indices.data();
  renumber_in_slot_order(sphere, patches);
  EXPECT_EQ(sphere.indices.data(), storage) << "in place: an upload made before is recognised";
  EXPECT_TRUE(sphere.file_triangle == ids);
  EXPECT_TRUE(patches.triangle_ids.empty());
  for (uint32_t t = 0; t < sphere.triangle_count(); t += 97)
    for (int c = 0; c < 3; ++c) EXPECT_EQ(sphere.indices[3 * (size_t)t + c], before[3 * (size_t)ids[t] + c]);

  Meshlets again = build_meshlet_patches(sphere);  // of the renumbered scene: not renumbered twice
  const BigVector<uint32_t> once = sphere.indices;
  EXPECT_FALSE(renumbers(sphere, again));
  renumber_in_slot_order(sphere, again);
  EXPECT_TRUE(sphere.indices == once);
}

// A scene made in memory (the bench's spheres) prepared as a load prepares a file: its patches
// renumbered, its meshlets kept with it, the same image and the same file numbers; under the CPU
// backend's grouping, runs and no renumbering.
TEST_F(TriangleRenumber, ASceneMadeInMemoryIsPreparedAsALoadPreparesAFile) {
  const test::ShuffledSphere file = test::write_shuffled_sphere(m_dir.path(""), 20000, 3, 5);
  const Scene in_file_order = load(file.obj_path, MeshletGrouping::FileOrder);
  ASSERT_TRUE(in_file_order.file_triangle.empty());
  Scene made = in_file_order;
  made.meshlets = nullptr;
  prepare_in_slot_order(made, MeshletGrouping::Auto);
  const uint32_t n = made.triangle_count();
  ASSERT_TRUE(made.meshlets);
  ASSERT_TRUE(is_permutation(made.file_triangle, n));
  EXPECT_TRUE(made.meshlets->triangle_ids.empty()) << "slot i holds triangle i";
  EXPECT_EQ(made.meshlets->triangles.size(), (size_t)n);
  for (uint32_t t = 0; t < n; ++t) {
    const uint32_t f = made.file_triangle[t];
    for (int c = 0; c < 3; ++c)
      ASSERT_EQ(made.indices[3 * (size_t)t + c], in_file_order.indices[3 * (size_t)f + c]) << "triangle " << t;
    ASSERT_EQ(made.tri_material[t], in_file_order.tri_material[f]) << "triangle " << t;
  }
  const Drawn a = draw(in_file_order), b = draw(made);
  size_t covered = 0;
  for (int32_t id : a.output_ids) covered += id >= 0;
  ASSERT_GT(covered, 10000u) << "too little drawn to compare";
  EXPECT_EQ(std::memcmp(a.rgba.data(), b.rgba.data(), a.rgba.size() * sizeof(Rgba8)), 0);
  EXPECT_TRUE(a.output_ids == b.output_ids);

  Scene for_cpu = in_file_order;
  for_cpu.meshlets = nullptr;
  prepare_in_slot_order(for_cpu, MeshletGrouping::FileOrder);
  ASSERT_TRUE(for_cpu.meshlets);
  EXPECT_TRUE(for_cpu.file_triangle.empty());
  EXPECT_TRUE(for_cpu.meshlets->triangle_ids.empty());
  EXPECT_TRUE(for_cpu.indices == in_file_order.indices);
}
