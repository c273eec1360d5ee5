// Files a model names are read from its own folder and below, never from above it, from an
// absolute path or through a symbolic link that leads out, unless LoadOptions::read_outside_folder
// (`--read-outside-folder`) allows it: a model from elsewhere must not make facet read, and show,
// any file the user can read. OBJ: an MTL outside is a warning and the default grey; a texture
// outside is the one of that name beside the MTL, else a checker with a warning. glTF: a buffer
// outside is a refusal.
#include <gtest/gtest.h>

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

bool read_file(const Scene& s, const std::string& name) {
  for (const SourceFile& f : s.source_files)
    if (f.exists() && f.path.size() >= name.size() &&
        f.path.compare(f.path.size() - name.size(), name.size(), name) == 0)
      return true;
  return false;
}

void write_texture(const std::string& path, Rgba8 colour) {
  fs::create_directories(fs::path(path).parent_path());
  write_png(path, 2, 2, std::vector<Rgba8>(4, colour));
}

std::string triangle_obj(const std::string& mtllib) {
  return "mtllib " + mtllib + "\nv 0 0 0\nv 1 0 0\nv 1 1 0\nvt 0 0\nvt 1 0\nvt 1 1\nusemtl look\nf 1/1 2/2 3/3\n";
}

TEST(OutsideFolder, AnObjMaterialLibraryAboveTheModelsFolderIsNotRead) {
  test::ScratchDir dir;
  dir.write("secret.mtl", "newmtl look\nKd 1 0 0\n");
  const std::string obj = dir.write("model/m.obj", triangle_obj("../secret.mtl"));
  const Scene s = load_model(obj);
  EXPECT_TRUE(test::any_warning_contains(s, "'../secret.mtl' lies outside the model's folder; not read"));
  EXPECT_TRUE(test::any_warning_contains(s, "--read-outside-folder"));
  EXPECT_FALSE(read_file(s, "secret.mtl"));
  EXPECT_NE(s.material_names.at(0), "look");

  LoadOptions allow;
  allow.read_outside_folder = true;
  const Scene allowed = load_model(obj, allow);
  EXPECT_TRUE(read_file(allowed, "secret.mtl"));
  EXPECT_EQ(allowed.material_names.at(0), "look");
}

TEST(OutsideFolder, AnAbsoluteMaterialLibraryIsNotRead) {
  test::ScratchDir dir;
  const std::string mtl = dir.write("elsewhere/abs.mtl", "newmtl look\nKd 1 0 0\n");
  const std::string obj = dir.write("model/m.obj", triangle_obj(fs::absolute(mtl).string()));
  const Scene s = load_model(obj);
  EXPECT_TRUE(test::any_warning_contains(s, "lies outside the model's folder"));
  EXPECT_FALSE(read_file(s, "abs.mtl"));
}

TEST(OutsideFolder, DotDotThatStaysInsideTheFolderIsRead) {
  test::ScratchDir dir;
  dir.write("model/mats/look.mtl", "newmtl look\nKd 1 0 0\nmap_Kd ../tex/./skin.png\n");
  write_texture(dir.path("model/tex/skin.png"), {7, 8, 9, 255});
  fs::create_directories(dir.path("model/sub"));  // the system walks through it
  const Scene s = load_model(dir.write("model/m.obj", triangle_obj("sub/../mats/look.mtl")));
  EXPECT_FALSE(test::any_warning_contains(s, "outside"));
  EXPECT_TRUE(read_file(s, "look.mtl"));
  EXPECT_TRUE(read_file(s, "skin.png"));
  ASSERT_FALSE(s.texels.empty());
  EXPECT_EQ(s.texels[0].b, 9);
}

TEST(OutsideFolder, ATextureAboveTheFolderIsTheOneBesideTheMtlElseAChecker) {
  test::ScratchDir dir;
  write_texture(dir.path("outside.png"), {200, 0, 0, 255});
  dir.write("model/look.mtl", "newmtl look\nKd 1 1 1\nmap_Kd ../outside.png\n");
  const std::string obj = dir.write("model/m.obj", triangle_obj("look.mtl"));
  const Scene checker = load_model(obj);
  EXPECT_TRUE(test::any_warning_contains(checker, "outside the model's folder; not read"));
  EXPECT_TRUE(test::any_warning_contains(checker, "showing a checker"));
  EXPECT_FALSE(read_file(checker, "/outside.png"));

  write_texture(dir.path("model/outside.png"), {0, 200, 0, 255});  // the exporter's habit: beside the MTL
  const Scene beside = load_model(obj);
  EXPECT_FALSE(test::any_warning_contains(beside, "checker"));
  ASSERT_FALSE(beside.texels.empty());
  EXPECT_EQ(beside.texels[0].g, 200);

  fs::remove(dir.path("model/outside.png"));
  LoadOptions allow;
  allow.read_outside_folder = true;
  const Scene allowed = load_model(obj, allow);
  ASSERT_FALSE(allowed.texels.empty());
  EXPECT_EQ(allowed.texels[0].r, 200);
}

TEST(OutsideFolder, ASymbolicLinkInTheFolderThatLeadsOutIsOutside) {
  test::ScratchDir dir;
  write_texture(dir.path("secret.png"), {200, 0, 0, 255});
  dir.write("secret.mtl", "newmtl look\nKd 1 0 0\n");
  dir.write("model/look.mtl", "newmtl look\nKd 1 1 1\nmap_Kd skin.png\n");
  fs::create_symlink(dir.path("secret.png"), dir.path("model/skin.png"));
  fs::create_symlink(dir.path("secret.mtl"), dir.path("model/linked.mtl"));
  const Scene texture = load_model(dir.write("model/m.obj", triangle_obj("look.mtl")));
  EXPECT_TRUE(test::any_warning_contains(texture, "outside the model's folder; not read"));
  EXPECT_TRUE(test::any_warning_contains(texture, "showing a checker"));
  const Scene library = load_model(dir.write("model/l.obj", triangle_obj("linked.mtl")));
  EXPECT_TRUE(test::any_warning_contains(library, "'linked.mtl' lies outside the model's folder"));

  fs::remove(dir.path("model/skin.png"));
  write_texture(dir.path("model/tex/real.png"), {0, 0, 200, 255});
  fs::create_symlink("tex/real.png", dir.path("model/skin.png"));  // a link that stays inside is read
  const Scene inside = load_model(dir.path("model/m.obj"));
  EXPECT_FALSE(test::any_warning_contains(inside, "outside"));
  ASSERT_FALSE(inside.texels.empty());
  EXPECT_EQ(inside.texels[0].b, 200);
}

std::string gltf_with_buffer(const std::string& uri) {
  return R"({"asset":{"version":"2.0"},"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],
"meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
"buffers":[{"uri":")" +
         uri + R"(","byteLength":36}],"bufferViews":[{"buffer":0,"byteLength":36}],
"accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}]})";
}

TEST(OutsideFolder, AGltfBufferAboveTheFolderIsRefusedUnlessAllowed) {
  test::ScratchDir dir;
  std::string bytes;
  test::append(bytes, std::vector<float>{0, 0, 0, 1, 0, 0, 0, 1, 0});
  dir.write("tri.bin", bytes);
  const std::string model = dir.write("model/tri.gltf", gltf_with_buffer("../tri.bin"));
  try {
    load_model(model);
    ADD_FAILURE() << "a buffer above the model's folder was read";
  } catch (const LoadError& e) {
    EXPECT_NE(std::string(e.what()).find("leads outside the model's folder"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("--read-outside-folder"), std::string::npos) << e.what();
  }
  LoadOptions allow;
  allow.read_outside_folder = true;
  const Scene s = load_model(model, allow);
  EXPECT_EQ(s.triangle_count(), 1u);
  EXPECT_TRUE(read_file(s, "/tri.bin"));
}

TEST(OutsideFolder, AGltfBufferLinkedFromOutsideIsRefused) {
  test::ScratchDir dir;
  std::string bytes;
  test::append(bytes, std::vector<float>{0, 0, 0, 1, 0, 0, 0, 1, 0});
  dir.write("elsewhere.bin", bytes);
  fs::create_directories(dir.path("model"));
  fs::create_symlink(dir.path("elsewhere.bin"), dir.path("model/tri.bin"));
  try {
    load_model(dir.write("model/tri.gltf", gltf_with_buffer("tri.bin")));
    ADD_FAILURE() << "a buffer linked from outside the model's folder was read";
  } catch (const LoadError& e) {
    EXPECT_NE(std::string(e.what()).find("through a symbolic link"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace facet
