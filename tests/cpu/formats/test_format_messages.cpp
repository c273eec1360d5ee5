// The shared message pieces of every reader (engine/formats/format_messages.h): warnings of a
// kind kept three times then counted, in the order given; warnings built elsewhere grouped by
// their form, escaped and cut short; paths escaped whole.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/formats/format_messages.h"

using namespace facet;

TEST(FormatMessages, AKindIsKeptThreeTimesThenCounted) {
  FormatWarnings w("m.ply");
  for (int i = 0; i < 10; ++i) w.add("faces with a problem", "face " + std::to_string(i) + ": a problem");
  w.add_at_line("other lines", 7, "one");
  EXPECT_EQ(w.count("faces with a problem"), 10u);
  std::vector<std::string> out;
  w.finish(out);
  EXPECT_EQ(out, (std::vector<std::string>{"m.ply: face 0: a problem", "m.ply: face 1: a problem",
                                           "m.ply: face 2: a problem", "m.ply:7: one",
                                           "m.ply: 7 more faces with a problem (10 in all; the first 3 are named)"}));
  w.finish(out);  // started afresh: nothing more
  EXPECT_EQ(out.size(), 5u);
}

TEST(FormatMessages, ForeignWarningsAreGroupedByFormEscapedAndCut) {
  FormatWarnings w("m.obj");
  for (int i = 0; i < 50; ++i)
    w.add_foreign("m.obj: material library 'lib" + std::to_string(i) + ".mtl' cannot be read (m/lib" +
                  std::to_string(i) + ".mtl: no such file)");
  w.add_foreign("m.obj: texture 'a\x1B.png' of material 'x' cannot be loaded (a.png: bad)" + std::string(1000, 'z'));
  std::vector<std::string> out;
  w.finish(out);
  ASSERT_EQ(out.size(), 5u);
  EXPECT_EQ(out[0], "m.obj: material library 'lib0.mtl' cannot be read (m/lib0.mtl: no such file)");
  EXPECT_EQ(out[3].rfind("m.obj: texture 'a\\x1B.png'", 0), 0u);
  EXPECT_LT(out[3].size(), kMaxForeignMessageBytes + 40);
  EXPECT_EQ(out[4],
            "m.obj: 47 more warnings of the form \"material library '...' cannot be read (...)\" (50 in "
            "all; the first 3 are named)");
}

TEST(FormatMessages, ForeignWarningsOfEverChangingFormAreCountedTogether) {
  FormatWarnings w("m.obj");
  std::string shape = "a";
  for (int i = 0; i < 1000; ++i, shape += "b") w.add_foreign("m.obj: " + shape);
  std::vector<std::string> out;
  w.finish(out);
  EXPECT_LE(out.size(), kMaxForeignForms * 4 + 2);
  EXPECT_EQ(out.back(), "m.obj: " + std::to_string(1000 - kMaxForeignForms - 3) + " more other warnings (" +
                            std::to_string(1000 - kMaxForeignForms) + " in all; the first 3 are named)");
}

TEST(FormatMessages, PathsAreEscapedWholeAndQuotedStringsCut) {
  EXPECT_EQ(shown_path("/tmp/a\nb\x1B.obj"), "/tmp/a\\nb\\x1B.obj");
  EXPECT_EQ(shown_path(std::string(5000, 'p')).size(), 5000u);
  EXPECT_EQ(quoted("it's"), "'it\\'s'");
  EXPECT_EQ(quoted(std::string(100, 'q'), 4), "'qqqq'... (100 bytes)");
  EXPECT_EQ(word_or_quoted("vertex_indices"), "vertex_indices");
  EXPECT_EQ(word_or_quoted("x y"), "'x y'");
}
