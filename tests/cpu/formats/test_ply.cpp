// The PLY reader: real files from other writers (../shared/assets/formats/ply), one mesh written
// as ASCII, binary little- and big-endian (the same scene three times), what is read (normals,
// uvs under each naming, colours, polygons) and what is skipped, and every refusal: malformed
// headers, truncated bodies, lists running past the end, huge counts, indices out of range.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/load/load_model.h"
#include "tests/support/ply_writer.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/test_scenes.h"

using namespace facet;
using test::PlyBody;
using test::ScratchDir;

namespace {

std::string formats(const std::string& rel) { return test::shared_asset("formats/" + rel); }

// A unit cube: 8 vertices with colours, 6 quads wound counter-clockwise seen from outside.
constexpr float kCube[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
constexpr int kQuads[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {2, 3, 7, 6}, {1, 2, 6, 5}, {0, 4, 7, 3}};

std::string cube_ply(PlyBody::Format f) {
  std::string header = std::string("ply\n") + PlyBody::format_line(f) +
                       "comment the unit cube with colours\n"
                       "element vertex 8\nproperty float x\nproperty float y\nproperty float z\n"
                       "property uchar red\nproperty uchar green\nproperty uchar blue\n"
                       "element face 6\nproperty list uchar int vertex_indices\nend_header\n";
  PlyBody body(f);
  for (int v = 0; v < 8; ++v)
    body.put(kCube[v][0])
        .put(kCube[v][1])
        .put(kCube[v][2])
        .put<uint8_t>(v * 30)
        .put<uint8_t>(255 - v)
        .put<uint8_t>(7)
        .end_row();
  for (const auto& q : kQuads) body.put<uint8_t>(4).put(q[0]).put(q[1]).put(q[2]).put(q[3]).end_row();
  return header + body.bytes();
}

// Every triangle corner's position, in order: what two loads of the same mesh must agree on.
std::vector<float> corner_positions(const Scene& s) {
  std::vector<float> out;
  for (uint32_t i : s.indices) out.insert(out.end(), {s.positions[i].x, s.positions[i].y, s.positions[i].z});
  return out;
}

}  // namespace

TEST(Ply, AsciiCubeQuadsAreFanTriangulatedAndClosed) {
  ScratchDir dir;
  Scene s = load_model(dir.write("cube.ply", cube_ply(PlyBody::Ascii)));
  ASSERT_EQ(s.triangle_count(), 12u);
  EXPECT_EQ(s.vertex_count(), 8u);
  // Quad 0 3 2 1 becomes 0 3 2 and 0 2 1.
  EXPECT_EQ(std::vector<uint32_t>(s.indices.begin(), s.indices.begin() + 6), (std::vector<uint32_t>{0, 3, 2, 0, 2, 1}));
  EXPECT_TRUE(s.bounds.closed);
  EXPECT_TRUE(s.warnings.empty());
}

TEST(Ply, BinaryLittleAndBigEndianGiveTheAsciiScene) {
  ScratchDir dir;
  Scene a = load_model(dir.write("a.ply", cube_ply(PlyBody::Ascii)));
  for (PlyBody::Format f : {PlyBody::LittleEndian, PlyBody::BigEndian}) {
    Scene b = load_model(dir.write("b" + std::to_string(f) + ".ply", cube_ply(f)));
    EXPECT_EQ(b.indices, a.indices) << "format " << f;
    EXPECT_EQ(corner_positions(b), corner_positions(a)) << "format " << f;
    ASSERT_EQ(b.colors.size(), 8u);
    for (int v = 0; v < 8; ++v) {
      EXPECT_EQ(b.colors[v].r, a.colors[v].r);
      EXPECT_EQ(b.colors[v].g, a.colors[v].g);
    }
  }
}

TEST(Ply, VertexColoursAreReadAsBytesWithOpaqueAlpha) {
  ScratchDir dir;
  Scene s = load_model(dir.write("cube.ply", cube_ply(PlyBody::LittleEndian)));
  ASSERT_EQ(s.colors.size(), 8u);
  EXPECT_EQ(s.colors[5].r, 150);
  EXPECT_EQ(s.colors[5].g, 250);
  EXPECT_EQ(s.colors[5].b, 7);
  EXPECT_EQ(s.colors[5].a, 255);
}

TEST(Ply, FloatColoursAreScaledTo255) {
  ScratchDir dir;
  std::string text =
      "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
      "property float red\nproperty float green\nproperty float blue\nproperty float alpha\n"
      "element face 1\nproperty list uchar uint vertex_index\nend_header\n"
      "0 0 0 1 0.5 0 0.25\n1 0 0 0 0 0 1\n0 1 0 2 -1 0 1\n3 0 1 2\n";
  Scene s = load_model(dir.write("f.ply", text));
  ASSERT_EQ(s.colors.size(), 3u);
  EXPECT_EQ(s.colors[0].r, 255);
  EXPECT_EQ(s.colors[0].g, 128);
  EXPECT_EQ(s.colors[0].a, 64);
  EXPECT_EQ(s.colors[2].r, 255);  // clamped
  EXPECT_EQ(s.colors[2].g, 0);
}

TEST(Ply, RealBinaryAndAsciiColourFilesAgree) {
  Scene bin = load_model(formats("ply/test_pos_color.ply"));
  Scene text = load_model(formats("ply/test_pos_color_ascii.ply"));
  EXPECT_EQ(bin.triangle_count(), 224u);
  EXPECT_EQ(bin.indices, text.indices);
  ASSERT_EQ(bin.colors.size(), text.colors.size());
  for (size_t i = 0; i < bin.colors.size(); ++i) {
    EXPECT_EQ(bin.colors[i].r, text.colors[i].r) << i;
    EXPECT_EQ(bin.colors[i].a, text.colors[i].a) << i;
  }
  for (size_t i = 0; i < bin.positions.size(); ++i) EXPECT_NEAR(bin.positions[i].x, text.positions[i].x, 1e-5f);
}

TEST(Ply, TextureCoordinatesAreReadUnderEveryNaming) {
  ScratchDir dir;
  for (const char* names : {"u v", "s t", "texture_u texture_v", "texture_s texture_t"}) {
    std::istringstream pair(names);
    std::string a, b;
    pair >> a >> b;
    std::string text =
        "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
        "property float z\nproperty float " +
        a + "\nproperty float " + b +
        "\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n"
        "0 0 0 0.25 0.75\n1 0 0 1 0\n0 1 0 0 1\n3 0 1 2\n";
    Scene s = load_model(dir.write(a + ".ply", text));
    ASSERT_EQ(s.uvs.size(), 3u) << names;
    EXPECT_EQ(s.uvs[0].x, 0.25f) << names;
    EXPECT_EQ(s.uvs[0].y, 0.75f) << names;
  }
}

TEST(Ply, FileNormalsAreReadAndNormalised) {
  ScratchDir dir;
  std::string text =
      "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
      "property float z\nproperty float nx\nproperty float ny\nproperty float nz\n"
      "element face 1\nproperty list uchar int vertex_indices\nend_header\n"
      "0 0 0 0 0 2\n1 0 0 3 0 4\n0 1 0 0 -1 0\n3 0 1 2\n";
  Scene s = load_model(dir.write("n.ply", text));
  ASSERT_EQ(s.normals.size(), 3u);
  EXPECT_FLOAT_EQ(s.normals[0].z, 1.0f);
  EXPECT_FLOAT_EQ(s.normals[1].x, 0.6f);
  EXPECT_FLOAT_EQ(s.normals[2].y, -1.0f);
}

// Unknown vertex properties (a double, a list), an unknown element with lists between vertices
// and faces, and an extra face list: binary readers must step over each by its byte size.
TEST(Ply, UnknownPropertiesAndElementsAreSkippedInBinary) {
  ScratchDir dir;
  for (PlyBody::Format f : {PlyBody::LittleEndian, PlyBody::BigEndian, PlyBody::Ascii}) {
    std::string header = std::string("ply\n") + PlyBody::format_line(f) +
                         "element vertex 3\nproperty double quality\nproperty float x\n"
                         "property list ushort short tags\nproperty float y\nproperty float z\n"
                         "element edge 2\nproperty list int uint ends\nproperty uchar flag\n"
                         "element face 1\nproperty uint id\nproperty list uchar int vertex_indices\n"
                         "property list uchar float texcoord\nend_header\n";
    PlyBody b(f);
    const float p[3][3] = {{0, 0, 0}, {2, 0, 0}, {0, 2, 0}};
    for (int v = 0; v < 3; ++v) {
      b.put(0.5).put(p[v][0]).put<uint16_t>(v);
      for (int t = 0; t < v; ++t) b.put<int16_t>(-t);
      b.put(p[v][1]).put(p[v][2]).end_row();
    }
    b.put<int32_t>(2).put<uint32_t>(0).put<uint32_t>(1).put<uint8_t>(9).end_row();
    b.put<int32_t>(0).put<uint8_t>(9).end_row();
    b.put<uint32_t>(77).put<uint8_t>(3).put(0).put(1).put(2).put<uint8_t>(2).put(0.5f).put(0.5f).end_row();
    Scene s = load_model(dir.write("skip" + std::to_string(f) + ".ply", header + b.bytes()));
    ASSERT_EQ(s.triangle_count(), 1u) << "format " << f;
    EXPECT_EQ(corner_positions(s), (std::vector<float>{0, 0, 0, 2, 0, 0, 0, 2, 0})) << "format " << f;
  }
}

TEST(Ply, ALongerListInALaterParallelChunkIsReadRowByRow) {
  // The first row says triangles, so the rows are read in parallel with their counts checked as
  // they are fanned; a quad far in must send the element back to the row-by-row reader, whose
  // triangles and first bad row are the ones read.
  ScratchDir dir;
  const uint32_t rows = 200000, quad = 150000;
  const std::string header =
      "ply\nformat binary_little_endian 1.0\nelement vertex 4\nproperty float x\n"
      "property float y\nproperty float z\nelement face " +
      std::to_string(rows) + "\nproperty list uchar int vertex_indices\nend_header\n";
  auto body = [&](uint32_t bad_row) {
    PlyBody b(PlyBody::LittleEndian);
    for (float v : {0.f, 0.f, 0.f, 1.f, 0.f, 0.f, 1.f, 1.f, 0.f, 0.f, 1.f, 0.f}) b.put(v);
    for (uint32_t r = 0; r < rows; ++r) {
      if (r == quad)
        b.put<uint8_t>(4).put(0).put(1).put(2).put(3);
      else
        b.put<uint8_t>(3).put(0).put(1).put(r == bad_row ? 9 : 2);
    }
    return b.bytes();
  };
  Scene s = load_model(dir.write("quad.ply", header + body(UINT32_MAX)));
  ASSERT_EQ(s.indices.size(), 3u * (rows + 1));
  for (uint32_t t = 0; t < rows + 1; ++t) {
    const uint32_t third = t == quad + 1 ? 3 : 2, second = t == quad + 1 ? 2 : 1;
    ASSERT_EQ(s.indices[3 * t + 1], second) << t;
    ASSERT_EQ(s.indices[3 * t + 2], third) << t;
  }
  for (uint32_t bad : {40000u, 190000u}) {
    const std::string path = dir.write("bad" + std::to_string(bad) + ".ply", header + body(bad));
    EXPECT_EQ(test::load_refusal(path), path + ": face " + std::to_string(bad) + ": index 9 out of range (4 vertices)");
  }
}

TEST(Ply, MixedPolygonsAreFanTriangulatedRowByRow) {
  ScratchDir dir;
  for (PlyBody::Format f : {PlyBody::LittleEndian, PlyBody::Ascii}) {
    std::string header = std::string("ply\n") + PlyBody::format_line(f) +
                         "element vertex 5\nproperty float x\nproperty float y\nproperty float z\n"
                         "element face 2\nproperty list uchar uint vertex_indices\nend_header\n";
    PlyBody b(f);
    const float p[5][2] = {{0, 0}, {1, 0}, {2, 1}, {1, 2}, {0, 1}};
    for (const auto& v : p) b.put(v[0]).put(v[1]).put(0.0f).end_row();
    b.put<uint8_t>(3).put<uint32_t>(0).put<uint32_t>(1).put<uint32_t>(2).end_row();
    b.put<uint8_t>(5).put<uint32_t>(0).put<uint32_t>(1).put<uint32_t>(2).put<uint32_t>(3).put<uint32_t>(4).end_row();
    Scene s = load_model(dir.write("mixed" + std::to_string(f) + ".ply", header + b.bytes()));
    EXPECT_EQ(s.indices, (BigVector<uint32_t>{0, 1, 2, 0, 1, 2, 0, 2, 3, 0, 3, 4})) << "format " << f;
  }
}

TEST(Ply, FacesWithFewerThanThreeIndicesAreSkippedWithAWarningNamingTheFirst) {
  ScratchDir dir;
  std::string text =
      "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
      "property float z\nelement face 3\nproperty list uchar int vertex_indices\nend_header\n"
      "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n2 0 1\n1 2\n";
  Scene s = load_model(dir.write("short.ply", text));
  EXPECT_EQ(s.triangle_count(), 1u);
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_NE(s.warnings[0].find("face 1: ignored 2 faces with fewer than 3 vertices"), std::string::npos)
      << s.warnings[0];
}

TEST(Ply, StanfordBunnyMatchesTheSameTrianglesWrittenAsObj) {
  // The bunny's ASCII body rewritten as OBJ (v lines, f lines 1-based), loaded by the OBJ path.
  std::ifstream in(formats("ply/bun_zipper.ply"));
  std::string line, obj;
  while (std::getline(in, line) && line != "end_header") {}
  for (int v = 0; v < 35947 && std::getline(in, line); ++v) {
    std::istringstream row(line);
    std::string x, y, z;
    row >> x >> y >> z;
    obj += "v " + x + " " + y + " " + z + "\n";
  }
  while (std::getline(in, line)) {
    std::istringstream row(line);
    int n = 0, a = 0, b = 0, c = 0;
    if (row >> n >> a >> b >> c)
      obj += "f " + std::to_string(a + 1) + " " + std::to_string(b + 1) + " " + std::to_string(c + 1) + "\n";
  }
  ScratchDir dir;
  Scene from_obj = load_model(dir.write("bunny.obj", obj));
  Scene from_ply = load_model(formats("ply/bun_zipper.ply"));
  EXPECT_EQ(from_ply.triangle_count(), 69451u);
  EXPECT_EQ(from_ply.vertex_count(), 35947u);  // confidence and intensity skipped, not vertices
  EXPECT_EQ(corner_positions(from_ply), corner_positions(from_obj));
}

TEST(Ply, HeaderWithLoneCarriageReturnsAndTrailingElementsLoads) {
  // Rhino's Box.ply: lines end in \r, colours and normals, then a `material` element; its 8
  // faces are 4 quads and 4 triangles.
  Scene s = load_model(formats("ply/Box.ply"));
  EXPECT_EQ(s.vertex_count(), 24u);
  EXPECT_EQ(s.triangle_count(), 12u);
  EXPECT_EQ(s.colors.size(), 24u);
}

TEST(Ply, OddWhitespaceAndSizedTypeNamesLoad) {
  Scene a = load_model(formats("ply/test_extra_whitespace.ply"));
  Scene b = load_model(formats("ply/test_more_datatypes.ply"));
  EXPECT_EQ(a.triangle_count(), 1u);
  EXPECT_EQ(b.triangle_count(), 1u);
  ASSERT_EQ(b.colors.size(), 3u);
  EXPECT_EQ(b.colors[0].a, 255);
}

TEST(Ply, ExtensionIsMatchedWithoutRegardToCase) {
  ScratchDir dir;
  EXPECT_EQ(load_model(dir.write("CUBE.PLY", cube_ply(PlyBody::Ascii))).triangle_count(), 12u);
}

TEST(Ply, FacesOnNonFiniteVerticesAreDroppedWithAWarning) {
  ScratchDir dir;
  std::string text =
      "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\n"
      "property float z\nelement face 2\nproperty list uchar int vertex_indices\nend_header\n"
      "0 0 0\n1 0 0\n0 1 0\nnan inf 0\n3 0 1 2\n3 0 1 3\n";
  Scene s = load_model(dir.write("nan.ply", text));
  EXPECT_EQ(s.triangle_count(), 1u);
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_NE(s.warnings[0].find("dropped 1 faces with NaN or infinite"), std::string::npos);
}

namespace {

const std::string kTriangleHeader =
    "element vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
    "element face 1\nproperty list uchar int vertex_indices\nend_header\n";

struct BadPly {
  const char* name;
  std::string bytes;
  const char* message;  // what the refusal must say, after "PATH"
};

std::vector<BadPly> bad_plys() {
  const std::string ascii = "ply\nformat ascii 1.0\n";
  const std::string le = "ply\nformat binary_little_endian 1.0\n";
  PlyBody verts(PlyBody::LittleEndian);
  for (float v : {0.f, 0.f, 0.f, 1.f, 0.f, 0.f, 0.f, 1.f, 0.f}) verts.put(v);
  return {
      {"no_magic", "plx\nformat ascii 1.0\n", ": not a PLY file"},
      {"unknown_keyword", ascii + "elemnt vertex 3\n", ":3: unknown header keyword 'elemnt'"},
      {"unknown_type", ascii + "element vertex 3\nproperty float3 x\n", ":4: unknown property type 'float3'"},
      {"property_first", ascii + "property float x\n", ":3: property before any element"},
      {"negative_count", ascii + "element vertex -3\n", ":3: element vertex: count '-3' is not a non-negative"},
      {"float_list_count", ascii + "element face 1\nproperty list float int vertex_indices\n",
       ":4: list vertex_indices: count type 'float' is not an integer type"},
      {"bad_format", "ply\nformat binary_middle_endian 1.0\n", ":2: unknown format"},
      {"no_format", "ply\n" + kTriangleHeader, ":8: the header has no format line"},
      {"no_end_header", ascii + "element vertex 3\nproperty float x\n", ": the PLY header has no end_header line"},
      {"no_vertex_element", ascii + "element face 1\nproperty list uchar int vertex_indices\nend_header\n3 0 1 2\n",
       ": no vertex element"},
      {"no_xyz",
       ascii + "element vertex 1\nproperty float x\nelement face 1\nproperty list uchar int "
               "vertex_indices\nend_header\n0\n3 0 0 0\n",
       ": the vertex element lacks one of the properties x, y, z"},
      {"no_index_list",
       ascii + "element vertex 1\nproperty float x\nproperty float y\nproperty float z\n"
               "element face 1\nproperty list uchar int corners\nend_header\n0 0 0\n3 0 0 0\n",
       ": the face element has no vertex_indices"},
      {"ascii_truncated", ascii + kTriangleHeader + "0 0 0\n1 0 0\n0 1 0\n3 0 1\n",
       ": face 0: the file ends inside this row (truncated; the header says 1 rows)"},
      {"ascii_not_a_number", ascii + kTriangleHeader + "0 0 0\n1 zero 0\n0 1 0\n3 0 1 2\n",
       ": vertex 1: 'zero' is not a number"},
      {"ascii_index_out_of_range", ascii + kTriangleHeader + "0 0 0\n1 0 0\n0 1 0\n3 0 1 9999\n",
       ": face 0: index 9999 out of range (3 vertices)"},
      {"ascii_list_past_end", ascii + kTriangleHeader + "0 0 0\n1 0 0\n0 1 0\n200 0 1 2\n",
       ": face 0: list vertex_indices of 200 entries runs past the end of the file"},
      {"too_many_vertices",
       ascii + "element vertex 5000000000\nproperty float x\nelement face 1\n"
               "property list uchar int vertex_indices\nend_header\n",
       ": too many vertices (5000000000"},
      {"ascii_huge_count",
       ascii + "element vertex 4000000000\nproperty float x\nproperty float y\n"
               "property float z\nelement face 1\nproperty list uchar int vertex_indices\n"
               "end_header\n0 0 0\n",
       ": vertex: the header says 4000000000 rows"},
      {"binary_vertices_truncated", le + kTriangleHeader + verts.bytes().substr(0, 30),
       ": vertex: the header says 3 rows, the 30 bytes left hold at most 2"},
      {"binary_list_past_end", le + kTriangleHeader + verts.bytes() + std::string("\xC8\0\0\0\0", 5),
       ": face 0: list vertex_indices of 200 entries runs past the end of the file"},
      {"binary_face_truncated",
       le +
           "element vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
           "element face 2\nproperty list uchar int vertex_indices\nend_header\n" +
           verts.bytes() + std::string("\x03\0\0\0\0\1\0\0\0\2\0\0\0", 13),
       ": face 1: the file ends inside this row (truncated; the header says 2 rows)"},
      {"binary_negative_list",
       le +
           "element vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
           "element face 1\nproperty list char int vertex_indices\nend_header\n" +
           verts.bytes() + std::string("\xFD\0\0\0\0", 5),
       ": face 0: list vertex_indices has a negative length (-3)"},
      {"binary_index_out_of_range",
       le + kTriangleHeader + verts.bytes() + std::string("\x03\0\0\0\0\1\0\0\0\x0F\x27\0\0", 13),
       ": face 0: index 9999 out of range (3 vertices)"},
      {"point_cloud",
       ascii + "element vertex 1\nproperty float x\nproperty float y\nproperty float z\n"
               "end_header\n0 0 0\n",
       ": no triangles to show (1 vertices and no faces: a point cloud)"},
      {"all_faces_short", ascii + kTriangleHeader + "0 0 0\n1 0 0\n0 1 0\n2 0 1\n",
       ": no triangles to show (3 vertices, 1 faces, all with fewer than 3 vertices)"},
      {"all_faces_nonfinite", ascii + kTriangleHeader + "0 0 0\n1 0 0\n0 nan 0\n3 0 1 2\n",
       ": no triangles left after dropping 1 faces with NaN or infinite vertex positions"},
  };
}

}  // namespace

TEST(Ply, EveryMalformedFileIsRefusedNamingTheFileAndTheProblem) {
  ScratchDir dir;
  for (const BadPly& bad : bad_plys()) {
    std::string path = dir.write(std::string(bad.name) + ".ply", bad.bytes);
    std::string message = test::load_refusal(path);
    EXPECT_EQ(message.rfind(path, 0), 0u) << bad.name << ": " << message;
    EXPECT_NE(message.find(path + bad.message), std::string::npos) << bad.name << ": " << message;
  }
}

TEST(Ply, DoublesBeyondFloatRangeAreInfiniteAndTheirFacesDropped) {
  ScratchDir dir;
  std::string header =
      "ply\nformat binary_big_endian 1.0\nelement vertex 4\nproperty double x\n"
      "property double y\nproperty double z\nelement face 2\n"
      "property list uchar int vertex_indices\nend_header\n";
  PlyBody b(PlyBody::BigEndian);
  for (double v : {0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1e300, -1e300, 0.0}) b.put(v);
  b.put<uint8_t>(3).put(0).put(1).put(2).put<uint8_t>(3).put(0).put(1).put(3);
  Scene s = load_model(dir.write("huge.ply", header + b.bytes()));
  EXPECT_EQ(s.triangle_count(), 1u);
  EXPECT_TRUE(std::isinf(s.positions[3].x) && s.positions[3].x > 0);
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_NE(s.warnings[0].find("dropped 1 faces"), std::string::npos);
}

TEST(Ply, TheFirstBadRowIsNamedWhenFacesAreReadInParallel) {
  // Enough rows for several parallel chunks, with bad indices in two of them: the message must
  // name the lower row whatever order the workers finish in.
  ScratchDir dir;
  const uint32_t rows = 200000;
  std::string header =
      "ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\n"
      "property float y\nproperty float z\nelement face " +
      std::to_string(rows) + "\nproperty list uchar int vertex_indices\nend_header\n";
  PlyBody b(PlyBody::LittleEndian);
  for (float v : {0.f, 0.f, 0.f, 1.f, 0.f, 0.f, 0.f, 1.f, 0.f}) b.put(v);
  for (uint32_t r = 0; r < rows; ++r) b.put<uint8_t>(3).put(0).put(1).put(r == 150000 ? 7 : r == 40000 ? -2 : 2);
  std::string path = dir.write("late.ply", header + b.bytes());
  for (int run = 0; run < 3; ++run)
    EXPECT_EQ(test::load_refusal(path), path + ": face 40000: index -2 out of range (3 vertices)");
}

TEST(Ply, RealPointCloudsAreRefusedAsPointClouds) {
  for (const char* f : {"ply/point_cloud_test_pos.ply", "ply/int_point_cloud.ply", "ply/float_inf_point_cloud.ply"})
    EXPECT_NE(test::load_refusal(formats(f)).find("no triangles to show"), std::string::npos) << f;
}
