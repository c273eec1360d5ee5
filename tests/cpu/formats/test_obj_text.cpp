// The OBJ parser's one-pass readers (engine/formats/obj/obj_text.h) against the general reading they stand in
// for: a plain number reads to the same float bit for bit, a plain corner to the same parts, and
// anything else is left to the general reading. Also what a chunk's reservation must not change
// (engine/formats/obj/obj_chunk_reserve.h) and the triangle arrays the stitch leaves out for all-triangle chunks.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>

#include "engine/formats/obj/obj_chunk_reserve.h"
#include "engine/formats/obj/obj_stitch.h"
#include "engine/formats/obj/obj_text.h"

using namespace facet;

namespace {

// The general reading of a whole word as a vertex coordinate: a plain number, its value.
bool general_number(const std::string& w, float* out) {
  const char* e = w.data() + w.size();
  return is_plain_number(w.data(), e) && read_number(w.data(), e, out);
}

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// Decimal words of the kinds OBJ writers print, and some they do not.
std::string random_decimal(std::mt19937& rng) {
  std::string w;
  if (rng() % 3 == 0) w += rng() % 2 ? '-' : '+';
  for (int k = (int)(rng() % 9); k > 0; --k) w += char('0' + rng() % 10);
  if (rng() % 4) {
    w += '.';
    for (int k = (int)(rng() % 13); k > 0; --k) w += char('0' + rng() % 10);
  }
  if (rng() % 8 == 0) w += "e" + std::to_string((int)(rng() % 30) - 15);
  return w;
}

std::vector<ObjChunk> parse(const std::string& text, bool reserve) {
  ObjChunk c;
  c.begin = text.data();
  c.end = text.data() + text.size();
  c.first = true;
  if (reserve) reserve_obj_chunk(c);
  parse_obj_chunk(c);
  std::vector<ObjChunk> out;
  out.push_back(std::move(c));
  return out;
}

}  // namespace

TEST(ObjText, PlainNumberReadsTheSameFloatAsTheGeneralReading) {
  std::mt19937 rng(7);
  int read = 0;
  for (int i = 0; i < 200000; ++i) {
    const std::string w = random_decimal(rng);
    float fast = -1, general = -2;
    const char* end = read_plain_number(w.data(), w.data() + w.size(), &fast);
    if (!end) continue;
    ++read;
    ASSERT_TRUE(general_number(w, &general)) << w;
    ASSERT_EQ(bits(fast), bits(general)) << w;
    ASSERT_EQ(end, w.data() + w.size()) << w;
  }
  EXPECT_GT(read, 100000);  // most words are plain numbers
}

TEST(ObjText, PlainNumberStopsAtABlankAndLeavesOddWordsToTheGeneralReading) {
  const std::string line = "-0.0503644 \t1";
  float f = 0;
  EXPECT_EQ(read_plain_number(line.data(), line.data() + line.size(), &f), line.data() + 10);
  EXPECT_EQ(f, -0.0503644f);
  for (std::string w : {"5e", "1e+", "1.5abc", "nan", "inf", "-", ".", "1.#IND", "0x10", "--5"})
    EXPECT_EQ(read_plain_number(w.data(), w.data() + w.size(), &f), nullptr) << w;
}

TEST(ObjText, PlainCornerReadsEachFormAndLeavesTheRestToTheGeneralReading) {
  struct Case {
    const char* word;
    int32_t v, vt, vn;
  };
  for (Case c : {Case{"7", 7, 0, 0}, Case{"7/8", 7, 8, 0}, Case{"7//9", 7, 0, 9}, Case{"7/8/9", 7, 8, 9},
                 Case{"2147483647", 2147483647, 0, 0}}) {
    int32_t v = 0, vt = 0, vn = 0;
    int32_t* const parts[3] = {&v, &vt, &vn};
    const std::string w = std::string(c.word) + " 1";
    const char* end = read_plain_corner(w.data(), w.data() + w.size(), parts);
    ASSERT_EQ(end, w.data() + std::strlen(c.word)) << c.word;
    EXPECT_EQ(v, c.v);
    EXPECT_EQ(vt, c.vt);
    EXPECT_EQ(vn, c.vn);
  }
  for (std::string w :
       {"-1", "0", "1/0", "2147483648", "12345678901", "1/", "1//", "1/2/3/4", "1x", "/1", "+1", "1/-2"}) {
    int32_t v = 0, vt = 0, vn = 0;
    int32_t* const parts[3] = {&v, &vt, &vn};
    EXPECT_EQ(read_plain_corner(w.data(), w.data() + w.size(), parts), nullptr) << w;
  }
}

// The plain index reading's definition, one digit at a time.
static bool reference_index(const std::string& digits, int32_t* out) {
  if (digits.empty() || digits.size() > 10) return false;
  const long long v = std::stoll(digits);
  if (v == 0 || v > INT32_MAX) return false;
  *out = (int32_t)v;
  return true;
}

TEST(ObjText, PlainCornerReadsIndicesOfAnyLengthWhereverTheTextEnds) {
  std::mt19937 rng(11);
  for (int i = 0; i < 100000; ++i) {
    std::string parts[3], word;
    const int kinds = 1 + (int)(rng() % 3);
    for (int k = 0; k < kinds; ++k) {
      const int length = (int)(rng() % 13);
      for (int d = 0; d < length; ++d) parts[k] += (char)('0' + (d == 0 ? 1 + rng() % 9 : rng() % 10));
      if (rng() % 8 == 0 && length) parts[k][0] = '0';
      word += (k ? "/" : "") + parts[k];
    }
    const std::string text = rng() % 2 ? word : word + (rng() % 2 ? " 12345678" : "\n");
    int32_t got[3] = {0, 0, 0}, want[3] = {0, 0, 0};
    int32_t* const into[3] = {&got[0], &got[1], &got[2]};
    const char* end = read_plain_corner(text.data(), text.data() + text.size(), into);
    bool ok = reference_index(parts[0], &want[0]);
    for (int k = 1; k < kinds; ++k)
      ok = ok && (parts[k].empty() ? k == 1 && kinds == 3 : reference_index(parts[k], &want[k]));
    ASSERT_EQ(end != nullptr, ok) << text;
    if (!ok) continue;
    EXPECT_EQ(end, text.data() + word.size()) << text;
    for (int k = 0; k < 3; ++k) EXPECT_EQ(got[k], want[k]) << text;
  }
}

TEST(ObjText, ReservingAChunkChangesNothingItParses) {
  // Vertices first, then faces: the sampled mix is wrong for most of the text.
  std::string text;
  for (int i = 0; i < 30000; ++i) text += "v " + std::to_string(i) + " 0.5 -1\nvt 0.25 1\n";
  for (int i = 1; i + 2 <= 30000; ++i)
    text += "f " + std::to_string(i) + "/1 " + std::to_string(i + 1) + "/2 " + std::to_string(i + 2) + "/3 -1/-1\n";
  const ObjChunk a = parse(text, false)[0], b = parse(text, true)[0];
  EXPECT_EQ(a.positions, b.positions);
  EXPECT_EQ(a.texcoords, b.texcoords);
  EXPECT_EQ(a.corner_v, b.corner_v);
  EXPECT_EQ(a.corner_vt, b.corner_vt);
  EXPECT_EQ(a.corner_vn, b.corner_vn);
  ASSERT_EQ(a.relative.size(), b.relative.size());
  EXPECT_EQ(0, std::memcmp(a.relative.data(), b.relative.data(), a.relative.size() * sizeof(ObjRelative)));
  ASSERT_EQ(a.faces.size(), b.faces.size());
  EXPECT_EQ(a.relative_corners, b.relative_corners);
  EXPECT_EQ(a.relative_corners, a.faces.size());
}

TEST(ObjText, ChunksOfTrianglesOnlyReadTheirTrianglesFromTheFaces) {
  const std::string tris = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 2 4 3\n";
  ObjModel m = stitch_obj_chunks("t.obj", parse(tris, true));
  triangulate_obj_faces(m);
  const ObjChunk& c = m.chunks[0];
  ASSERT_TRUE(c.all_triangles);
  EXPECT_TRUE(c.triangles.empty());
  ASSERT_EQ(c.triangle_count(), 2u);
  EXPECT_EQ(c.triangle_corner(1, 0), 3u);
  EXPECT_EQ(c.triangle_corner(1, 2), 5u);

  ObjModel q = stitch_obj_chunks("q.obj", parse(tris + "f 1 2 4 3\n", true));
  triangulate_obj_faces(q);
  const ObjChunk& d = q.chunks[0];
  ASSERT_FALSE(d.all_triangles);
  ASSERT_EQ(d.triangle_count(), 4u);
  EXPECT_EQ(d.triangle_corner(1, 0), 3u);
  EXPECT_EQ(d.triangle_faces[3], 1u) << "the quad's record follows the triangles' one";
}

TEST(ObjText, ConsecutiveTrianglesShareOneFaceRecordUntilSmoothingOrMaterialChanges) {
  const std::string v = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
  const ObjChunk a = parse(v + "f 1 2 3\nf 1 2 3\nf 1/1 2 3\nf -3 -2 -1\n", true)[0];
  ASSERT_EQ(a.faces.size(), 1u);
  EXPECT_EQ(a.faces[0].corner_count, 12u);
  EXPECT_EQ(a.face_statements, 4u);
  const ObjChunk b = parse(v + "f 1 2 3\ns 1\nf 1 2 3\nusemtl x\nf 1 2 3\nf 1 2 3 1\nf 1 2 3\n", true)[0];
  ASSERT_EQ(b.faces.size(), 5u);
  EXPECT_EQ(b.faces[1].smoothing, 1u);
  EXPECT_EQ(b.faces[2].usemtl, 0);
  EXPECT_FALSE(b.faces[3].triangles);
  EXPECT_EQ(b.faces[4].corner_count, 3u);
}

TEST(ObjText, CornersKeepOnlyThePartsTheFileNames) {
  const std::string v = "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\n";
  const ObjChunk a = parse(v + "f 1 2 3\nf 1 2 3\n", true)[0];
  EXPECT_EQ(a.corner_v.size(), 6u);
  EXPECT_TRUE(a.corner_vt.empty());
  EXPECT_TRUE(a.corner_vn.empty());
  const ObjChunk b = parse(v + "f 1 2 3\nf 1//1 2 3\nf 1 2/1 3\n", true)[0];
  EXPECT_EQ(b.corner_vn, (std::vector<int32_t>{0, 0, 0, 1}));
  EXPECT_EQ(b.corner_vt, (std::vector<int32_t>{0, 0, 0, 0, 0, 0, 0, 1}));
}
