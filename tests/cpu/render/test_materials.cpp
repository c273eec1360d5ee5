// MTL materials as loaded (engine/formats/obj/mtl_parser.h, obj_materials.h): Ks/Ns/Ka/Ke/d/Tr and their maps
// read, colours decoded from sRGB to linear, malformed values warned as `MTL:LINE: problem`; and
// vertex colours from OBJ and PLY.
#include <gtest/gtest.h>

#include <string>

#include "engine/formats/obj/mtl_parser.h"
#include "engine/load/load_model.h"
#include "engine/render/image_io.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/srgb_reference.h"
#include "tests/support/test_scenes.h"

using namespace facet;

namespace {

std::vector<MtlMaterial> parse(const std::string& text, std::vector<std::string>* warnings) {
  return parse_mtl(text.data(), text.size(), "lib.mtl", warnings);
}

bool any_contains(const std::vector<std::string>& v, const std::string& what) {
  for (const std::string& s : v)
    if (s.find(what) != std::string::npos) return true;
  return false;
}

bool near3(Vec3 a, Vec3 b, float eps = 1e-5f) {
  return std::fabs(a.x - b.x) < eps && std::fabs(a.y - b.y) < eps && std::fabs(a.z - b.z) < eps;
}

// One triangle with uvs using material "m" of the given MTL text, in a scratch folder.
std::string triangle_with_mtl(test::ScratchDir& dir, const std::string& mtl) {
  dir.write("t.mtl", mtl);
  return dir.write("t.obj",
                   "mtllib t.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\n"
                   "usemtl m\nf 1/1 2/2 3/3\n");
}

}  // namespace

TEST(MtlMaterials, AmbientColourIsReadAndMarkedGiven) {
  std::vector<std::string> warnings;
  auto m = parse("newmtl a\nKa 0.1 0.2 0.3 # comment\nnewmtl b\n", &warnings);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_TRUE(m[0].has_ka);
  EXPECT_FLOAT_EQ(m[0].ka.z, 0.3f);
  EXPECT_FALSE(m[1].has_ka);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
}

TEST(MtlMaterials, AColourOfOneNumberIsAGreyWithoutWarning) {
  std::vector<std::string> warnings;
  auto m = parse("newmtl a\nKs 0.25\n", &warnings);
  EXPECT_EQ(m[0].ks.x, 0.25f);
  EXPECT_EQ(m[0].ks.y, 0.25f);
  EXPECT_EQ(m[0].ks.z, 0.25f);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
}

TEST(MtlMaterials, MalformedValuesAreWarnedWithFileAndLine) {
  std::vector<std::string> warnings;
  parse("newmtl a\nKd 0.5 zero 1\nNs many\nd 1.5\nKs 0.1 0.2\nKe -1 0 0\nTr 0.5 0.5\n", &warnings);
  ASSERT_EQ(warnings.size(), 6u);
  EXPECT_TRUE(any_contains(warnings, "lib.mtl:2: Kd needs three numbers"));
  EXPECT_TRUE(any_contains(warnings, "lib.mtl:3: Ns needs one number"));
  EXPECT_TRUE(any_contains(warnings, "lib.mtl:4: d 1.5"));
  EXPECT_TRUE(any_contains(warnings, "lib.mtl:5: Ks needs three numbers"));
  EXPECT_TRUE(any_contains(warnings, "lib.mtl:6: Ke has a negative value"));
  EXPECT_TRUE(any_contains(warnings, "lib.mtl:7: Tr needs one number"));
}

TEST(MtlMaterials, LineNumbersCountCrlfLinesOnce) {
  std::vector<std::string> warnings;
  parse("newmtl a\r\n\r\nNs x\r\n", &warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_TRUE(any_contains(warnings, "lib.mtl:3: Ns")) << warnings[0];
}

TEST(MtlMaterials, LoadedColoursAreLinearAndNsIsAWholeNumber) {
  test::ScratchDir dir;
  Scene s = load_model(triangle_with_mtl(dir,
                                         "newmtl m\nKd 0.5 0.25 1\nKs 0.5 0.5 0.5\nNs 33.4\n"
                                         "Ka 0.2 0.2 0.2\nKe 0.1 0.2 0.3\n"));
  ASSERT_EQ(s.materials.size(), 1u);
  const Material& m = s.materials[0];
  EXPECT_TRUE(near3(m.kd, test::srgb_to_linear_ref({0.5f, 0.25f, 1.0f})));
  EXPECT_TRUE(near3(m.ks, test::srgb_to_linear_ref({0.5f, 0.5f, 0.5f})));
  EXPECT_TRUE(near3(m.ka, test::srgb_to_linear_ref({0.2f, 0.2f, 0.2f})));
  EXPECT_TRUE(near3(m.ke, test::srgb_to_linear_ref({0.1f, 0.2f, 0.3f})));
  EXPECT_EQ(m.ns, 33.0f);
  EXPECT_EQ(m.alpha, 1.0f);
  EXPECT_EQ(m.specular_texture, -1);
  EXPECT_EQ(m.alpha_texture, -1);
}

TEST(MtlMaterials, BlackOrAbsentAmbientIsWhite) {
  test::ScratchDir dir;
  Scene s = load_model(triangle_with_mtl(dir, "newmtl m\nKa 0 0 0\n"));
  EXPECT_TRUE(near3(s.materials[0].ka, {1, 1, 1}));
}

TEST(MtlMaterials, TrIsOneMinusOpacityAndMultipliesTheAlphaMap) {
  test::ScratchDir dir;
  write_png(dir.path("mask.png"), 2, 1, {Rgba8{0, 0, 0, 255}, Rgba8{255, 255, 255, 255}});
  Scene s = load_model(triangle_with_mtl(dir, "newmtl m\nTr 0.2\nmap_d mask.png\n"));
  EXPECT_FLOAT_EQ(s.materials[0].alpha, 0.8f);
  EXPECT_GE(s.materials[0].alpha_texture, 0);
  EXPECT_TRUE(s.warnings.empty()) << s.warnings.front();
}

TEST(MtlMaterials, UniformOpacityWithoutAnAlphaMapIsDrawnOpaqueWithOneWarningAFile) {
  // Cut at 0.5, d 0.3 would make the surface vanish: facet cuts, it does not blend.
  test::ScratchDir dir;
  Scene s = load_model(triangle_with_mtl(dir, "newmtl m\nd 0.3\nnewmtl glass\nTr 0.9\nnewmtl solid\nd 1\n"));
  for (const Material& m : s.materials) EXPECT_EQ(m.alpha, 1.0f);
  EXPECT_FALSE(s.view(nullptr).has_cutouts);
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_EQ(s.warnings[0], dir.path("t.obj") +
                               ": material 'm': d 0.3 without map_d is drawn opaque (facet draws "
                               "alpha-tested cut-outs, not translucency); so are 1 other materials");
}

TEST(MtlMaterials, SpecularEmissionAndAlphaMapsAreLoaded) {
  test::ScratchDir dir;
  write_png(dir.path("spec.png"), 2, 2, std::vector<Rgba8>(4, Rgba8{10, 20, 30, 255}));
  write_png(dir.path("glow.png"), 2, 2, std::vector<Rgba8>(4, Rgba8{40, 50, 60, 255}));
  write_png(dir.path("mask.png"), 2, 1, {Rgba8{0, 0, 0, 255}, Rgba8{255, 255, 255, 255}});
  Scene s = load_model(triangle_with_mtl(dir, "newmtl m\nmap_Ks spec.png\nmap_Ke glow.png\nmap_d mask.png\n"));
  EXPECT_TRUE(s.warnings.empty()) << s.warnings.front();
  const Material& m = s.materials[0];
  ASSERT_GE(m.specular_texture, 0);
  ASSERT_GE(m.emission_texture, 0);
  ASSERT_GE(m.alpha_texture, 0);
  EXPECT_EQ(s.texels[s.textures[m.specular_texture].offset].r, 10);
  EXPECT_EQ(s.texels[s.textures[m.emission_texture].offset].b, 60);
  // Maps without their colour multiply white: the map shows as it is.
  EXPECT_TRUE(near3(m.ks, {1, 1, 1}));
  EXPECT_TRUE(near3(m.ke, {1, 1, 1}));
  // A grey alpha map without transparency has its grey moved into alpha.
  const uint32_t a = s.textures[m.alpha_texture].offset;
  EXPECT_EQ(s.texels[a].a, 0);
  EXPECT_EQ(s.texels[a + 1].a, 255);
}

TEST(MtlMaterials, AnAlphaMapWithTransparencyKeepsItsAlpha) {
  test::ScratchDir dir;
  write_png(dir.path("leaf.png"), 2, 1, {Rgba8{200, 0, 0, 0}, Rgba8{0, 200, 0, 255}});
  Scene s = load_model(triangle_with_mtl(dir, "newmtl m\nmap_Kd leaf.png\nmap_d leaf.png\n"));
  const Material& m = s.materials[0];
  ASSERT_GE(m.alpha_texture, 0);
  const uint32_t a = s.textures[m.alpha_texture].offset;
  EXPECT_EQ(s.texels[a].a, 0);
  EXPECT_EQ(s.texels[a + 1].a, 255);
  EXPECT_EQ(s.texels[a].r, 200);
}

TEST(MtlMaterials, MalformedValueWarningNamesTheMtlLineAndTheObj) {
  test::ScratchDir dir;
  const std::string obj = triangle_with_mtl(dir, "newmtl m\nKs 1 x 1\n");
  Scene s = load_model(obj);
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_NE(s.warnings[0].find(dir.path("t.mtl") + ":2: Ks needs three numbers"), std::string::npos) << s.warnings[0];
  EXPECT_NE(s.warnings[0].find(obj), std::string::npos);
}

TEST(VertexColours, ObjColoursAreKeptAsSrgbBytes) {
  test::ScratchDir dir;
  Scene s = load_model(dir.write("c.obj", "v 0 0 0 1 0.5 0\nv 1 0 0 0 0 1\nv 0 1 0 0.2 0.2 0.2\nf 1 2 3\n"));
  ASSERT_EQ(s.colors.size(), 3u);
  EXPECT_EQ(s.colors[0].r, 255);
  EXPECT_EQ(s.colors[0].g, 128);
  EXPECT_EQ(s.colors[2].b, 51);
}

TEST(VertexColours, ObjWhereSomeVerticesHaveNoColourHasNone) {
  test::ScratchDir dir;
  Scene s = load_model(dir.write("c.obj", "v 0 0 0 1 0 0\nv 1 0 0\nv 0 1 0 0 0 1\nf 1 2 3\n"));
  EXPECT_TRUE(s.colors.empty());
}

TEST(VertexColours, PlyUcharAndFloatColoursAreLoaded) {
  test::ScratchDir dir;
  const std::string head =
      "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
      "property float z\n";
  Scene u = load_model(dir.write("u.ply", head + "property uchar red\nproperty uchar green\nproperty uchar blue\n"
                                                 "element face 1\nproperty list uchar int vertex_indices\nend_header\n"
                                                 "0 0 0 255 0 10\n1 0 0 0 255 0\n0 1 0 0 0 255\n3 0 1 2\n"));
  ASSERT_EQ(u.colors.size(), 3u);
  EXPECT_EQ(u.colors[0].r, 255);
  EXPECT_EQ(u.colors[0].b, 10);
  Scene f = load_model(dir.write("f.ply", head + "property float red\nproperty float green\nproperty float blue\n"
                                                 "element face 1\nproperty list uchar int vertex_indices\nend_header\n"
                                                 "0 0 0 1 0 0.5\n1 0 0 0 1 0\n0 1 0 0 0 1\n3 0 1 2\n"));
  ASSERT_EQ(f.colors.size(), 3u);
  EXPECT_EQ(f.colors[0].r, 255);
  EXPECT_EQ(f.colors[0].b, 128);
}

TEST(VertexColours, SharedCubeWithVertexColoursLoadsThem) {
  Scene s = load_model(test::shared_asset("edge-cases/assimp/cube_with_vertexcolors.obj"));
  ASSERT_EQ(s.colors.size(), s.positions.size());
  bool varied = false;
  for (const Rgba8& c : s.colors) varied |= c.r != s.colors[0].r || c.g != s.colors[0].g || c.b != s.colors[0].b;
  EXPECT_TRUE(varied);
}
