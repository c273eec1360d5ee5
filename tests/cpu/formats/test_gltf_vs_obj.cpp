// The same model as OBJ and as glTF gives the same scene and the same CPU frame: Spot (OBJ + MTL
// + PNG) written here as a .gltf with an external .bin and the same PNG, then loaded by the glTF
// reader and compared with the OBJ reader's scene.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "engine/load/load_model.h"
#include "engine/render/renderer.h"
#include "tests/support/image_compare.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/test_scenes.h"

namespace facet::test {
namespace {

bool same_texels(const std::vector<Rgba8>& a, const std::vector<Rgba8>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Rgba8)) == 0;
}

template <class T, class A>
size_t append(std::string& buf, const std::vector<T, A>& v) {
  size_t offset = buf.size();
  buf.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
  return offset;
}

std::string view(size_t offset, size_t length) {
  return R"({"buffer": 0, "byteOffset": )" + std::to_string(offset) + R"(, "byteLength": )" + std::to_string(length) +
         "}";
}

std::string accessor(int view, int component, size_t count, const char* type) {
  return R"({"bufferView": )" + std::to_string(view) + R"(, "componentType": )" + std::to_string(component) +
         R"(, "count": )" + std::to_string(count) + R"(, "type": ")" + type + R"("})";
}

// Writes `s` (one material, one texture) as dir/model.gltf + model.bin + the texture's file.
std::string write_as_gltf(const Scene& s, const ScratchDir& dir) {
  BigVector<Vec2> uvs = s.uvs;
  for (Vec2& uv : uvs) uv.y = 1.0f - uv.y;  // glTF's v runs down from the top row
  std::string bin;
  const size_t p = append(bin, s.positions), n = append(bin, s.normals), t = append(bin, uvs),
               i = append(bin, s.indices);
  std::ofstream(dir.path("model.bin"), std::ios::binary) << bin;
  std::filesystem::copy_file(s.texture_paths.at(0), dir.path("texture.png"));
  const Vec3 kd = s.materials.at(0).kd;
  char factor[96];
  std::snprintf(factor, sizeof factor, "[%.9g, %.9g, %.9g, 1]", kd.x, kd.y, kd.z);
  const size_t v = s.positions.size();
  std::string json = R"({"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
    "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1, "TEXCOORD_0": 2},
                                "indices": 3, "material": 0}]}],
    "materials": [{"pbrMetallicRoughness": {"baseColorFactor": )" +
                     std::string(factor) +
                     R"(, "baseColorTexture": {"index": 0}}}],
    "textures": [{"source": 0}], "images": [{"uri": "texture.png"}],
    "buffers": [{"uri": "model.bin", "byteLength": )" +
                     std::to_string(bin.size()) + R"(}],
    "bufferViews": [)" +
                     view(p, n - p) + ", " + view(n, t - n) + ", " + view(t, i - t) + ", " + view(i, bin.size() - i) +
                     R"(],
    "accessors": [)" +
                     accessor(0, 5126, v, "VEC3") + ", " + accessor(1, 5126, v, "VEC3") + ", " +
                     accessor(2, 5126, v, "VEC2") + ", " + accessor(3, 5125, s.indices.size(), "SCALAR") + "]}";
  return dir.write("model.gltf", json);
}

std::vector<Rgba8> frame(const Scene& s, Shading shading) {
  auto r = make_renderer(Backend::Cpu);
  r->set_scene(std::make_shared<Scene>(s));
  Camera cam = Camera::framing(s.bounds, 160.0f / 120.0f, glm::radians(45.0f));
  cam.fit_clip_planes(s.bounds);
  RenderOptions settings;
  settings.shading = shading;
  r->render(cam, settings, 160, 120);
  std::vector<Rgba8> rgba;
  r->read_rgba(rgba);
  return rgba;
}

class SpotAsGltf : public ::testing::Test {
 protected:
  void SetUp() override {
    obj = load_model(project_asset("spot/spot_triangulated_with_mtl.obj"));
    ASSERT_EQ(obj.textures.size(), 1u);
    gltf = load_model(write_as_gltf(obj, dir));
  }
  ScratchDir dir;
  Scene obj, gltf;
};

TEST_F(SpotAsGltf, HasTheSameTrianglesPositionsAndMaterial) {
  EXPECT_EQ(gltf.indices, obj.indices);
  ASSERT_EQ(gltf.positions.size(), obj.positions.size());
  EXPECT_EQ(0, std::memcmp(gltf.positions.data(), obj.positions.data(), obj.positions.size() * sizeof(Vec3)));
  EXPECT_EQ(gltf.bounds.closed, obj.bounds.closed);
  ASSERT_EQ(gltf.materials.size(), 1u);
  EXPECT_EQ(gltf.materials[0].kd.x, obj.materials[0].kd.x);
  EXPECT_TRUE(same_texels(gltf.texels, obj.texels));
  EXPECT_TRUE(gltf.warnings.empty()) << gltf.warnings[0];
}

TEST_F(SpotAsGltf, HasTheSameNormalsAndTextureCoordinates) {
  ASSERT_EQ(gltf.normals.size(), obj.normals.size());
  ASSERT_EQ(gltf.uvs.size(), obj.uvs.size());
  for (size_t i = 0; i < obj.normals.size(); ++i) {
    EXPECT_NEAR(gltf.normals[i].x, obj.normals[i].x, 1e-6f) << i;
    EXPECT_NEAR(gltf.uvs[i].y, obj.uvs[i].y, 1e-6f) << i;
  }
}

TEST_F(SpotAsGltf, DrawsTheSameLitFrameOnTheCpu) {
  ColorComparison c = compare_rgba(frame(obj, Shading::Lit), frame(gltf, Shading::Lit), 1);
  EXPECT_EQ(c.pixels_over, 0u) << "largest difference " << c.max_channel_diff;
}

TEST_F(SpotAsGltf, DrawsTheSameTexturedFrameOnTheCpu) {
  // v goes through 1 - (1 - v): within a rounding step, which moves a texel lookup on few pixels.
  std::vector<Rgba8> a = frame(obj, Shading::Texture), b = frame(gltf, Shading::Texture);
  ColorComparison c = compare_rgba(a, b, 2);
  EXPECT_LE(c.pixels_over, a.size() / 1000) << "largest difference " << c.max_channel_diff;
}

}  // namespace
}  // namespace facet::test
