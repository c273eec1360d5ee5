// Model loading, behaviour by behaviour: the shared models (Spot, Cornell box, teapot) and small
// OBJ/MTL files written to a temporary folder for exact checks (smoothing groups, texture paths,
// fallbacks, bounds), plus the mip chain of add_texture. Bad input is in test_edge_cases.cpp.
#include <gtest/gtest.h>
#include <stb_image_write.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "engine/load/load_model.h"
#include "tests/support/scene_edits.h"
#include "tests/support/scene_warnings.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/srgb_reference.h"
#include "tests/support/test_scenes.h"

namespace fs = std::filesystem;
using namespace facet;

namespace {

std::string shared(const std::string& rel) { return test::shared_asset(rel); }

using test::ScratchDir;

float len(Vec3 v) { return std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z); }

bool near3(Vec3 a, Vec3 b, float eps = 1e-5f) {
  return std::fabs(a.x - b.x) < eps && std::fabs(a.y - b.y) < eps && std::fabs(a.z - b.z) < eps;
}

// Two triangles folded 90 degrees along the shared edge (0,0,0)-(0,1,0): one in the z = 0
// plane (normal +z), one in the x = 0 plane (normal +x). `s_a`/`s_b` are the smoothing lines
// before each face ("" for none).
std::string hinge_obj(const std::string& s_a, const std::string& s_b) {
  return "v 0 0 0\nv 0 1 0\nv 1 0 0\nv 0 0 -1\n" + s_a + "f 1 3 2\n" + s_b + "f 1 2 4\n";
}

// The hinge's unit face normals: face 1 3 2 and face 1 2 4.
Vec3 hinge_normal_a() { return normalize(cross(Vec3{1, 0, 0}, Vec3{0, 1, 0})); }
Vec3 hinge_normal_b() { return normalize(cross(Vec3{0, 1, 0}, Vec3{0, 0, -1})); }

// The hinge loaded with its two faces flat: every corner carries its own face's normal.
void expect_flat_hinge(const Scene& s) {
  for (int k = 0; k < 3; ++k) EXPECT_TRUE(near3(s.normals[s.indices[k]], hinge_normal_a()));
  for (int k = 3; k < 6; ++k) EXPECT_TRUE(near3(s.normals[s.indices[k]], hinge_normal_b()));
}

}  // namespace

TEST(Loader, SpotLoads5856TrianglesWithUvs) {
  Scene s = test::in_file_order(load_model(shared("spot/spot_triangulated_with_mtl.obj")));
  EXPECT_EQ(s.triangle_count(), 5856u);
  ASSERT_EQ(s.uvs.size(), s.positions.size());
  ASSERT_EQ(s.normals.size(), s.positions.size());
  EXPECT_TRUE(s.warnings.empty()) << s.warnings.front();
  // The first face's first corner carries the file's texcoord, as written (not flipped).
  std::ifstream in(shared("spot/spot_triangulated_with_mtl.obj"));
  std::vector<Vec2> vts;
  std::string line;
  int first_vt = 0;
  while (std::getline(in, line)) {
    if (line.rfind("vt ", 0) == 0) {
      float u = 0, v = 0;
      std::sscanf(line.c_str() + 3, "%f %f", &u, &v);
      vts.push_back({u, v});
    } else if (line.rfind("f ", 0) == 0) {
      int vi = 0;
      ASSERT_EQ(std::sscanf(line.c_str() + 2, "%d/%d", &vi, &first_vt), 2);
      break;
    }
  }
  ASSERT_GT(first_vt, 0);
  EXPECT_FLOAT_EQ(s.uvs[s.indices[0]].x, vts[first_vt - 1].x);
  EXPECT_FLOAT_EQ(s.uvs[s.indices[0]].y, vts[first_vt - 1].y);
}

TEST(Loader, SpotMaterialUsesItsTextureWithAFullMipChain) {
  Scene s = load_model(shared("spot/spot_triangulated_with_mtl.obj"));
  ASSERT_EQ(s.textures.size(), 1u);
  ASSERT_EQ(s.materials.size(), 1u);
  EXPECT_EQ(s.materials[0].texture, 0);
  EXPECT_TRUE(near3(s.materials[0].kd, {1, 1, 1}));
  EXPECT_NE(s.texture_paths[0].find("spot_texture.png"), std::string::npos);
  const TextureDesc& d = s.textures[0];
  EXPECT_EQ(d.width, 1024);
  EXPECT_EQ(d.height, 1024);
  EXPECT_EQ(d.levels, 11);  // 1024 .. 1
  size_t total = 0;
  for (int l = 0; l < d.levels; ++l) total += (size_t)(1024 >> l) * (1024 >> l);
  EXPECT_EQ(s.texels.size(), total);
}

TEST(Loader, CornellBoxQuadsNegativeIndicesAndCrlf) {
  // 18 faces, quads and triangles mixed, indices relative (-4 -3 -2 -1), CRLF line ends.
  Scene s = load_model(shared("cornell_box/CornellBox-Original.obj"));
  EXPECT_EQ(s.triangle_count(), 36u);
  EXPECT_EQ(s.materials.size(), 8u);  // the MTL's 8, no default needed
  EXPECT_TRUE(s.warnings.empty()) << s.warnings.front();
  for (const std::string& n : s.material_names) EXPECT_EQ(n.find('\r'), std::string::npos);
  // The left wall is red (Kd 0.63 0.065 0.05, sRGB: stored in linear light).
  bool found = false;
  for (size_t i = 0; i < s.materials.size(); ++i)
    if (s.material_names[i] == "leftWall") {
      found = true;
      EXPECT_TRUE(near3(s.materials[i].kd, test::srgb_to_linear_ref({0.63f, 0.065f, 0.05f})));
    }
  EXPECT_TRUE(found);
}

TEST(Loader, CornellBoxTrianglesCarryTheirMaterial) {
  Scene s = test::in_file_order(load_model(shared("cornell_box/CornellBox-Original.obj")));
  // The first object in the file is the floor: its 2 triangles use material "floor".
  ASSERT_GE(s.tri_material.size(), 2u);
  EXPECT_EQ(s.material_names[s.tri_material[0]], "floor");
  EXPECT_EQ(s.material_names[s.tri_material[1]], "floor");
  EXPECT_EQ(s.material_names[s.tri_material.back()], "light");  // the last object
}

TEST(Loader, TeapotGetsComputedUnitNormals) {
  Scene s = load_model(shared("teapot/teapot.obj"));  // positions only
  EXPECT_EQ(s.triangle_count(), 6320u);
  ASSERT_EQ(s.normals.size(), s.positions.size());
  EXPECT_TRUE(s.uvs.empty());
  for (const Vec3& n : s.normals) ASSERT_NEAR(len(n), 1.0f, 1e-4f);
  // Each vertex normal agrees with the faces around it: for every triangle, the area-weighted
  // vertex normals lean towards its own face normal in the large majority of corners.
  size_t agree = 0, corners = 0;
  for (size_t t = 0; t < s.triangle_count(); ++t) {
    Vec3 p0 = s.positions[s.indices[3 * t]], p1 = s.positions[s.indices[3 * t + 1]],
         p2 = s.positions[s.indices[3 * t + 2]];
    Vec3 fn = cross(p1 - p0, p2 - p0);
    if (len(fn) == 0) continue;
    for (int k = 0; k < 3; ++k, ++corners) agree += dot(s.normals[s.indices[3 * t + k]], fn) > 0;
  }
  EXPECT_GT((double)agree / corners, 0.95);
}

TEST(Loader, FileWithoutSmoothingGroupsIsSmoothedEntirely) {
  ScratchDir dir;
  Scene s = load_model(dir.write("hinge.obj", hinge_obj("", "")));
  EXPECT_EQ(s.vertex_count(), 4u);  // shared edge vertices shared
  // Shared vertices: the two unit face normals (+z from 1 3 2 ... ) averaged with equal areas.
  Vec3 n_shared = s.normals[s.indices[0]];
  EXPECT_NEAR(len(n_shared), 1.0f, 1e-5f);
  EXPECT_TRUE(near3(n_shared, normalize(hinge_normal_a() + hinge_normal_b())));
}

TEST(Loader, SameSmoothingGroupSharesNormals) {
  ScratchDir dir;
  Scene s = load_model(dir.write("hinge.obj", hinge_obj("s 1\n", "")));
  EXPECT_EQ(s.vertex_count(), 4u);
  EXPECT_TRUE(near3(s.normals[s.indices[0]], normalize(hinge_normal_a() + hinge_normal_b())));
}

TEST(Loader, DifferentSmoothingGroupsSplitNormals) {
  ScratchDir dir;
  Scene s = test::in_file_order(load_model(dir.write("hinge.obj", hinge_obj("s 1\n", "s 2\n"))));
  EXPECT_EQ(s.vertex_count(), 6u);  // the shared edge is split
  expect_flat_hinge(s);
}

TEST(Loader, SmoothingOffGivesFlatFaces) {
  ScratchDir dir;
  // "s off" and "s 0" both mean no smoothing group: flat, even beside a smoothed face.
  Scene s = test::in_file_order(load_model(dir.write("hinge.obj", hinge_obj("s off\n", "s 0\n"))));
  EXPECT_EQ(s.vertex_count(), 6u);
  expect_flat_hinge(s);
}

TEST(Loader, FileNormalsAreKeptAndNormalised) {
  ScratchDir dir;
  Scene s = load_model(dir.write("n.obj",
                                 "v 0 0 0\nv 1 0 0\nv 0 1 0\nvn 0 0 2\n"
                                 "f 1//1 2//1 3//1\n"));
  ASSERT_EQ(s.vertex_count(), 3u);
  for (const Vec3& n : s.normals) EXPECT_TRUE(near3(n, {0, 0, 1}));
}

TEST(Loader, NormalIndexPointingAtNothingComputesNormalsWithWarning) {
  ScratchDir dir;
  std::string path = dir.write("n.obj",
                               "v 0 0 0\nv 1 0 0\nv 0 1 0\nvn 1 0 0\n"
                               "f 1//1 2//1 3//7\n");
  Scene s = load_model(path);
  for (const Vec3& n : s.normals) EXPECT_TRUE(near3(n, {0, 0, 1}));  // from the geometry
  EXPECT_TRUE(test::any_warning_contains(s, path + ":5:"));
}

TEST(Loader, CornersAreDedupedIntoOneIndexBuffer) {
  ScratchDir dir;
  // A quad as two triangles: corners 1/1 and 3/3 are used twice, 3 shared with a different vt once.
  Scene s = load_model(dir.write("q.obj",
                                 "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
                                 "vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nvt 0.5 0.5\n"
                                 "f 1/1 2/2 3/3\nf 1/1 3/3 4/4\nf 3/5 4/4 1/1\n"));
  EXPECT_EQ(s.triangle_count(), 3u);
  EXPECT_EQ(s.vertex_count(), 5u);  // 4 corners + position 3 with a second texcoord
  EXPECT_EQ(s.indices[0], s.indices[3]);
  EXPECT_EQ(s.indices[2], s.indices[4]);
  EXPECT_NE(s.indices[6], s.indices[2]);
}

TEST(Loader, UvsAreKeptAsWritten) {
  ScratchDir dir;
  Scene s = load_model(dir.write("uv.obj",
                                 "v 0 0 0\nv 1 0 0\nv 0 1 0\n"
                                 "vt 0.25 0.125\nvt 0.75 0.0\nvt 0.0 1.0\n"
                                 "f 1/1 2/2 3/3\n"));
  ASSERT_EQ(s.uvs.size(), 3u);
  EXPECT_FLOAT_EQ(s.uvs[0].x, 0.25f);
  EXPECT_FLOAT_EQ(s.uvs[0].y, 0.125f);  // v up, OBJ convention: the sampler flips, not the loader
  EXPECT_FLOAT_EQ(s.uvs[2].y, 1.0f);
}

TEST(Loader, ConcavePolygonIsTriangulatedInsideItsOutline) {
  ScratchDir dir;
  // An L-shaped hexagon (concave at (1,1)): area 3, so the triangles must sum to 3.
  Scene s = load_model(dir.write("l.obj",
                                 "v 0 0 0\nv 2 0 0\nv 2 1 0\nv 1 1 0\nv 1 2 0\nv 0 2 0\n"
                                 "f 1 2 3 4 5 6\n"));
  ASSERT_EQ(s.triangle_count(), 4u);
  double area = 0;
  for (size_t t = 0; t < 4; ++t) {
    Vec3 a = s.positions[s.indices[3 * t]], b = s.positions[s.indices[3 * t + 1]],
         c = s.positions[s.indices[3 * t + 2]];
    area += 0.5 * len(cross(b - a, c - a));
  }
  EXPECT_NEAR(area, 3.0, 1e-5);
}

TEST(Loader, MissingTextureGivesCheckerAndWarning) {
  ScratchDir dir;
  dir.write("m.mtl", "newmtl tex\nmap_Kd missing.png\n");
  std::string path = dir.write("m.obj",
                               "mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\n"
                               "usemtl tex\nf 1/1 2/1 3/1\n");
  Scene s = load_model(path);
  ASSERT_EQ(s.textures.size(), 1u);
  EXPECT_EQ(s.texture_paths[0], "<checker>");
  EXPECT_EQ(s.materials[0].texture, 0);
  EXPECT_TRUE(near3(s.materials[0].kd, {1, 1, 1}));  // the checker shows unscaled
  EXPECT_EQ(s.textures[0].levels, 7);                // 64 x 64 down to 1 x 1
  EXPECT_TRUE(test::any_warning_contains(s, path + ": texture 'missing.png'"));
}

TEST(Loader, MissingMtlIsAWarningAndFacesGetDefaultGrey) {
  ScratchDir dir;
  std::string path = dir.write("m.obj",
                               "mtllib nowhere.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\n"
                               "usemtl red\nf 1 2 3\n");
  Scene s = load_model(path);
  ASSERT_EQ(s.materials.size(), 1u);
  EXPECT_TRUE(near3(s.materials[0].kd, test::srgb_to_linear_ref({0.8f, 0.8f, 0.8f})));  // sRGB 0.8 grey
  EXPECT_EQ(s.materials[0].texture, -1);
  EXPECT_EQ(s.tri_material[0], 0u);
  EXPECT_TRUE(test::any_warning_contains(s, path + ": material library 'nowhere.mtl' not found"));
}

TEST(Loader, TexturePathIsRelativeToMtlWithBackslashesSpacesAndOptions) {
  ScratchDir dir;
  // A 2x2 PNG in "mats/tex dir/my tex.png", named from mats/m.mtl with backslashes and options.
  const unsigned char px[2 * 2 * 3] = {255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255};
  fs::create_directories(dir.path("mats/tex dir"));
  ASSERT_TRUE(stbi_write_png(dir.path("mats/tex dir/my tex.png").c_str(), 2, 2, 3, px, 6));
  dir.write("mats/m.mtl", "newmtl a\nKd 0 0 0\nmap_Kd -s 1 1 1 -o 0 0 0 tex dir\\my tex.png\n");
  Scene s = load_model(dir.write("m.obj",
                                 "mtllib mats/m.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\n"
                                 "usemtl a\nf 1 2 3\n"));
  EXPECT_TRUE(s.warnings.empty()) << s.warnings.front();
  ASSERT_EQ(s.textures.size(), 1u);
  EXPECT_EQ(s.texture_paths[0], dir.path("mats/tex dir/my tex.png"));
  EXPECT_EQ(s.textures[0].width, 2);
  EXPECT_EQ(s.textures[0].levels, 2);
  EXPECT_EQ(s.texels[0].r, 255);  // row 0 = top of the image
  EXPECT_EQ(s.texels[3].b, 255);
  EXPECT_TRUE(near3(s.materials[0].kd, {1, 1, 1}));  // Kd 0 with map_Kd: white
}

TEST(Loader, OddSizedTextureMipChainIsBoxFilteredInLinearLight) {
  Scene s;
  // 5 x 3, red channel = 10 * x + 50 * y, green = 7, blue = 0, alpha = 255.
  std::vector<Rgba8> img(15);
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 5; ++x) img[y * 5 + x] = {(uint8_t)(10 * x + 50 * y), 7, 0, 255};
  int32_t id = add_texture(s, "odd", 5, 3, img);
  const TextureDesc& d = s.textures[id];
  EXPECT_EQ(d.levels, 3);  // 5x3, 2x1, 1x1
  EXPECT_EQ(s.texels.size(), 15u + 2 + 1);
  // Level 1 texel 0 covers x in [0, 2.5) and all 3 rows: columns 0, 1 whole, column 2 half.
  auto expected_red = [](double x0, double x1) {
    double sum = 0, wsum = 0;
    for (int y = 0; y < 3; ++y)
      for (int x = 0; x < 5; ++x) {
        double w = std::max(0.0, std::min(x1, x + 1.0) - std::max(x0, (double)x));
        sum += w * test::code_to_linear((uint8_t)(10 * x + 50 * y));
        wsum += w;
      }
    return test::srgb_code(sum / wsum);
  };
  const Rgba8* l1 = &s.texels[15];
  EXPECT_EQ(l1[0].r, expected_red(0, 2.5));  // 71 (62 averaging the codes)
  EXPECT_EQ(l1[1].r, expected_red(2.5, 5));  // 93 (87 averaging the codes)
  EXPECT_EQ(l1[0].g, 7);
  EXPECT_EQ(l1[0].a, 255);
  const Rgba8* l2 = &s.texels[17];
  EXPECT_EQ(l2[0].r, test::srgb_code((test::code_to_linear(l1[0].r) + test::code_to_linear(l1[1].r)) / 2.0));
}

TEST(Loader, MipLevelsHalveWithFloorDownToOneByOne) {
  Scene s;
  std::vector<Rgba8> img(7 * 1, Rgba8{1, 2, 3, 4});
  int32_t id = add_texture(s, "row", 7, 1, img);
  EXPECT_EQ(s.textures[id].levels, 3);  // 7x1, 3x1, 1x1
  EXPECT_EQ(s.texels.size(), 7u + 3 + 1);
  for (const Rgba8& t : s.texels) EXPECT_EQ(t.b, 3);  // a constant image stays constant
}

TEST(Loader, BoundsOfAKnownFile) {
  ScratchDir dir;
  Scene s = load_model(dir.write("b.obj", "v -1 -2 -3\nv 3 2 1\nv 3 -2 -3\nf 1 2 3\n"));
  EXPECT_TRUE(near3(s.bounds.min, {-1, -2, -3}));
  EXPECT_TRUE(near3(s.bounds.max, {3, 2, 1}));
  EXPECT_TRUE(near3(s.bounds.center, {1, 0, -1}));
  EXPECT_NEAR(s.bounds.radius, std::sqrt(12.0f), 1e-4f);  // the far corners are on the sphere
}

TEST(Loader, BoundsOfOnePointHavePositiveRadius) {
  Bounds b = compute_bounds({Vec3{5, 5, 5}});
  EXPECT_TRUE(near3(b.center, {5, 5, 5}));
  EXPECT_GT(b.radius, 0.0f);
  float nan = std::nanf("");
  Bounds c = compute_bounds({Vec3{nan, 0, 0}, Vec3{1, 1, 1}, Vec3{-1, -1, -1}});
  EXPECT_TRUE(near3(c.center, {0, 0, 0}));  // the NaN position is ignored
  EXPECT_NEAR(c.radius, std::sqrt(3.0f), 1e-4f);
}

TEST(Loader, ProgressRisesFromZeroToOne) {
  std::vector<float> seen;
  std::vector<std::string> stages;
  LoadOptions options;
  options.progress = [&](float f, const char* stage) {
    seen.push_back(f);
    stages.push_back(stage);
  };
  load_model(shared("spot/spot_triangulated_with_mtl.obj"), options);
  ASSERT_GE(seen.size(), 5u);
  EXPECT_EQ(seen.front(), 0.0f);
  EXPECT_EQ(seen.back(), 1.0f);
  for (size_t i = 1; i < seen.size(); ++i) EXPECT_GE(seen[i], seen[i - 1]) << stages[i];
  auto has = [&](const char* n) { return std::find(stages.begin(), stages.end(), n) != stages.end(); };
  for (const char* n : {"reading", "parsing", "building", "normals", "textures", "mips"}) EXPECT_TRUE(has(n)) << n;
}

TEST(Loader, SceneViewPointsAtTheArrays) {
  Scene s = load_model(shared("cornell_box/CornellBox-Original.obj"));
  std::vector<ShadeVertex> shade = interleave_shade_vertices(s);
  SceneView v = s.view(shade.data());
  EXPECT_EQ(v.positions, s.positions.data());
  EXPECT_EQ(v.shade, shade.data());
  EXPECT_EQ(v.triangle_count, 36u);
  EXPECT_FALSE(v.has_uvs);  // no texcoords in the file
  ASSERT_EQ(shade.size(), s.positions.size());
  EXPECT_EQ(shade[7].p.x, s.positions[7].x);
  EXPECT_EQ(shade[7].n.z, s.normals[7].z);
  EXPECT_EQ(s.byte_size(), s.positions.size() * 12 * 2 + s.indices.size() * 4 + s.tri_material.size() * 4 +
                               s.file_triangle.size() * 4 + s.materials.size() * sizeof(Material));
}
