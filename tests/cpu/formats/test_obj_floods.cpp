// The OBJ and MTL readers under floods and echoes: a file with a hundred thousand
// broken references (usemtl names no MTL defines, malformed MTL values, material libraries that
// do not exist) gives each kind of warning three times, then as a count; names from the file are
// quoted with control characters escaped, and no message repeats more than a few hundred bytes of
// the file; paths with control characters in them are escaped too.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "engine/load/load_model.h"
#include "tests/support/scene_warnings.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/test_scenes.h"

using namespace facet;
using test::ScratchDir;

namespace {

#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << "in: " << (text)

constexpr int kFlood = 100000;  // broken references in one file: each would have been a warning

const std::string kTriangle = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";

// OBJ text refuses C0 control bytes outright (binary data): what reaches a message is C1 controls
// (CSI), bidirectional overrides and bytes that are not UTF-8.
const std::string kTerminalBytes = "\xC2\x9B\xE2\x80\xAE\xFF";
const std::string kTerminalEscaped = "\\xC2\\x9B\\xE2\\x80\\xAE\\xFF";

bool has_control_bytes(const std::string& s) {
  for (char c : s)
    if ((unsigned char)c < 0x20 || c == 0x7F || (unsigned char)c == 0xFF) return true;
  return s.find("\xC2\x9B") != std::string::npos || s.find("\xE2\x80\xAE") != std::string::npos;
}

}  // namespace

TEST(ObjFloods, ManyUndefinedMaterialsAreNamedThreeTimesThenCounted) {
  ScratchDir dir;
  std::string text = kTriangle;
  for (int i = 0; i < kFlood; ++i) text += "usemtl m" + std::to_string(i) + "\nf 1 2 3\n";
  const std::string path = dir.write("many.obj", text);
  Scene s = load_model(path);
  EXPECT_EQ(s.triangle_count(), (size_t)kFlood);
  EXPECT_LE(s.warnings.size(), 5u);
  EXPECT_EQ(test::warnings_containing(s, "is not defined in any loaded MTL"), 3u);
  EXPECT_HAS(s.warnings.back(), path + ": " + std::to_string(kFlood - 3) +
                                    " more materials not defined in any loaded MTL (" + std::to_string(kFlood) +
                                    " in all; the first 3 are named)");
}

TEST(ObjFloods, OneUndefinedMaterialUsedManyTimesIsOneWarning) {
  ScratchDir dir;
  std::string text = kTriangle;
  for (int i = 0; i < kFlood; ++i) text += "usemtl same\nf 1 2 3\n";
  const std::string path = dir.write("same.obj", text);
  Scene s = load_model(path);
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_EQ(s.warnings[0], path + ": material 'same' is not defined in any loaded MTL; its faces use the default grey");
}

TEST(ObjFloods, MaterialNamesAreEscapedAndCutShort) {
  ScratchDir dir;
  const std::string name = "red" + kTerminalBytes + std::string(100000, 'n');
  const std::string path = dir.write("evil.obj", kTriangle + "usemtl " + name + "\nf 1 2 3\n");
  Scene s = load_model(path);
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_HAS(s.warnings[0], "material 'red" + kTerminalEscaped + "nnn");
  EXPECT_HAS(s.warnings[0], "... (" + std::to_string(name.size()) + " bytes)");
  EXPECT_FALSE(has_control_bytes(s.warnings[0]));
  EXPECT_LT(s.warnings[0].size(), path.size() + 400);
}

TEST(ObjFloods, ManyMalformedMtlValuesAreGivenThreeTimesThenCounted) {
  ScratchDir dir;
  std::string mtl = "newmtl a\n";
  for (int i = 0; i < kFlood; ++i) mtl += "Kd red\x1B green blue\n";
  dir.write("m.mtl", mtl);
  const std::string path = dir.write("m.obj", "mtllib m.mtl\n" + kTriangle + "usemtl a\nf 1 2 3\n");
  Scene s = load_model(path);
  EXPECT_LE(s.warnings.size(), 5u);
  EXPECT_EQ(test::warnings_containing(s, "Kd needs three numbers"), 3u);
  EXPECT_EQ(test::warnings_containing(s, std::to_string(kFlood - 3) + " more malformed colours (" +
                                             std::to_string(kFlood) + " in all; the first 3 are named)"),
            1u);
  for (const std::string& w : s.warnings) EXPECT_FALSE(has_control_bytes(w)) << w;
}

TEST(ObjFloods, ManyMissingMaterialLibrariesAreGivenThreeTimesThenCounted) {
  ScratchDir dir;
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "mtllib missing" + std::to_string(i) + ".mtl\n";
  Scene s = load_model(dir.write("libs.obj", text + kTriangle + "f 1 2 3\n"));
  EXPECT_LE(s.warnings.size(), 5u);
  EXPECT_EQ(test::warnings_containing(s, "missing"), 3u);
  EXPECT_EQ(test::warnings_containing(s, "19997 more warnings of the form \"material library '...'"), 1u);
}

TEST(ObjFloods, AHugeFaceCornerIsQuotedShortInTheRefusal) {
  ScratchDir dir;
  const std::string path =
      dir.write("corner.obj", kTriangle + "f 1 2 3/" + kTerminalBytes + std::string(1000000, '9') + "\n");
  const std::string message = test::load_refusal(path);
  EXPECT_HAS(message, path + ":4: malformed face corner '3/" + kTerminalEscaped + "999");
  EXPECT_FALSE(has_control_bytes(message));
  EXPECT_LT(message.size(), path.size() + 400);
}

TEST(ObjFloods, APathWithControlCharactersIsEscapedInWarningsAndRefusals) {
  ScratchDir dir;
  const std::string path = dir.write("bad\nname\x1B.obj", kTriangle + "usemtl gone\nf 1 2 3\n");
  Scene s = load_model(path);
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_EQ(s.warnings[0].rfind(dir.path("bad\\nname\\x1B.obj: material 'gone'"), 0), 0u) << s.warnings[0];
  const std::string empty = dir.write("empty\r.obj", "");
  EXPECT_EQ(test::load_refusal(empty), dir.path("empty\\r.obj: the file is empty"));
}

TEST(ObjFloods, ACoordinateThatIsNoNumberIsNamedNotCalledNaN) {
  ScratchDir dir;
  std::string path = dir.write("word.obj", "v 0 0 0\nv 1 0 0x\nv 0 1 0\nf 1 2 3\n");
  EXPECT_EQ(test::load_refusal(path), path +
                                          ": no triangles left after dropping 1 faces with NaN or infinite vertex "
                                          "positions (or a coordinate that is not a number: line 2 has '0x')");
  // NaN and infinity spelled out, as writers print them, are what the message says already.
  path = dir.write("nan.obj", "v 0 0 0\nv 1 0 1.#IND\nv 0 1 -nan\nv 1 1 0\nv 0 1 0\nf 1 2 3\nf 1 4 5\n");
  Scene s = load_model(path);
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_EQ(s.warnings[0], path + ": dropped 1 faces with NaN or infinite vertex positions");
}

TEST(ObjFloods, TextureCoordinatesAndNormalsThatAreNoNumbersAreSaid) {
  ScratchDir dir;
  const std::string path =
      dir.write("vt.obj", "vt nan nan\nvt 0.5 1e39\nvn nan 0 1\n" + kTriangle + "f 1/1/1 2/2/1 3/1/1\n");
  Scene s = load_model(path);
  ASSERT_EQ(s.warnings.size(), 2u);
  EXPECT_EQ(s.warnings[0], path +
                               ": 3 texture coordinate values (of 2 vt statements) are NaN, infinite or not numbers; "
                               "they read as 0");
  EXPECT_HAS(s.warnings[1], path + ": 1 normal values (of 1 vn statements) are NaN, infinite or not numbers");
  for (const Vec2& uv : s.uvs) EXPECT_TRUE(std::isfinite(uv.x) && std::isfinite(uv.y));
}
