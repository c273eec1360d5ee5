// The STL reader: binary and ASCII cubes written here (welded into a closed mesh), binary files
// whose header starts with "solid", the real files in ../shared/assets/formats/stl, and refusals.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "engine/formats/stl/stl_loader.h"
#include "engine/load/load_model.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/test_scenes.h"

using namespace facet;
using test::ScratchDir;

namespace {

std::string formats(const std::string& rel) { return test::shared_asset("formats/" + rel); }

// The unit cube's 12 triangles, counter-clockwise seen from outside, as corner positions.
std::vector<Vec3> cube_triangles() {
  const Vec3 c[8] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  const int quads[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {2, 3, 7, 6}, {1, 2, 6, 5}, {0, 4, 7, 3}};
  std::vector<Vec3> t;
  for (const auto& q : quads) t.insert(t.end(), {c[q[0]], c[q[1]], c[q[2]], c[q[0]], c[q[2]], c[q[3]]});
  return t;
}

// A binary STL of `corners` (facet normals left zero, as many writers do), header text first.
std::string binary_stl(const std::vector<Vec3>& corners, const std::string& header_text) {
  std::string s(80, ' ');
  s.replace(0, header_text.size(), header_text);
  uint32_t n = (uint32_t)(corners.size() / 3);
  s.append(reinterpret_cast<const char*>(&n), 4);
  for (uint32_t t = 0; t < n; ++t) {
    float record[12] = {};
    for (int k = 0; k < 3; ++k) std::memcpy(&record[3 + 3 * k], &corners[t * 3 + k], 12);
    s.append(reinterpret_cast<const char*>(record), 48);
    s.append(2, '\0');
  }
  return s;
}

std::string ascii_stl(const std::vector<Vec3>& corners) {
  std::string s = "solid cube\n";
  for (size_t t = 0; t < corners.size(); t += 3) {
    s += "  facet normal 0 0 0\n    outer loop\n";
    for (int k = 0; k < 3; ++k)
      s += "      vertex " + std::to_string(corners[t + k].x) + " " + std::to_string(corners[t + k].y) + " " +
           std::to_string(corners[t + k].z) + "\n";
    s += "    endloop\n  endfacet\n";
  }
  return s + "endsolid cube\n";
}

}  // namespace

TEST(Stl, BinaryCubeIsWeldedIntoAClosedMeshOfEightVertices) {
  ScratchDir dir;
  Scene s = load_model(dir.write("cube.stl", binary_stl(cube_triangles(), "a cube")));
  EXPECT_EQ(s.triangle_count(), 12u);
  EXPECT_EQ(s.vertex_count(), 8u);
  EXPECT_TRUE(s.bounds.closed);
  EXPECT_TRUE(s.warnings.empty());
}

TEST(Stl, AsciiCubeGivesTheBinaryCube) {
  ScratchDir dir;
  Scene b = load_model(dir.write("b.stl", binary_stl(cube_triangles(), "")));
  Scene a = load_model(dir.write("a.stl", ascii_stl(cube_triangles())));
  EXPECT_EQ(a.indices, b.indices);
  ASSERT_EQ(a.positions.size(), b.positions.size());
  for (size_t i = 0; i < a.positions.size(); ++i) EXPECT_EQ(a.positions[i].y, b.positions[i].y);
  EXPECT_TRUE(a.bounds.closed);
}

TEST(Stl, BinaryFileWhoseHeaderStartsWithSolidIsReadAsBinary) {
  ScratchDir dir;
  Scene s = load_model(dir.write("solid.stl", binary_stl(cube_triangles(), "solid exported by a CAD tool")));
  EXPECT_EQ(s.triangle_count(), 12u);
}

TEST(Stl, NormalsAreComputedSmoothOverWeldedVertices) {
  ScratchDir dir;
  Scene s = load_model(dir.write("cube.stl", binary_stl(cube_triangles(), "")));
  // A cube corner's normal points out along the diagonal away from the centre.
  for (size_t i = 0; i < s.positions.size(); ++i) {
    Vec3 out = s.positions[i] - Vec3{0.5f, 0.5f, 0.5f};
    EXPECT_GT(dot(s.normals[i], out), 0.5f) << i;
  }
}

TEST(Stl, WeldingTreatsNegativeZeroAsZero) {
  BigVector<Vec3> positions;
  BigVector<uint32_t> indices;
  weld_corners({{0, 0, 0}, {-0.0f, 0, 0}, {1, 0, 0}}, positions, indices);
  EXPECT_EQ(positions.size(), 2u);
  EXPECT_EQ(indices, (BigVector<uint32_t>{0, 0, 1}));
}

TEST(Stl, RealBunnyAndSpheresLoadWithBinaryAndAsciiSpheresAgreeing) {
  Scene bunny = load_model(formats("stl/bunny.stl"));
  EXPECT_GT(bunny.triangle_count(), 60000u);
  EXPECT_LT(bunny.vertex_count(), bunny.triangle_count());  // welded: about half as many
  Scene bin = load_model(formats("stl/test_sphere.stl"));
  Scene text = load_model(formats("stl/test_sphere_ascii.stl"));
  EXPECT_EQ(bin.triangle_count(), text.triangle_count());
  EXPECT_EQ(bin.vertex_count(), text.vertex_count());
  EXPECT_NEAR(bin.bounds.radius, text.bounds.radius, 1e-3f * bin.bounds.radius);
}

TEST(Stl, TruncatedBinaryIsRefusedWithTheSizes) {
  ScratchDir dir;
  std::string bytes = binary_stl(cube_triangles(), "");
  std::string path = dir.write("cut.stl", bytes.substr(0, bytes.size() - 7));
  EXPECT_EQ(test::load_refusal(path),
            path + ": binary STL truncated: its header says 12 triangles (684 bytes), the file has 677 bytes");
}

TEST(Stl, TrailingBytesAfterTheTrianglesAreIgnoredWithAWarning) {
  ScratchDir dir;
  Scene s = load_model(dir.write("tail.stl", binary_stl(cube_triangles(), "") + "xyz"));
  EXPECT_EQ(s.triangle_count(), 12u);
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_NE(s.warnings[0].find("ignored 3 bytes after the 12 triangles"), std::string::npos);
}

TEST(Stl, MalformedAsciiIsRefusedWithItsLine) {
  ScratchDir dir;
  std::string path = dir.write("bad.stl", "solid x\nfacet normal 0 0 1\n outer loop\n vertex 0 0 zero\n");
  EXPECT_EQ(test::load_refusal(path), path + ":4: 'zero' is not a number");
  path = dir.write("cut.stl", "solid x\nfacet normal 0 0 1\n outer loop\n vertex 0 0 0\n");
  EXPECT_EQ(test::load_refusal(path), path + ":4: expected 'vertex' or 'endloop', found the end of the file");
}

TEST(Stl, ShortFileWithoutSolidIsRefused) {
  ScratchDir dir;
  std::string path = dir.write("tiny.stl", "hello");
  EXPECT_NE(test::load_refusal(path).find(path + ": not an STL file"), std::string::npos);
}

TEST(Stl, FileWithNoFacetsIsRefused) {
  ScratchDir dir;
  std::string path = dir.write("empty.stl", "solid nothing\nendsolid nothing\n");
  EXPECT_EQ(test::load_refusal(path), path + ": no triangles to show (the STL has no facets)");
  path = dir.write("zero.stl", binary_stl({}, ""));
  EXPECT_EQ(test::load_refusal(path), path + ": no triangles to show (the STL has no facets)");
}

TEST(Stl, AsciiFilesWithSeveralSolidsAndPolygonLoopsAreReadWhole) {
  ScratchDir dir;
  std::string text =
      "solid a\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 1 1 0\nvertex 0 1 0\n"
      "endloop\nendfacet\nendsolid a\nsolid b\nfacet normal 0 0 1\nouter loop\nvertex 5 0 0\n"
      "vertex 6 0 0\nvertex 5 1 0\nendloop\nendfacet\nendsolid b\n";
  Scene s = load_model(dir.write("two.stl", text));
  EXPECT_EQ(s.triangle_count(), 3u);  // the quad fanned into two, then solid b's triangle
  EXPECT_EQ(s.vertex_count(), 7u);
}
