// The STL reader under hostile input: a binary file whose header starts with "solid"
// is told from ASCII by its bytes, not by its first word, so a count that disagrees with the size
// is reported as that, with the numbers, never as broken ASCII; a count of 0 before whole records
// says so; words from the file are quoted, escaped and cut short.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "engine/load/load_model.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/test_scenes.h"

using namespace facet;
using test::ScratchDir;

namespace {

#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << "in: " << (text)

// A binary STL of `triangles` small triangles whose header says `count`, its 80-byte header
// `header` padded with NUL bytes (as most writers pad it) or with blanks.
std::string binary_stl(uint32_t triangles, uint32_t count, const std::string& header, char pad = '\0') {
  std::string s = header + std::string(80 - header.size(), pad);
  s.append(reinterpret_cast<const char*>(&count), 4);
  for (uint32_t t = 0; t < triangles; ++t) {
    const float record[12] = {0, 0, 1, (float)t, 0, 0, (float)t + 1, 0, 0, (float)t, 1, 0};
    s.append(reinterpret_cast<const char*>(record), 48);
    s.append(2, '\0');
  }
  return s;
}

bool has_control_bytes(const std::string& s) {
  for (char c : s)
    if ((unsigned char)c < 0x20 || c == 0x7F) return true;
  return false;
}

}  // namespace

TEST(StlHostile, SolidHeaderWithTooLargeACountIsReportedAsTruncatedBinary) {
  ScratchDir dir;
  const std::string path = dir.write("cut.stl", binary_stl(10, 12, "solid part"));
  EXPECT_EQ(test::load_refusal(path),
            path +
                ": binary STL (it starts with 'solid' but is not text: byte 10 is 0x00) "
                "truncated: its header says 12 triangles (684 bytes), the file has 584 bytes");
}

TEST(StlHostile, SolidHeaderPaddedWithBlanksIsStillToldByItsCount) {
  ScratchDir dir;
  // The header is all text: the count's bytes (12, 0, 0, 0) are the first that are not.
  const std::string path = dir.write("cut.stl", binary_stl(10, 12, "solid part", ' '));
  EXPECT_HAS(test::load_refusal(path), path +
                                           ": binary STL (it starts with 'solid' but is not text: byte 80 is 0x0C) "
                                           "truncated: its header says 12 triangles");
}

TEST(StlHostile, SolidHeaderWithBytesAfterTheTrianglesLoadsWithAWarning) {
  ScratchDir dir;
  const std::string path = dir.write("tail.stl", binary_stl(10, 8, "solid part"));
  Scene s = load_model(path);
  EXPECT_EQ(s.triangle_count(), 8u);
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_HAS(s.warnings[0], path +
                                ": binary STL (it starts with 'solid' but is not text: byte 10 is 0x00): ignored "
                                "100 bytes after the 8 triangles (from byte 484)");
}

TEST(StlHostile, ACountOfZeroBeforeWholeRecordsSaysSo) {
  ScratchDir dir;
  const std::string path = dir.write("zero.stl", binary_stl(4, 0, "written by a streaming tool"));
  EXPECT_EQ(test::load_refusal(path),
            path +
                ": no triangles to show: binary STL: its header says 0 triangles (84 bytes), "
                "the file has 284 bytes, room for 4 (a writer that did not fill in the count?)");
}

TEST(StlHostile, ShortBinaryDataAfterSolidIsNotCalledAscii) {
  ScratchDir dir;
  const std::string path = dir.write("short.stl", std::string("solid x\0\0\x01\x02", 11));
  EXPECT_EQ(test::load_refusal(path), path +
                                          ": not an STL file (11 bytes: too short for a binary STL, which takes 84 at "
                                          "least, and not ASCII text: byte 7 is 0x00)");
}

TEST(StlHostile, AsciiStillReadsWhenItsSizeIsNotABinarySize) {
  ScratchDir dir;
  Scene s = load_model(dir.write("a.stl",
                                 "solid a\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n"
                                 "vertex 0 1 0\nendloop\nendfacet\nendsolid a\n"));
  EXPECT_EQ(s.triangle_count(), 1u);
}

TEST(StlHostile, AsciiWordsAreQuotedEscapedAndCutShort) {
  ScratchDir dir;
  const std::string word = "\x1B]0;title\x07" + std::string(100000, 'z');
  // Tabs and line ends are text: the escape byte is what makes this file binary, unless it comes
  // after the first 4096 bytes; it is put there.
  const std::string path = dir.write(
      "w.stl", "solid a\n" + std::string(5000, ' ') + "\nfacet normal 0 0 1\nouter loop\nvertex 0 0 " + word + "\n");
  const std::string message = test::load_refusal(path);
  EXPECT_HAS(message, path + ":5: '\\x1B]0;title\\x07zzz");
  EXPECT_HAS(message, "is not a number");
  EXPECT_FALSE(has_control_bytes(message)) << message;
  EXPECT_LT(message.size(), path.size() + 300);
}
