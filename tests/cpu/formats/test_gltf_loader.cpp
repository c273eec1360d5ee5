// The glTF 2.0 reader: Khronos sample models (shared/assets/formats/gltf), a glTF written from the
// Spot OBJ (the same model must give the same scene and the same CPU frame), and hand-made files
// for the edge cases: bad buffers, out-of-range accessors and indices, missing textures,
// primitive modes, node transforms.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "engine/formats/gltf/gltf_loader.h"
#include "engine/load/load_model.h"
#include "engine/render/cpu_renderer.h"
#include "tests/support/gltf_bytes.h"
#include "tests/support/scene_edits.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/test_scenes.h"

namespace facet::test {
namespace {

bool same_texels(const std::vector<Rgba8>& a, const std::vector<Rgba8>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Rgba8)) == 0;
}

std::string sample(const std::string& rel) { return shared_asset("formats/gltf/" + rel); }

// One triangle (or more) in a glTF: `positions` floats and `indices` uint16 in one embedded
// buffer (positions first); `primitive` and `extra` are spliced into the JSON as given.
struct HandMade {
  std::vector<float> positions = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  std::vector<uint16_t> indices = {0, 1, 2};
  std::string primitive = R"("attributes": {"POSITION": 0}, "indices": 1)";
  std::string nodes = R"([{"mesh": 0}])";
  std::string extra;                 // more top-level members, each followed by a comma
  long buffer_length_delta = 0;      // declared byteLength minus the real one
  long position_count_delta = 0;     // accessor count beyond the data
  long index_view_length_delta = 0;  // the index buffer view's byteLength beyond its data

  std::string json() const {
    std::string buf;
    append(buf, positions);
    size_t pos_bytes = buf.size();
    append(buf, indices);
    while (buf.size() % 4) buf += '\0';
    const size_t n = positions.size() / 3;
    return R"({"asset": {"version": "2.0"}, )" + extra + R"("scenes": [{"nodes": [0]}], "nodes": )" + nodes +
           R"(, "meshes": [{"primitives": [{)" + primitive + R"(}]}],
  "buffers": [{"byteLength": )" +
           std::to_string((long)buf.size() + buffer_length_delta) +
           R"(, "uri": "data:application/octet-stream;base64,)" + base64(buf) + R"("}],
  "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": )" +
           std::to_string(pos_bytes) + R"(},
                  {"buffer": 0, "byteOffset": )" +
           std::to_string(pos_bytes) + R"(, "byteLength": )" +
           std::to_string((long)indices.size() * 2 + index_view_length_delta) + R"(}],
  "accessors": [{"bufferView": 0, "componentType": 5126, "count": )" +
           std::to_string((long)n + position_count_delta) +
           R"(, "type": "VEC3"},
                {"bufferView": 1, "componentType": 5123, "count": )" +
           std::to_string(indices.size()) + R"(, "type": "SCALAR"}]})";
  }
};

std::string refusal(const ScratchDir& dir, const HandMade& m) {
  std::string path = dir.write("m.gltf", m.json());
  try {
    load_model(path);
  } catch (const LoadError& e) {
    std::string what = e.what();
    EXPECT_EQ(what.rfind(path + ": ", 0), 0u) << what;
    return what;
  }
  ADD_FAILURE() << "loaded";
  return "";
}

TEST(GltfLoader, ATriangleListLoadsWithItsPositionsAndComputedNormals) {
  ScratchDir dir;
  Scene s = load_model(dir.write("m.gltf", HandMade().json()));
  ASSERT_EQ(s.triangle_count(), 1u);
  EXPECT_EQ(s.positions[1].x, 1.0f);
  EXPECT_NEAR(s.normals[0].z, 1.0f, 1e-6f);
  EXPECT_TRUE(s.uvs.empty());
  EXPECT_TRUE(s.colors.empty());
  EXPECT_EQ(s.materials.size(), 1u);
}

TEST(GltfLoader, ABufferShorterThanItsDeclaredLengthIsRefused) {
  ScratchDir dir;
  HandMade m;
  m.buffer_length_delta = 40;
  std::string what = refusal(dir, m);
  EXPECT_NE(what.find("Buffer"), std::string::npos) << what;
  EXPECT_LT(what.size(), 300u) << "the data URI is not worth repeating";
}

TEST(GltfLoader, ABufferViewPastTheEndOfItsBufferIsRefused) {
  ScratchDir dir;
  HandMade m;
  m.index_view_length_delta = 64;
  std::string what = refusal(dir, m);
  EXPECT_NE(what.find("buffer view 1"), std::string::npos) << what;
  EXPECT_NE(what.find("runs past the end of buffer 0"), std::string::npos) << what;
}

TEST(GltfLoader, AnAccessorReadingPastItsBufferViewIsRefused) {
  ScratchDir dir;
  HandMade m;
  m.position_count_delta = 5;
  std::string what = refusal(dir, m);
  EXPECT_NE(what.find("POSITION"), std::string::npos) << what;
  EXPECT_NE(what.find("past the end of buffer view 0"), std::string::npos) << what;
}

TEST(GltfLoader, AnAccessorThatDoesNotExistIsRefused) {
  ScratchDir dir;
  HandMade m;
  m.primitive = R"("attributes": {"POSITION": 7}, "indices": 1)";
  std::string what = refusal(dir, m);
  EXPECT_NE(what.find("accessor 7 does not exist"), std::string::npos) << what;
}

TEST(GltfLoader, AnIndexPastTheVerticesIsRefused) {
  ScratchDir dir;
  HandMade m;
  m.indices = {0, 1, 9};
  std::string what = refusal(dir, m);
  EXPECT_NE(what.find("index 9"), std::string::npos) << what;
}

TEST(GltfLoader, AnUnknownPrimitiveModeIsRefused) {
  ScratchDir dir;
  HandMade m;
  m.primitive += R"(, "mode": 9)";
  std::string what = refusal(dir, m);
  EXPECT_NE(what.find("mode 9"), std::string::npos) << what;
}

TEST(GltfLoader, OnlyPointsOrLinesIsRefusedSayingSo) {
  ScratchDir dir;
  HandMade m;
  m.primitive += R"(, "mode": 1)";
  std::string what = refusal(dir, m);
  EXPECT_NE(what.find("no triangles"), std::string::npos) << what;
  EXPECT_NE(what.find("1 point or line primitives skipped"), std::string::npos) << what;
}

// The unit normal of triangle t from its winding.
glm::vec3 face_normal(const Scene& s, uint32_t t) {
  auto p = [&](int k) {
    const Vec3& v = s.positions[s.indices[3 * t + k]];
    return glm::vec3(v.x, v.y, v.z);
  };
  return glm::normalize(glm::cross(p(1) - p(0), p(2) - p(0)));
}

TEST(GltfLoader, StripsAndFansBecomeTrianglesFacingTheSameWay) {
  ScratchDir dir;
  HandMade m;
  m.positions = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
  for (const char* mode : {"5", "6"}) {
    // The square as a strip (zig-zag) and as a fan (around the corner at the origin).
    m.indices = mode[0] == '5' ? std::vector<uint16_t>{0, 1, 2, 3} : std::vector<uint16_t>{0, 1, 3, 2};
    m.primitive = std::string(R"("attributes": {"POSITION": 0}, "indices": 1, "mode": )") + mode;
    Scene s = load_model(dir.write(std::string("m") + mode + ".gltf", m.json()));
    ASSERT_EQ(s.triangle_count(), 2u) << "mode " << mode;
    for (uint32_t t = 0; t < 2; ++t) EXPECT_GT(face_normal(s, t).z, 0.99f) << "mode " << mode << " triangle " << t;
  }
}

TEST(GltfLoader, NodeTransformsComposeParentTimesChild) {
  ScratchDir dir;
  HandMade m;
  m.nodes = R"([{"translation": [10, 0, 0], "children": [1]},
               {"scale": [2, 2, 2], "rotation": [0, 0, 0.70710678, 0.70710678], "mesh": 0}])";
  Scene s = load_model(dir.write("m.gltf", m.json()));
  // (1,0,0) scaled to (2,0,0), turned 90 degrees about z to (0,2,0), moved to (10,2,0).
  EXPECT_NEAR(s.positions[1].x, 10.0f, 1e-5f);
  EXPECT_NEAR(s.positions[1].y, 2.0f, 1e-5f);
}

TEST(GltfLoader, AMirroringTransformKeepsTheWindingOutward) {
  ScratchDir dir;
  HandMade m;
  m.nodes = R"([{"scale": [-1, 1, 1], "mesh": 0}])";
  Scene s = load_model(dir.write("m.gltf", m.json()));
  EXPECT_GT(face_normal(s, 0).z, 0.99f);
  EXPECT_GT(s.normals[0].z, 0.99f);
}

TEST(GltfLoader, AMissingTextureShowsACheckerWithAWarning) {
  ScratchDir dir;
  HandMade m;
  m.primitive += R"(, "material": 0)";
  m.extra = R"("materials": [{"name": "skin", "pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}],
               "textures": [{"source": 0}], "images": [{"uri": "nowhere.png"}], )";
  Scene s = load_model(dir.write("m.gltf", m.json()));
  ASSERT_EQ(s.textures.size(), 1u);
  EXPECT_EQ(s.texture_paths[0], "<checker>");
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_NE(s.warnings[0].find("nowhere.png"), std::string::npos) << s.warnings[0];
  EXPECT_NE(s.warnings[0].find("'skin'"), std::string::npos) << s.warnings[0];
}

TEST(GltfLoader, BoxGltfAndGlbPlaceTheSameMeshByTheirOwnNodeMatrices) {
  // Box.gltf's root matrix moves the mesh by (0, 0, 2); Box.glb's turns it -90 degrees about x:
  // (x, y, z) -> (x, z, -y).
  Scene moved = test::in_file_order(load_model(sample("Box/Box.gltf")));
  Scene turned = test::in_file_order(load_model(sample("Box-glb/Box.glb")));
  ASSERT_EQ(moved.triangle_count(), 12u);
  EXPECT_EQ(moved.indices, turned.indices);
  ASSERT_EQ(moved.positions.size(), turned.positions.size());
  for (size_t i = 0; i < moved.positions.size(); ++i) {
    const Vec3 m = moved.positions[i], t = turned.positions[i];
    EXPECT_EQ(t.x, m.x) << i;
    EXPECT_EQ(t.y, m.z - 2.0f) << i;
    EXPECT_EQ(t.z, -m.y) << i;
  }
  EXPECT_TRUE(moved.bounds.closed);
}

TEST(GltfLoader, ATranslationMatrixMovesTheTriangle) {
  Scene plain = load_model(sample("Triangle/Triangle.gltf"));
  Scene moved = load_model(sample("Triangle/Triangle_translation_only_matrix.gltf"));
  ASSERT_EQ(plain.triangle_count(), 1u);
  EXPECT_EQ(moved.bounds.min.x, plain.bounds.min.x + 1.0f);
  EXPECT_EQ(moved.bounds.max.x, plain.bounds.max.x + 1.0f);
}

TEST(GltfLoader, SparseAccessorValuesReplaceTheDenseOnes) {
  // The accessor's declared max includes the sparse substitutions: (6, 4, 0).
  Scene s = load_model(sample("SimpleSparseAccessor/SimpleSparseAccessor.gltf"));
  EXPECT_EQ(s.bounds.max.x, 6.0f);
  EXPECT_EQ(s.bounds.max.y, 4.0f);
}

TEST(GltfLoader, EachInstanceOfAMeshIsDrawnWithItsScale) {
  // One sphere mesh (224 triangles, radius 1) under nodes scaled 1, 3 and 0.1.
  Scene s = load_model(sample("SpheresScaledInstances/spheres_scaled_instances.gltf"));
  EXPECT_EQ(s.triangle_count(), 3u * 224u);
  EXPECT_NEAR(s.bounds.max.y, 3.0f, 1e-5f);
  EXPECT_NEAR(s.bounds.min.y, -3.0f, 1e-5f);
}

TEST(GltfLoader, VertexColoursAreReadOnePerVertex) {
  Scene s = load_model(sample("VertexColorTest/VertexColorTest.gltf"));
  ASSERT_EQ(s.colors.size(), s.positions.size());
  bool varied = false;
  for (const Rgba8& c : s.colors) varied |= c.r != s.colors[0].r || c.g != s.colors[0].g || c.b != s.colors[0].b;
  EXPECT_TRUE(varied);
}

TEST(GltfLoader, VertexColoursAreLinearAndStoredSrgbEncoded) {
  // COLOR_0 is linear in glTF: 0.5 is stored as sRGB code 188, 0.25 as 137.
  ScratchDir dir;
  HandMade m;
  m.positions = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0.5f, 0.25f, 1, 0.5f, 0.25f, 1, 0.5f, 0.25f, 1};
  m.position_count_delta = -3;  // three positions; the colours follow them in the same view
  m.primitive = R"("attributes": {"POSITION": 0, "COLOR_0": 2}, "indices": 1)";
  std::string json = m.json();
  // A third accessor: the colours, stored after the 3 positions in the positions' view.
  const std::string last = R"("type": "SCALAR"}])";
  json.replace(
      json.rfind(last), last.size(),
      R"("type": "SCALAR"}, {"bufferView": 0, "byteOffset": 36, "componentType": 5126, "count": 3, "type": "VEC3"}])");
  Scene s = load_model(dir.write("m.gltf", json));
  ASSERT_EQ(s.colors.size(), 3u);
  EXPECT_EQ(s.colors[0].r, 188);
  EXPECT_EQ(s.colors[0].g, 137);
  EXPECT_EQ(s.colors[0].b, 255);
}

TEST(GltfLoader, DuckTexturesAreDecodedFromFileAndFromTheGlb) {
  Scene a = load_model(sample("Duck/Duck.gltf"));
  Scene b = load_model(sample("Duck-glb/Duck.glb"));
  ASSERT_EQ(a.textures.size(), 1u);
  EXPECT_NE(a.texture_paths[0], "<checker>");
  EXPECT_EQ(a.texels.size(), b.texels.size());
  EXPECT_TRUE(same_texels(a.texels, b.texels));
  EXPECT_EQ(a.uvs.size(), a.positions.size());
}

TEST(GltfLoader, ClampedSamplersAreReportedSinceFramesWrapAllTexturesOneWay) {
  Scene s = load_model(sample("TextureSettingsTest/TextureSettingsTest.gltf"));
  bool reported = false;
  for (const std::string& w : s.warnings) reported |= w.find("sampler") != std::string::npos;
  EXPECT_TRUE(reported);
}

TEST(GltfLoader, ARequiredExtensionFacetCannotReadIsNamed) {
  try {
    load_model(sample("Box-glb/Box_Draco.glb"));
    FAIL() << "loaded";
  } catch (const LoadError& e) {
    EXPECT_NE(std::string(e.what()).find("KHR_draco_mesh_compression"), std::string::npos) << e.what();
  }
}

TEST(GltfLoader, EveryKhronosSampleLoadsWithTriangles) {
  for (const char* f :
       {"CesiumMilkTruck/CesiumMilkTruck.gltf", "Fox/Fox.gltf", "AnimatedMorphCube/AnimatedMorphCube.gltf",
        "MultiUVTest/MultiUVTest.gltf", "TwoSidedPlane/TwoSidedPlane.gltf",
        "ZeroLengthBufferView/ZeroLengthBufferView.gltf", "UnusedTexCoords/NoTextures.gltf",
        "UnusedTexCoords/TexCoord0InvalidTexCoord1Valid.gltf", "UnusedTexCoords/TexCoord2.gltf"}) {
    Scene s = load_model(sample(f));
    EXPECT_GT(s.triangle_count(), 0u) << f;
    EXPECT_EQ(s.normals.size(), s.positions.size()) << f;
    EXPECT_GT(s.bounds.radius, 0.0f) << f;
  }
}

}  // namespace
namespace {

// HandMade's triangle with material 0 as given (JSON of one material).
Scene with_material(const ScratchDir& dir, const std::string& material) {
  HandMade m;
  m.primitive = R"("attributes": {"POSITION": 0}, "indices": 1, "material": 0)";
  m.extra = R"("materials": [)" + material + "], ";
  return load_model(dir.write("m.gltf", m.json()));
}

}  // namespace

TEST(GltfMaterials, MaskScalesAlphaSoThatItsCutoffFallsAtOneHalf) {
  ScratchDir dir;
  Scene s = with_material(dir, R"({"pbrMetallicRoughness": {"baseColorFactor": [1, 1, 1, 0.8]},
                                   "alphaMode": "MASK", "alphaCutoff": 0.4})");
  ASSERT_EQ(s.materials.size(), 1u);
  EXPECT_FLOAT_EQ(s.materials[0].alpha, 0.8f * 0.5f / 0.4f);
  EXPECT_TRUE(s.view(nullptr).has_cutouts == false) << "1.0 >= 0.5: nothing is cut";
}

TEST(GltfMaterials, OpaqueIgnoresBaseColourAlpha) {
  ScratchDir dir;
  Scene s = with_material(dir, R"({"pbrMetallicRoughness": {"baseColorFactor": [1, 1, 1, 0.1]}})");
  EXPECT_EQ(s.materials[0].alpha, 1.0f);
}

TEST(GltfMaterials, BlendByAUniformAlphaWithoutATextureIsDrawnOpaqueWithAWarning) {
  // Cut at 0.5, a uniform 0.3 would make the whole surface vanish.
  ScratchDir dir;
  Scene s =
      with_material(dir, R"({"pbrMetallicRoughness": {"baseColorFactor": [1, 1, 1, 0.3]}, "alphaMode": "BLEND"})");
  EXPECT_EQ(s.materials[0].alpha, 1.0f);
  EXPECT_FALSE(s.view(nullptr).has_cutouts);
  ASSERT_FALSE(s.warnings.empty());
  EXPECT_NE(s.warnings[0].find("drawn opaque"), std::string::npos) << s.warnings[0];
}

TEST(GltfMaterials, EmissiveFactorIsLinearAsGiven) {
  ScratchDir dir;
  Scene s = with_material(dir, R"({"emissiveFactor": [0.25, 0.5, 0]})");
  EXPECT_EQ(s.materials[0].ke.x, 0.25f);
  EXPECT_EQ(s.materials[0].ke.y, 0.5f);
  EXPECT_EQ(s.materials[0].ke.z, 0.0f);
}

TEST(GltfMaterials, BaseColourFactorIsLinearAsGiven) {
  ScratchDir dir;
  Scene s = with_material(dir, R"({"pbrMetallicRoughness": {"baseColorFactor": [0.5, 0.25, 1, 1]}})");
  EXPECT_EQ(s.materials[0].kd.x, 0.5f);
  EXPECT_EQ(s.materials[0].kd.y, 0.25f);
}

}  // namespace facet::test
