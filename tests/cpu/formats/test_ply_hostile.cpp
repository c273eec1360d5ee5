// The PLY reader under hostile input: nothing changed without a word. Rows past
// the declared counts are ignored with a warning that says where they start and how many there
// are; a duplicated property, a second vertex or face element, and an index type too small for
// the vertex count are refused, naming the line; counts larger than the bytes behind them are
// refused before anything is allocated; a header with no end_header says so, however binary the
// data after it; names from the file are escaped in messages.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <string>

#include "engine/load/load_model.h"
#include "tests/support/ply_writer.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/test_scenes.h"

using namespace facet;
using test::PlyBody;
using test::ScratchDir;

namespace {

#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << "in: " << (text)

// A refusal must come before anything large is read or built: well inside this.
constexpr double kQuickSeconds = 2.0;

const std::string kXyz = "property float x\nproperty float y\nproperty float z\n";
const std::string kIndices = "property list uchar int vertex_indices\n";

// A header of `format` with `vertices` vertices (x y z) and `faces` faces, then `body`.
std::string ply(PlyBody::Format format, uint64_t vertices, uint64_t faces, const std::string& body,
                const std::string& extra_header = "") {
  return std::string("ply\n") + PlyBody::format_line(format) + "element vertex " + std::to_string(vertices) + "\n" +
         kXyz + "element face " + std::to_string(faces) + "\n" + kIndices + extra_header + "end_header\n" + body;
}

// Two triangles of a unit square, then `more` extra triangles the header does not count.
std::string square_body(PlyBody::Format format, int more = 0) {
  PlyBody b(format);
  const float v[4][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  for (const auto& p : v) b.put(p[0]).put(p[1]).put(p[2]).end_row();
  for (int f = 0; f < 2 + more; ++f)
    b.put<uint8_t>(3).put<int32_t>(0).put<int32_t>(1 + f % 2).put<int32_t>(2 + f % 2).end_row();
  return b.bytes();
}

bool has_control_bytes(const std::string& s) {
  for (char c : s)
    if ((unsigned char)c < 0x20 || c == 0x7F) return true;
  return false;
}

}  // namespace

TEST(PlyHostile, FacesBeyondTheDeclaredCountAreIgnoredWithAWarningNamingTheByte) {
  ScratchDir dir;
  const std::string header_end = ply(PlyBody::LittleEndian, 4, 2, "");
  const std::string path =
      dir.write("more.ply", ply(PlyBody::LittleEndian, 4, 2, square_body(PlyBody::LittleEndian, 5)));
  Scene s = load_model(path);
  EXPECT_EQ(s.triangle_count(), 2u);
  ASSERT_EQ(s.warnings.size(), 1u);
  const size_t end = header_end.size() + 4 * 12 + 2 * 13;
  EXPECT_HAS(s.warnings[0], path + ": ignored " + std::to_string(5 * 13) + " bytes from byte " + std::to_string(end));
  EXPECT_HAS(s.warnings[0], "element face, 2 rows");
}

TEST(PlyHostile, AsciiFacesBeyondTheDeclaredCountAreIgnoredWithAWarningNamingTheLine) {
  ScratchDir dir;
  const std::string path = dir.write("more.ply", ply(PlyBody::Ascii, 4, 2, square_body(PlyBody::Ascii, 3)));
  Scene s = load_model(path);
  EXPECT_EQ(s.triangle_count(), 2u);
  ASSERT_EQ(s.warnings.size(), 1u);
  // 9 header lines, 4 vertex rows, 2 face rows: the first ignored row is line 16.
  EXPECT_HAS(s.warnings[0], path + ":16: ignored 12 words on 3 lines");
}

TEST(PlyHostile, BlanksAfterTheLastRowAreNoData) {
  ScratchDir dir;
  Scene a = load_model(dir.write("a.ply", ply(PlyBody::Ascii, 4, 2, square_body(PlyBody::Ascii) + "\n\n  \r\n")));
  EXPECT_TRUE(a.warnings.empty()) << a.warnings[0];
  Scene b = load_model(dir.write("b.ply", ply(PlyBody::BigEndian, 4, 2, square_body(PlyBody::BigEndian) + "\n")));
  EXPECT_TRUE(b.warnings.empty()) << b.warnings[0];
}

TEST(PlyHostile, ADuplicatedPropertyIsRefusedNamingBothLines) {
  ScratchDir dir;
  const std::string path = dir.write("dup.ply",
                                     "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
                                     "property float z\nproperty float x\nelement face 1\n" +
                                         kIndices + "end_header\n0 0 0 5\n1 0 0 6\n0 1 0 7\n3 0 1 2\n");
  EXPECT_EQ(test::load_refusal(path), path + ":7: element vertex has a second property x (the first is on line 4)");
}

TEST(PlyHostile, ASecondVertexOrFaceElementIsRefused) {
  ScratchDir dir;
  std::string path =
      dir.write("v2.ply", "ply\nformat ascii 1.0\nelement vertex 3\n" + kXyz + "element face 1\n" + kIndices +
                              "element vertex 1\n" + kXyz + "end_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n5 5 5\n");
  EXPECT_HAS(test::load_refusal(path), path + ":9: a second vertex element (the first is on line 3)");
  path = dir.write("f2.ply",
                   ply(PlyBody::Ascii, 3, 1, "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n3 2 1 0\n", "element face 1\n" + kIndices));
  EXPECT_HAS(test::load_refusal(path), path + ":9: a second face element (the first is on line 7)");
}

TEST(PlyHostile, AnIndexTypeTooSmallForTheVerticesIsRefusedNamingTheList) {
  ScratchDir dir;
  PlyBody b(PlyBody::LittleEndian);
  for (int v = 0; v < 1000; ++v) b.put((float)v).put(0.0f).put((float)(v % 2)).end_row();
  b.put<uint8_t>(3).put<uint8_t>(0).put<uint8_t>(1).put<uint8_t>(2).end_row();
  const std::string path =
      dir.write("uchar.ply", "ply\nformat binary_little_endian 1.0\nelement vertex 1000\n" + kXyz +
                                 "element face 1\nproperty list uchar uchar vertex_indices\nend_header\n" + b.bytes());
  const std::string message = test::load_refusal(path);
  EXPECT_HAS(message, path + ":8: face list vertex_indices holds uchar indices (at most 255)");
  EXPECT_HAS(message, "1000 vertices");
}

TEST(PlyHostile, AnIndexTypeThatNamesEveryVertexLoads) {
  ScratchDir dir;
  PlyBody b(PlyBody::LittleEndian);
  for (int v = 0; v < 256; ++v) b.put((float)v).put(0.0f).put((float)(v % 2)).end_row();
  b.put<uint8_t>(3).put<uint8_t>(0).put<uint8_t>(1).put<uint8_t>(255).end_row();
  Scene s = load_model(dir.write("uchar.ply", "ply\nformat binary_little_endian 1.0\nelement vertex 256\n" + kXyz +
                                                  "element face 1\nproperty list uchar uchar vertex_indices\n"
                                                  "end_header\n" +
                                                  b.bytes()));
  EXPECT_EQ(s.triangle_count(), 1u);
}

TEST(PlyHostile, HugeCountsInATinyFileFailFastNamingTheCountAndTheBytes) {
  ScratchDir dir;
  const std::string count = std::to_string(uint64_t(1) << 40);
  for (PlyBody::Format f : {PlyBody::Ascii, PlyBody::LittleEndian}) {
    // The vertices too many for 32-bit indices, and faces too many for the file, in turn.
    std::string path = dir.write("v.ply", ply(f, uint64_t(1) << 40, 1, square_body(f)));
    auto start = std::chrono::steady_clock::now();
    std::string message = test::load_refusal(path);
    EXPECT_HAS(message, path + ": too many vertices (" + count);
    EXPECT_HAS(message, "bytes left hold at most");
    path = dir.write("f.ply", ply(f, 4, uint64_t(1) << 40, square_body(f)));
    message = test::load_refusal(path);
    EXPECT_HAS(message, path + ": face: the header says " + count + " rows, the ");
    EXPECT_HAS(message, "bytes left after the smallest rows before it hold at most");
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), kQuickSeconds);
  }
}

TEST(PlyHostile, AnElementFacetSkipsMustStillFitTheFile) {
  ScratchDir dir;
  const std::string path = dir.write("e.ply", ply(PlyBody::LittleEndian, 4, 2, square_body(PlyBody::LittleEndian),
                                                  "element edge 99999999999\n"
                                                  "property int vertex1\n"));
  EXPECT_HAS(test::load_refusal(path), path + ": edge: the header says 99999999999 rows");
}

TEST(PlyHostile, NoEndHeaderBeforeBinaryDataSaysSoAndWhere) {
  ScratchDir dir;
  std::string header = ply(PlyBody::LittleEndian, 4, 2, "");
  header.erase(header.find("end_header\n"));
  const std::string path = dir.write("no_end.ply", header + square_body(PlyBody::LittleEndian));
  const std::string message = test::load_refusal(path);
  EXPECT_HAS(message, path + ": the PLY header has no end_header line: line 9 holds binary data (byte " +
                          std::to_string(header.size()) + " is 0x00) after 8 header lines");
  EXPECT_FALSE(has_control_bytes(message)) << message;
}

TEST(PlyHostile, NoEndHeaderInTextSaysHowFarItLooked) {
  ScratchDir dir;
  const std::string text = "ply\nformat ascii 1.0\nelement vertex 3\n";
  const std::string path = dir.write("no_end.ply", text);
  EXPECT_EQ(test::load_refusal(path), path + ": the PLY header has no end_header line (looked through all " +
                                          std::to_string(text.size()) + " bytes of the file, 3 lines)");
}

TEST(PlyHostile, AControlByteInACommentOfAGoodHeaderIsNoBinaryData) {
  ScratchDir dir;
  Scene s = load_model(
      dir.write("c.ply", ply(PlyBody::Ascii, 4, 2, square_body(PlyBody::Ascii), "comment scanned \x01 by a tool\n")));
  EXPECT_EQ(s.triangle_count(), 2u);
}

TEST(PlyHostile, NamesFromTheFileAreEscapedAndCutShort) {
  ScratchDir dir;
  const std::string name = "x\x1B[31m" + std::string(5000, 'y');
  const std::string path =
      dir.write("names.ply", ply(PlyBody::Ascii, 4, 2, square_body(PlyBody::Ascii),
                                 "element junk 1\nproperty float " + name + "\nproperty float " + name + "\n"));
  const std::string message = test::load_refusal(path);
  EXPECT_HAS(message, "has a second property 'x\\x1B[31myyy");
  EXPECT_FALSE(has_control_bytes(message)) << message;
  EXPECT_LT(message.size(), path.size() + 400);
  const std::string word =
      dir.write("word.ply", "ply\nformat ascii 1.0\n\x07" + std::string(100000, 'k') + "\nend_header\n");
  const std::string unknown = test::load_refusal(word);
  EXPECT_HAS(unknown, word + ":3: unknown header keyword '\\x07kkk");
  EXPECT_LT(unknown.size(), word.size() + 300);
}

TEST(PlyHostile, OutOfRangeAndNegativeIndicesAreRefusedNamingTheRow) {
  ScratchDir dir;
  std::string path = dir.write("neg.ply", ply(PlyBody::Ascii, 3, 2, "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n3 0 -1 2\n"));
  EXPECT_EQ(test::load_refusal(path), path + ": face 1: index -1 out of range (3 vertices)");
  PlyBody b(PlyBody::BigEndian);
  for (int v = 0; v < 3; ++v) b.put((float)v).put(0.0f).put((float)(v % 2)).end_row();
  b.put<uint8_t>(3).put<int32_t>(0).put<int32_t>(-7).put<int32_t>(2).end_row();
  path = dir.write("neg_be.ply", ply(PlyBody::BigEndian, 3, 1, b.bytes()));
  EXPECT_EQ(test::load_refusal(path), path + ": face 0: index -7 out of range (3 vertices)");
}

TEST(PlyHostile, AsciiValuesMustFitTheirDeclaredTypes) {
  ScratchDir dir;
  std::string rows;
  for (int v = 0; v < 300; ++v) rows += std::to_string(v % 2) + " " + std::to_string(v) + " 0\n";
  std::string corners = "300";
  for (int v = 0; v < 300; ++v) corners += " " + std::to_string(v);
  std::string path = dir.write("count.ply", ply(PlyBody::Ascii, 300, 1, rows + corners + "\n"));
  EXPECT_EQ(test::load_refusal(path),
            path + ": face 0: list vertex_indices: count 300 does not fit its type uchar (0..255)");
  path = dir.write("index.ply", "ply\nformat ascii 1.0\nelement vertex 3\n" + kXyz +
                                    "element face 1\nproperty list uchar char vertex_indices\nend_header\n"
                                    "0 0 0\n1 0 0\n0 1 0\n3 0 1 200\n");
  EXPECT_EQ(test::load_refusal(path),
            path + ": face 0: list vertex_indices: index 200 does not fit its type char (-128..127)");
}

TEST(PlyHostile, ABinaryListCountThatWrappedLeavesDataThatIsReported) {
  ScratchDir dir;
  // A 256-corner face whose uchar count a careless writer wrote as 0.
  PlyBody b(PlyBody::LittleEndian);
  for (int v = 0; v < 256; ++v) b.put((float)(v % 2)).put((float)v).put(0.0f).end_row();
  b.put<uint8_t>(3).put<int32_t>(0).put<int32_t>(1).put<int32_t>(2).end_row();
  b.put<uint8_t>(0);
  for (int v = 0; v < 256; ++v) b.put<int32_t>(v);
  const std::string path = dir.write("wrapped.ply", ply(PlyBody::LittleEndian, 256, 2, b.bytes()));
  Scene s = load_model(path);
  EXPECT_EQ(s.triangle_count(), 1u);
  ASSERT_EQ(s.warnings.size(), 2u);
  EXPECT_HAS(s.warnings[0], "ignored 1 faces with fewer than 3 vertices");
  EXPECT_HAS(s.warnings[1], "ignored 1024 bytes from byte");
}

TEST(PlyHostile, AnAsciiBodyAfterAHeaderWithoutEndHeaderSaysSo) {
  ScratchDir dir;
  std::string text = ply(PlyBody::Ascii, 4, 2, square_body(PlyBody::Ascii));
  text.erase(text.find("end_header\n"), 11);
  const std::string path = dir.write("no_end.ply", text);
  EXPECT_HAS(test::load_refusal(path), path +
                                           ":9: the PLY header has no end_header line: the body seems to start on "
                                           "this line ('0.000000' is a number, not a header keyword)");
  const std::string typo = dir.write("typo.ply", "ply\nformat ascii 1.0\nelemnt vertex 3\n");
  EXPECT_EQ(test::load_refusal(typo), typo + ":3: unknown header keyword 'elemnt', and no end_header line follows");
}
