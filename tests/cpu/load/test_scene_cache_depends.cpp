// The scene cache knows what it depends on: an entry records every file its load read
// or looked for (Scene::source_files), and a change to any one of them, each kind edited in turn,
// makes the entry stale: rebuilt from the files as they are now, reported once, then used again.
// Kinds: an MTL in a subfolder, a texture in another subfolder, a glTF's external buffer and
// image, an MTL and a texture that were missing and appear, a texture that is removed.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/load/load_model.h"
#include "engine/render/image_io.h"
#include "tests/support/gltf_bytes.h"
#include "tests/support/scene_warnings.h"
#include "tests/support/scratch_dir.h"

namespace facet {
namespace {

namespace fs = std::filesystem;

// Replaces a file's bytes with others of the same size, keeping its modification time but for a
// few seconds: a dependency check that looked at the size alone would miss it.
void rewrite_same_size(const test::ScratchDir& dir, const std::string& rel, const std::string& bytes) {
  const std::string path = dir.path(rel);
  ASSERT_EQ(fs::file_size(path), bytes.size()) << rel;
  const auto was = fs::last_write_time(path);
  dir.write(rel, bytes);
  fs::last_write_time(path, was + std::chrono::seconds(3));
}

void write_texture(const std::string& path, Rgba8 colour) {
  fs::create_directories(fs::path(path).parent_path());
  write_png(path, 4, 4, std::vector<Rgba8>(16, colour));
}

// An OBJ whose MTL lies in a subfolder and names a texture in another.
struct ObjWithFolders {
  test::ScratchDir dir;
  std::string obj;
  LoadOptions options;
  ObjWithFolders(const char* mtllib = "mats/look.mtl", const char* map = "../tex/skin.png") {
    obj = dir.write("model/m.obj", std::string("mtllib ") + mtllib +
                                       "\nv 0 0 0\nv 1 0 0\nv 1 1 0\nvt 0 0\nvt 1 0\nvt 1 1\nusemtl look\n"
                                       "f 1/1 2/2 3/3\n");
    dir.write(std::string("model/") + mtllib, std::string("newmtl look\nKd 1 1 1\nmap_Kd ") + map + "\n");
    options.use_cache = true;
    options.cache_dir = dir.path("cache");
  }
  Scene load() const { return load_model(obj, options); }
};

TEST(SceneCacheDepends, AnMtlInASubfolderThatChangesRebuildsTheEntryOnce) {
  ObjWithFolders m;
  write_texture(m.dir.path("model/tex/skin.png"), {9, 9, 9, 255});
  ASSERT_EQ(test::cache_warnings(m.load()), 0);
  ASSERT_EQ(test::cache_warnings(m.load()), 0) << "a hit";
  rewrite_same_size(m.dir, "model/mats/look.mtl", "newmtl look\nKd 1 0 1\nmap_Kd ../tex/skin.png\n");
  const Scene after = m.load();
  EXPECT_EQ(test::cache_warnings(after), 1);
  EXPECT_TRUE(test::any_warning_contains(after, "look.mtl changed since it was written"));
  ASSERT_EQ(after.materials.size(), 1u);
  EXPECT_EQ(after.materials[0].kd.y, 0.0f) << "the edited MTL's colour, not the cached one";
  EXPECT_EQ(test::cache_warnings(m.load()), 0) << "the rebuilt entry is used again";
}

TEST(SceneCacheDepends, ATextureInAnotherFolderThatChangesIsReadAgain) {
  ObjWithFolders m;
  write_texture(m.dir.path("model/tex/skin.png"), {200, 10, 10, 255});
  ASSERT_EQ(m.load().texels.at(0).r, 200);
  write_texture(m.dir.path("model/tex/skin.png"), {10, 10, 200, 255});
  fs::last_write_time(m.dir.path("model/tex/skin.png"), fs::file_time_type::clock::now() + std::chrono::seconds(3));
  const Scene after = m.load();
  EXPECT_EQ(test::cache_warnings(after), 1);
  ASSERT_FALSE(after.texels.empty());
  EXPECT_EQ(after.texels[0].b, 200);
}

TEST(SceneCacheDepends, AMissingTextureThatAppearsReplacesTheChecker) {
  ObjWithFolders m;
  const Scene before = m.load();
  ASSERT_TRUE(test::any_warning_contains(before, "showing a checker"));
  write_texture(m.dir.path("model/tex/skin.png"), {1, 2, 3, 255});
  const Scene after = m.load();
  EXPECT_TRUE(test::any_warning_contains(after, "skin.png appeared since it was written"));
  EXPECT_FALSE(test::any_warning_contains(after, "showing a checker"));
  ASSERT_FALSE(after.texels.empty());
  EXPECT_EQ(after.texels[0].b, 3);
}

TEST(SceneCacheDepends, ARemovedTextureIsNoLongerDrawnFromTheCache) {
  ObjWithFolders m;
  write_texture(m.dir.path("model/tex/skin.png"), {1, 2, 3, 255});
  ASSERT_FALSE(test::any_warning_contains(m.load(), "checker"));
  fs::remove(m.dir.path("model/tex/skin.png"));
  const Scene after = m.load();
  EXPECT_TRUE(test::any_warning_contains(after, "skin.png is gone since it was written"));
  EXPECT_TRUE(test::any_warning_contains(after, "showing a checker"));
}

TEST(SceneCacheDepends, AMissingMtlThatAppearsGivesTheFacesTheirMaterial) {
  test::ScratchDir dir;
  const std::string obj = dir.write("m.obj", "mtllib sub/late.mtl\nv 0 0 0\nv 1 0 0\nv 1 1 0\nusemtl red\nf 1 2 3\n");
  LoadOptions options;
  options.use_cache = true;
  options.cache_dir = dir.path("cache");
  ASSERT_TRUE(test::any_warning_contains(load_model(obj, options), "late.mtl"));
  dir.write("sub/late.mtl", "newmtl red\nKd 1 0 0\n");
  const Scene after = load_model(obj, options);
  EXPECT_TRUE(test::any_warning_contains(after, "late.mtl appeared since it was written"));
  ASSERT_EQ(after.material_names.size(), 1u);
  EXPECT_EQ(after.material_names[0], "red");
}

// A one-triangle glTF whose positions live in tri.bin and whose texture is skin.png.
std::string gltf_json() {
  return R"({"asset":{"version":"2.0"},"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0,"TEXCOORD_0":1},"material":0}]}],
"materials":[{"pbrMetallicRoughness":{"baseColorTexture":{"index":0}}}],
"textures":[{"source":0}],"images":[{"uri":"img/skin.png"}],
"buffers":[{"uri":"tri.bin","byteLength":60}],
"bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":24}],
"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[X,1,0]},
{"bufferView":1,"componentType":5126,"count":3,"type":"VEC2"}]})";
}

std::string triangle_bytes(float x) {
  std::string b;
  test::append(b, std::vector<float>{0, 0, 0, x, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1});
  return b;
}

struct GltfWithFiles {
  test::ScratchDir dir;
  std::string model;
  LoadOptions options;
  GltfWithFiles() {
    std::string json = gltf_json();
    json.replace(json.find("[X,"), 3, "[2,");
    model = dir.write("g/tri.gltf", json);
    dir.write("g/tri.bin", triangle_bytes(1));
    write_texture(dir.path("g/img/skin.png"), {50, 60, 70, 255});
    options.use_cache = true;
    options.cache_dir = dir.path("cache");
  }
  Scene load() const { return load_model(model, options); }
};

float largest_x(const Scene& s) {
  float x = 0;
  for (const Vec3& p : s.positions) x = std::max(x, p.x);
  return x;
}

TEST(SceneCacheDepends, AGltfBufferThatChangesRebuildsTheGeometry) {
  GltfWithFiles g;
  ASSERT_EQ(largest_x(g.load()), 1.0f);
  ASSERT_EQ(test::cache_warnings(g.load()), 0) << "a hit";
  rewrite_same_size(g.dir, "g/tri.bin", triangle_bytes(2));
  const Scene after = g.load();
  EXPECT_EQ(test::cache_warnings(after), 1);
  EXPECT_TRUE(test::any_warning_contains(after, "tri.bin changed since it was written"));
  EXPECT_EQ(largest_x(after), 2.0f) << "the edited buffer's geometry, not the cached one";
}

TEST(SceneCacheDepends, AGltfImageThatChangesIsReadAgain) {
  GltfWithFiles g;
  ASSERT_EQ(g.load().texels.at(0).r, 50);
  write_texture(g.dir.path("g/img/skin.png"), {90, 60, 70, 255});
  fs::last_write_time(g.dir.path("g/img/skin.png"), fs::file_time_type::clock::now() + std::chrono::seconds(3));
  const Scene after = g.load();
  EXPECT_EQ(test::cache_warnings(after), 1);
  ASSERT_FALSE(after.texels.empty());
  EXPECT_EQ(after.texels[0].r, 90);
}

TEST(SceneCacheDepends, EveryFileTheLoadReadIsRecordedOnceModelFirst) {
  GltfWithFiles g;
  const Scene s = g.load();
  ASSERT_EQ(s.source_files.size(), 3u);
  EXPECT_EQ(s.source_files[0].path, fs::canonical(g.model).string());
  EXPECT_EQ(s.source_files[1].path, fs::canonical(g.dir.path("g/tri.bin")).string());
  EXPECT_EQ(s.source_files[2].path, fs::canonical(g.dir.path("g/img/skin.png")).string());
  for (const SourceFile& f : s.source_files) EXPECT_EQ(f.size, fs::file_size(f.path)) << f.path;
  const Scene hit = g.load();
  ASSERT_EQ(hit.source_files.size(), 3u) << "a cache hit gives the same list back";
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(hit.source_files[i].path, s.source_files[i].path);
}

}  // namespace
}  // namespace facet
