// Our MTL parser (engine/formats/obj/mtl_parser.h), statement by statement: what facet shades today (Kd,
// map_Kd with options) and what it keeps for later (Ks, Ns, Ke, d / Tr, map_Ks, map_Ke, map_d).
#include <gtest/gtest.h>

#include <string>

#include "engine/formats/obj/mtl_parser.h"

using namespace facet;

namespace {

std::vector<MtlMaterial> parse(const std::string& text) { return parse_mtl(text.data(), text.size()); }

}  // namespace

TEST(MtlParser, OneMaterialPerNewmtlAndTheLastAlways) {
  auto m = parse("newmtl a\nKd 1 0 0\nnewmtl b\nKd 0 1 0\n");
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].name, "a");
  EXPECT_EQ(m[1].name, "b");
  EXPECT_EQ(m[1].kd.y, 1.0f);
  EXPECT_TRUE(m[0].has_kd);
}

TEST(MtlParser, AFileWithoutNewmtlStillHasOneUnnamedMaterial) {
  auto m = parse("# nothing\nKd 0.5 0.5 0.5\n");
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].name, "");
  EXPECT_EQ(m[0].kd.x, 0.5f);
}

TEST(MtlParser, SpecularEmissionAndOpacityAreKept) {
  auto m = parse("newmtl s\r\nKs 0.1 0.2 0.3\r\nNs 96\r\nKe 4 5 6\r\nd 0.25\r\n");
  ASSERT_EQ(m.size(), 1u);
  EXPECT_FLOAT_EQ(m[0].ks.z, 0.3f);
  EXPECT_FLOAT_EQ(m[0].ns, 96.0f);
  EXPECT_FLOAT_EQ(m[0].ke.x, 4.0f);
  EXPECT_FLOAT_EQ(m[0].d, 0.25f);
  EXPECT_FALSE(m[0].has_kd);
}

TEST(MtlParser, TrIsOneMinusOpacityUnlessDWasGiven) {
  auto m = parse("newmtl a\nTr 0.25\nnewmtl b\nd 0.5\nTr 0.9\n");
  ASSERT_EQ(m.size(), 2u);
  EXPECT_FLOAT_EQ(m[0].d, 0.75f);
  EXPECT_FLOAT_EQ(m[1].d, 0.5f);
}

TEST(MtlParser, TextureNamesFollowTheirOptionsAndKeepSpaces) {
  auto m = parse(
      "newmtl t\nmap_Kd -s 1 1 1 -o 0 0 0 -bm 2 tex dir\\my tex.png  \n"
      "map_Ks spec.png\nmap_Ke -clamp on glow.png\nmap_d alpha.png\n");
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].map_kd, "tex dir\\my tex.png");
  EXPECT_EQ(m[0].map_ks, "spec.png");
  EXPECT_EQ(m[0].map_ke, "glow.png");
  EXPECT_EQ(m[0].map_d, "alpha.png");
}

TEST(MtlParser, TextureStatementWithOnlyOptionsKeepsTheEarlierName) {
  auto m = parse("newmtl t\nmap_Kd a.png\nmap_Kd -s 2 2 2\n");
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].map_kd, "a.png");
}
