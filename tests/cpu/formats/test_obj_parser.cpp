// What our OBJ parser adds to facet's loading, behaviour by behaviour: linear time on a huge
// polygon, '\' line continuations (also across the parser's chunk boundaries), vertex colours,
// and refusals that keep their line numbers when the file is parsed in many chunks.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "engine/load/load_model.h"
#include "tests/support/scratch_dir.h"

using namespace facet;
using test::ScratchDir;

namespace {

// `corners` points on a circle and one face using them all.
std::string polygon_obj(int corners) {
  std::string text;
  text.reserve((size_t)corners * 40);
  for (int i = 0; i < corners; ++i) {
    double a = 2 * M_PI * i / corners;
    text += "v " + std::to_string(std::cos(a)) + " " + std::to_string(std::sin(a)) + " 0\n";
  }
  text += "f";
  for (int i = 1; i <= corners; ++i) text += " " + std::to_string(i);
  return text + "\n";
}

// Filler lines (comments) to push what follows past the parser's smallest chunk (1 MiB).
std::string filler(size_t bytes) {
  std::string line = "# " + std::string(78, 'x') + "\n", out;
  while (out.size() < bytes) out += line;
  return out;
}

}  // namespace

TEST(ObjParser, FaceWith200000CornersLoadsQuickly) {
  ScratchDir dir;
  Scene s = load_model(dir.write("huge.obj", polygon_obj(200000)));
  EXPECT_EQ(s.triangle_count(), 199998u);
  EXPECT_EQ(s.vertex_count(), 200000u);
}

TEST(ObjParser, BackslashContinuesAStatementOnTheNextLine) {
  ScratchDir dir;
  Scene s = load_model(dir.write("c.obj",
                                 "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 \\\r\n 0\n"
                                 "f 1 2 \\\n3 4\n"));
  EXPECT_EQ(s.triangle_count(), 2u);
  EXPECT_EQ(s.vertex_count(), 4u);
}

TEST(ObjParser, ContinuationAcrossAChunkSizeKeepsLineNumbers) {
  ScratchDir dir;
  // The face is continued over many lines right where a chunk would end; the refusal after it
  // must name its own line.
  std::string head = filler(3u << 20) + "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1\\\n";
  std::string text = head;
  for (int i = 0; i < 20000; ++i) text += " \\\n";
  text += "2 3\nf 1 2 9\n";
  size_t line = 1;
  for (char c : text) line += c == '\n';
  std::string path = dir.write("c.obj", text);
  try {
    load_model(path);
    ADD_FAILURE() << "index 9 must refuse the file";
  } catch (const LoadError& e) {
    std::string want = path + ":" + std::to_string(line - 1) + ": vertex index 9 out of range";
    EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
  }
}

TEST(ObjParser, RefusalInALaterChunkNamesItsLine) {
  ScratchDir dir;
  std::string text = "v 0 0 0\nv 1 0 0\nv 0 1 0\n" + filler(5u << 20);
  size_t line = 1;
  for (char c : text) line += c == '\n';
  text += "f 1 2 -9\n";
  std::string path = dir.write("r.obj", text);
  try {
    load_model(path);
    ADD_FAILURE() << "relative index -9 must refuse the file";
  } catch (const LoadError& e) {
    std::string want = path + ":" + std::to_string(line) +
                       ": relative vertex index -9 in '-9' "
                       "points before the first one (3 defined so far)";
    EXPECT_EQ(std::string(e.what()), want);
  }
}

TEST(ObjParser, VertexColoursAreKeptWhenEveryVertexHasOne) {
  ScratchDir dir;
  Scene s = load_model(dir.write("c.obj",
                                 "v 0 0 0 1 0 0\nv 1 0 0 0 1 0\nv 0 1 0 0 0 0.5\n"
                                 "f 1 2 3\n"));
  ASSERT_EQ(s.colors.size(), 3u);
  EXPECT_EQ(s.colors[0].r, 255);
  EXPECT_EQ(s.colors[0].g, 0);
  EXPECT_EQ(s.colors[1].g, 255);
  EXPECT_EQ(s.colors[2].b, 128);
  EXPECT_EQ(s.colors[2].a, 255);
  EXPECT_TRUE(s.warnings.empty()) << s.warnings.front();
}

TEST(ObjParser, VertexColoursOnSomeVerticesOnlyAreDroppedWithOneWarning) {
  ScratchDir dir;
  std::string path = dir.write("c.obj", "v 0 0 0 1 0 0\nv 1 0 0\nv 0 1 0 0 0 1\nf 1 2 3\n");
  Scene s = load_model(path);
  EXPECT_TRUE(s.colors.empty());
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_NE(s.warnings[0].find(path + ": 2 of 3 vertices have a colour"), std::string::npos) << s.warnings[0];
}

TEST(ObjParser, ModelWithoutColoursHasNone) {
  ScratchDir dir;
  Scene s = load_model(dir.write("c.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"));
  EXPECT_TRUE(s.colors.empty());
  EXPECT_TRUE(s.warnings.empty());
}

TEST(ObjParser, LineStatementWithIndexZeroIsRefusedWithItsLine) {
  ScratchDir dir;
  std::string path = dir.write("l.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nl 1 0\n");
  try {
    load_model(path);
    ADD_FAILURE() << "index 0 in an l statement must refuse the file";
  } catch (const LoadError& e) {
    EXPECT_NE(std::string(e.what()).find(path + ":5: index 0"), std::string::npos) << e.what();
  }
}

TEST(ObjParser, CommentEndingInABackslashDoesNotSwallowTheNextLine) {
  ScratchDir dir;
  Scene s = load_model(dir.write("c.obj",
                                 "# exported from C:\\models\\\nv 0 0 0\nv 1 0 0\n"
                                 "v 0 1 0\nf 1 2 3\n"));
  EXPECT_EQ(s.triangle_count(), 1u);
}
