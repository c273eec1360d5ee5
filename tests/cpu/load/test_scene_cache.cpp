// The scene cache (engine/load/load_pipeline.h): a second load comes from the cache and equals a fresh
// load in every array; a cache file that is stale, truncated, corrupt, of another version, or
// whose textures changed is ignored with one warning and rebuilt; an unwritable folder is one
// warning; the folder stays under its cap.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "engine/cache/scene_cache_format.h"
#include "engine/load/load_model.h"
#include "engine/load/load_pipeline.h"
#include "engine/meshlets/meshlets.h"
#include "engine/meshlets/triangle_renumber.h"
#include "engine/render/image_io.h"
#include "tests/support/scene_edits.h"
#include "tests/support/scene_warnings.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/test_scenes.h"

namespace facet {
namespace {

namespace fs = std::filesystem;

// A textured quad and an untextured triangle: two materials, a texture with its mips, uvs.
constexpr const char* kObj =
    "mtllib quad.mtl\n"
    "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 2 0 0\n"
    "vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\n"
    "usemtl tex\nf 1/1 2/2 3/3 4/4\n"
    "usemtl plain\nf 2/2 5/1 3/3\n";
constexpr const char* kMtl = "newmtl tex\nKd 1 1 1\nmap_Kd quad.png\nnewmtl plain\nKd 0.5 0.2 0.1\n";

struct CachedModel {
  test::ScratchDir dir;
  std::string obj, cache_dir;
  LoadOptions options;

  CachedModel() {
    obj = dir.write("model/quad.obj", kObj);
    dir.write("model/quad.mtl", kMtl);
    write_texture(Rgba8{200, 10, 10, 255});
    cache_dir = dir.path("cache");
    options.use_cache = true;
    options.cache_dir = cache_dir;
  }
  void write_texture(Rgba8 colour) const {
    write_png(dir.path("model/quad.png"), 5, 3, std::vector<Rgba8>(15, colour));
  }
  Scene load() const { return load_model(obj, options); }
  std::vector<fs::path> cache_files() const {
    std::vector<fs::path> out;
    if (fs::exists(cache_dir))
      for (const auto& e : fs::directory_iterator(cache_dir)) out.push_back(e.path());
    return out;
  }
  fs::path the_cache_file() const {
    auto files = cache_files();
    EXPECT_EQ(files.size(), 1u);
    return files.empty() ? fs::path() : files[0];
  }
};

template <class T, class A, class B>
bool same_bytes(const std::vector<T, A>& a, const std::vector<T, B>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

void expect_same_scene(const Scene& a, const Scene& b) {
  EXPECT_TRUE(same_bytes(a.positions, b.positions));
  EXPECT_TRUE(same_bytes(a.normals, b.normals));
  EXPECT_TRUE(same_bytes(a.uvs, b.uvs));
  EXPECT_TRUE(same_bytes(a.colors, b.colors));
  EXPECT_EQ(a.indices, b.indices);
  EXPECT_EQ(a.tri_material, b.tri_material);
  EXPECT_TRUE(same_bytes(a.materials, b.materials));
  EXPECT_EQ(a.material_names, b.material_names);
  EXPECT_TRUE(same_bytes(a.textures, b.textures));
  EXPECT_EQ(a.texture_paths, b.texture_paths);
  EXPECT_TRUE(same_bytes(a.texels, b.texels));
  EXPECT_EQ(std::memcmp(&a.bounds.min, &b.bounds.min, sizeof(Vec3) * 3), 0);
  EXPECT_EQ(a.bounds.radius, b.bounds.radius);
  EXPECT_EQ(a.bounds.closed, b.bounds.closed);
  EXPECT_EQ(a.warnings, b.warnings);
  ASSERT_TRUE(a.meshlets && b.meshlets);
  EXPECT_TRUE(same_bytes(a.meshlets->meshlets, b.meshlets->meshlets));
  EXPECT_TRUE(same_bytes(a.meshlets->positions, b.meshlets->positions));
  EXPECT_EQ(a.meshlets->triangles, b.meshlets->triangles);
  EXPECT_EQ(a.meshlets->triangle_ids, b.meshlets->triangle_ids);
}

// Sets a file's modification time `seconds` from now (a touch that surely changes it).
void set_mtime(const std::string& path, int seconds) {
  fs::last_write_time(path, fs::file_time_type::clock::now() + std::chrono::seconds(seconds));
}

void overwrite_byte(const fs::path& file, size_t offset) {
  std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg((std::streamoff)offset);
  char c = 0;
  f.read(&c, 1);
  c ^= 0x5a;
  f.seekp((std::streamoff)offset);
  f.write(&c, 1);
}

TEST(SceneCache, SecondLoadComesFromTheCacheAndEqualsAFreshLoad) {
  CachedModel m;
  Scene first = m.load();
  fs::path file = m.the_cache_file();
  const auto written = fs::last_write_time(file);
  Scene fresh = load_model(m.obj);  // the cache off
  Scene second = m.load();
  expect_same_scene(second, fresh);
  expect_same_scene(first, fresh);
  EXPECT_EQ(test::cache_warnings(second), 0);
  EXPECT_GE(fs::last_write_time(file), written);  // the hit touched it (eviction order)
  EXPECT_EQ(second.source, m.obj);
}

TEST(SceneCache, HitDoesNotParseTheModel) {
  CachedModel m;
  m.load();
  // The same size and time, other bytes: only a cache hit still returns the old quad.
  std::string obj(kObj);
  obj.replace(obj.find("v 2 0 0"), 7, "v 3 0 0");
  const auto t = fs::last_write_time(m.obj);
  m.dir.write("model/quad.obj", obj);
  fs::last_write_time(m.obj, t);
  Scene s = m.load();
  EXPECT_EQ(s.positions[4].x, 2.0f);
}

TEST(SceneCache, ModelWithNewMtimeIsRebuiltWithOneWarning) {
  CachedModel m;
  m.load();
  set_mtime(m.obj, 5);
  Scene s = m.load();
  EXPECT_EQ(test::cache_warnings(s), 1);
  EXPECT_TRUE(test::any_warning_contains(s, "the model changed"));
  EXPECT_EQ(test::cache_warnings(m.load()), 0);  // the rebuilt file is used next time
}

TEST(SceneCache, ModelWithNewSizeIsRebuiltFromTheNewFile) {
  CachedModel m;
  m.load();
  const auto t = fs::last_write_time(m.obj);
  m.dir.write("model/quad.obj", std::string(kObj) + "v 9 9 9\nf 3 5 6\n");
  fs::last_write_time(m.obj, t);  // same time: the size alone must tell
  Scene s = m.load();
  EXPECT_EQ(s.triangle_count(), 4u);
  EXPECT_EQ(test::cache_warnings(s), 1);
}

TEST(SceneCache, TruncatedFileIsIgnoredWithOneWarning) {
  CachedModel m;
  Scene fresh = m.load();
  fs::path file = m.the_cache_file();
  fs::resize_file(file, fs::file_size(file) - 7);
  Scene s = m.load();
  EXPECT_EQ(test::cache_warnings(s), 1);
  EXPECT_TRUE(test::any_warning_contains(s, "truncated"));
  EXPECT_EQ(s.positions.size(), fresh.positions.size());
}

TEST(SceneCache, CorruptByteIsCaughtByTheChecksum) {
  CachedModel m;
  m.load();
  fs::path file = m.the_cache_file();
  overwrite_byte(file, fs::file_size(file) - 20);  // inside the meshlet arrays
  Scene s = m.load();
  EXPECT_EQ(test::cache_warnings(s), 1);
  EXPECT_TRUE(test::any_warning_contains(s, "checksum"));
}

TEST(SceneCache, AnotherFormatVersionIsIgnored) {
  CachedModel m;
  m.load();
  fs::path file = m.the_cache_file();
  overwrite_byte(file, offsetof(SceneCacheHeader, version));
  Scene s = m.load();
  EXPECT_EQ(test::cache_warnings(s), 1);
  EXPECT_TRUE(test::any_warning_contains(s, "format version"));
}

TEST(SceneCache, AFileOfThePreviousVersionIsRebuiltInTheCurrentOne) {
  CachedModel m;
  m.load();
  fs::path file = m.the_cache_file();
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    const uint32_t previous = kSceneCacheVersion - 1;
    f.seekp((std::streamoff)offsetof(SceneCacheHeader, version));
    f.write(reinterpret_cast<const char*>(&previous), sizeof previous);
  }
  Scene s = m.load();
  EXPECT_TRUE(test::any_warning_contains(s, "format version " + std::to_string(kSceneCacheVersion - 1)));
  EXPECT_EQ(test::cache_warnings(s), 1);
  Scene fresh = load_model(m.obj);
  EXPECT_TRUE(same_bytes(s.materials, fresh.materials));
  EXPECT_TRUE(same_bytes(s.texels, fresh.texels));
  std::ifstream f(m.the_cache_file(), std::ios::binary);
  SceneCacheHeader h{};
  f.read(reinterpret_cast<char*>(&h), sizeof h);
  EXPECT_EQ(h.version, kSceneCacheVersion) << "the rebuilt file replaced the old one";
}

TEST(SceneCache, MaterialsAndVertexColoursComeBackEqual) {
  test::ScratchDir dir;
  const std::string obj = dir.write("m/coloured.obj",
                                    "mtllib c.mtl\nv 0 0 0 1 0 0\nv 1 0 0 0 1 0\nv 0 1 0 0 0 0.5\n"
                                    "vt 0 0\nvt 1 0\nvt 0 1\nusemtl shiny\nf 1/1 2/2 3/3\n");
  dir.write("m/c.mtl",
            "newmtl shiny\nKd 0.5 0.5 0.5\nKs 0.9 0.8 0.7\nNs 40\nKa 0.2 0.2 0.2\n"
            "Ke 0.1 0 0\nd 0.75\nmap_d a.png\n");
  write_png(dir.path("m/a.png"), 2, 2, std::vector<Rgba8>(4, Rgba8{128, 128, 128, 255}));
  LoadOptions options;
  options.use_cache = true;
  options.cache_dir = dir.path("cache");
  const Scene first = load_model(obj, options), second = load_model(obj, options);
  ASSERT_EQ(test::cache_warnings(second), 0);
  ASSERT_EQ(second.colors.size(), 3u);
  ASSERT_EQ(second.materials.size(), 1u);
  EXPECT_EQ(second.materials[0].ns, 40.0f);
  EXPECT_EQ(second.materials[0].alpha, 0.75f);
  EXPECT_EQ(second.materials[0].alpha_texture, 0);
  expect_same_scene(second, first);
}

TEST(SceneCache, ChangedTextureInvalidatesTheCache) {
  CachedModel m;
  Scene before = m.load();
  m.write_texture(Rgba8{10, 200, 10, 255});
  set_mtime(m.dir.path("model/quad.png"), 5);
  Scene after = m.load();
  EXPECT_EQ(test::cache_warnings(after), 1);
  EXPECT_TRUE(test::any_warning_contains(after, "quad.png changed"));
  ASSERT_FALSE(after.texels.empty());
  EXPECT_EQ(after.texels[0].g, 200);
}

TEST(SceneCache, ChangedMtlInvalidatesTheCache) {
  CachedModel m;
  m.load();
  m.dir.write("model/quad.mtl", std::string(kMtl) + "# edited\n");
  EXPECT_EQ(test::cache_warnings(m.load()), 1);
}

TEST(SceneCache, UnwritableFolderIsOneWarningAndTheLoadGoesOn) {
  CachedModel m;
  // A plain file where the folder should be: no permission games, so it holds as root too.
  m.dir.write("cache", "not a folder");
  Scene s = m.load();
  EXPECT_EQ(s.triangle_count(), 3u);
  EXPECT_EQ(test::cache_warnings(s), 1);
  EXPECT_TRUE(test::any_warning_contains(s, "not written"));
}

TEST(SceneCache, FolderStaysUnderTheCapOldestFirst) {
  CachedModel m;
  // With the quad's MTL (and so its texture): files nearly as large as the quad's, so that two fit
  // under the cap below and three do not.
  const std::string other =
      m.dir.write("model/other.obj", "mtllib quad.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl plain\nf 1 2 3\n");
  const std::string third =
      m.dir.write("model/third.obj", "mtllib quad.mtl\nv 0 0 0\nv 2 0 0\nv 0 2 0\nusemtl plain\nf 1 2 3\n");
  m.load();
  const fs::path quad_file = m.the_cache_file();
  const uintmax_t one = fs::file_size(quad_file);
  m.options.cache_max_bytes = 2 * one + 1;  // the quad's file is the largest of the three
  fs::last_write_time(quad_file, fs::file_time_type::clock::now() - std::chrono::hours(1));
  load_model(other, m.options);
  load_model(third, m.options);
  uintmax_t total = 0;
  for (const fs::path& f : m.cache_files()) total += fs::file_size(f);
  EXPECT_LE(total, m.options.cache_max_bytes);
  EXPECT_FALSE(fs::exists(quad_file));  // the oldest went first
  EXPECT_EQ(m.cache_files().size(), 2u);
}

TEST(SceneCache, OffByDefaultWritesNothing) {
  CachedModel m;
  LoadOptions plain;
  plain.cache_dir = m.cache_dir;
  load_model(m.obj, plain);
  EXPECT_TRUE(m.cache_files().empty());
}

TEST(SceneCache, LoadedSceneCarriesPreparedMeshletsEqualToBuildingThem) {
  CachedModel m;
  Scene s = load_model(m.obj);
  ASSERT_TRUE(s.meshlets);
  // Built from the file's order, then renumbered as the load does (triangle_renumber.h).
  Scene file = test::in_file_order(s);
  Meshlets built = build_meshlets(file);
  renumber_in_slot_order(file, built);
  EXPECT_TRUE(same_bytes(s.meshlets->meshlets, built.meshlets));
  EXPECT_EQ(s.meshlets->triangle_ids, built.triangle_ids);
  EXPECT_EQ(s.file_triangle, file.file_triangle);
  EXPECT_EQ(s.indices, file.indices);
}

TEST(SceneCache, RunsCachedForTheCpuBackendAreRebuiltAsPatchesForTheCudaOne) {
  // The bunny is a scan: the CPU backend's load groups runs of its file order, the CUDA one's
  // patches (scene.h, MeshletGrouping).
  test::ScratchDir dir;
  const std::string bunny = test::shared_asset("bunny/stanford-bunny.obj");
  LoadOptions cpu;
  cpu.use_cache = true;
  cpu.cache_dir = dir.path("cache");
  cpu.meshlets = MeshletGrouping::FileOrder;
  LoadOptions cuda = cpu;
  cuda.meshlets = MeshletGrouping::Auto;
  const Scene runs = load_model(bunny, cpu);
  EXPECT_TRUE(runs.meshlets->triangle_ids.empty());
  // The runs do not serve the CUDA backend: rebuilt, the file replaced, and no warning (nothing
  // was wrong with it).
  const Scene patches = load_model(bunny, cuda);
  EXPECT_FALSE(patches.file_triangle.empty()) << "patches, and the scene renumbered in their order";
  EXPECT_EQ(test::cache_warnings(patches), 0);
  EXPECT_EQ(std::distance(fs::directory_iterator(cpu.cache_dir), fs::directory_iterator()), 1);
  // Patches serve the CPU backend as they are: a fresh CPU load would have grouped runs.
  const Scene hit = load_model(bunny, cpu);
  expect_same_scene(hit, patches);
  const Scene again = load_model(bunny, cuda);
  expect_same_scene(again, patches);
}

TEST(SceneCache, CancelledLoadThrowsLoadCancelled) {
  CachedModel m;
  std::atomic<bool> cancel{true};
  LoadOptions o;
  o.cancel = &cancel;
  EXPECT_THROW(load_model(m.obj, o), LoadCancelled);
}

TEST(SceneCache, CancelDuringParsingStopsTheLoad) {
  CachedModel m;
  std::atomic<bool> cancel{false};
  LoadOptions o;
  o.cancel = &cancel;
  o.progress = [&](float, const char* stage) {
    if (std::string(stage) == "parsing") cancel = true;
  };
  EXPECT_THROW(load_model(m.obj, o), LoadCancelled);
}

TEST(SceneCache, StatusReportsTheStagesWithBytesAndTriangles) {
  CachedModel m;
  std::vector<std::string> stages;
  LoadStatus last;
  LoadOptions o;
  o.status = [&](const LoadStatus& st) {
    if (stages.empty() || stages.back() != st.stage) stages.push_back(st.stage);
    last = st;
  };
  Scene s = load_model(m.obj, o);
  EXPECT_EQ(stages.front(), "reading");
  EXPECT_NE(std::find(stages.begin(), stages.end(), "parsing"), stages.end());
  EXPECT_NE(std::find(stages.begin(), stages.end(), "preparing"), stages.end());
  EXPECT_EQ(stages.back(), "done");
  EXPECT_EQ(last.bytes_total, fs::file_size(m.obj));
  EXPECT_EQ(last.bytes_done, last.bytes_total);
  EXPECT_EQ(last.triangles_total, s.triangle_count());
  EXPECT_EQ(last.triangles_done, s.triangle_count());
}

TEST(SceneCache, AbandonedTemporaryFilesAreRemovedButFreshOnesKept) {
  CachedModel m;
  m.load();
  const fs::path file = m.the_cache_file();
  const std::string old_temp = file.string() + ".tmp-AAAAAA", new_temp = file.string() + ".tmp-BBBBBB";
  std::ofstream(old_temp) << "half a file";
  std::ofstream(new_temp) << "being written";
  fs::last_write_time(old_temp, fs::file_time_type::clock::now() - std::chrono::hours(2));
  set_mtime(m.obj, 5);  // the next load writes, and so evicts
  m.load();
  EXPECT_FALSE(fs::exists(old_temp));
  EXPECT_TRUE(fs::exists(new_temp));  // perhaps another process's write in progress
}

}  // namespace
}  // namespace facet
