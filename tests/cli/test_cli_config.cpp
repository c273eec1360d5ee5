// The defaults file: $XDG_CONFIG_HOME/facet/facet.toml (or --config FILE), one section per
// command; the command line wins over it; what it holds that cannot be used is reported and
// ignored (test_cli_values.cpp: each value's checks).
#include <gtest/gtest.h>

#include "tests/cli/cli_run.h"
#include "tests/support/scratch_dir.h"

namespace facet::test {
namespace {

// Renders Spot to dir/out.png with the given extra options; returns the result and the size.
CliResult render_spot(const ScratchDir& dir, const std::string& extra, int& w, int& h) {
  std::remove(dir.path("out.png").c_str());
  CliResult r = run_facet("render " + quote(spot_model()) + " -o " + quote(dir.path("out.png")) + " " + extra,
                          dir.path("config"));
  std::vector<Rgba8> rgba;
  w = h = 0;
  if (r.exit_code == 0) read_png(dir.path("out.png"), w, h, rgba);
  return r;
}

TEST(CliConfig, TheDefaultFileSetsACommandsOptions) {
  ScratchDir dir;
  dir.write("config/facet/facet.toml", "[render]\nsize = \"24x12\"\nbackend = \"cpu\"\n");
  int w, h;
  CliResult r = render_spot(dir, "", w, h);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(w, 24);
  EXPECT_EQ(h, 12);
}

TEST(CliConfig, TheCommandLineWinsOverTheFile) {
  ScratchDir dir;
  dir.write("config/facet/facet.toml", "[render]\nsize = \"24x12\"\nbackend = \"cpu\"\n");
  int w, h;
  CliResult r = render_spot(dir, "--size 10x8", w, h);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(w, 10);
  EXPECT_EQ(h, 8);
}

TEST(CliConfig, AnExplicitConfigFileIsRead) {
  ScratchDir dir;
  std::string file = dir.write("mine.toml", "[render]\nsize = \"14x6\"\nbackend = \"cpu\"\n");
  int w, h;
  CliResult r = render_spot(dir, "--config " + quote(file), w, h);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(w, 14);
  EXPECT_EQ(h, 6);
}

TEST(CliConfig, AMisspeltKeyInTheDefaultFileIsReportedOnceAndIgnored) {
  ScratchDir dir;
  std::string file = dir.write("config/facet/facet.toml", "[render]\nsise = \"24x12\"\n");
  int w, h;
  CliResult r = render_spot(dir, "--backend cpu --size 10x8", w, h);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(w, 10);
  size_t first = r.output.find(file);
  ASSERT_NE(first, std::string::npos) << r.output;
  EXPECT_EQ(r.output.find(file, first + 1), std::string::npos) << "reported more than once:\n" << r.output;
}

TEST(CliConfig, AnUnparsableDefaultFileIsIgnored) {
  ScratchDir dir;
  std::string file = dir.write("config/facet/facet.toml", std::string("\x01\x02[[[render\n= = =\n\xff\xfe", 16));
  int w, h;
  CliResult r = render_spot(dir, "--backend cpu --size 10x8", w, h);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(w, 10);
  EXPECT_NE(r.output.find(file), std::string::npos) << r.output;
}

TEST(CliConfig, AnUnusableValueInTheDefaultFileIsIgnored) {
  ScratchDir dir;
  dir.write("config/facet/facet.toml", "[render]\nbackend = \"opengl\"\n");
  int w, h;
  CliResult r = render_spot(dir, "--backend cpu --size 10x8", w, h);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  r = render_spot(dir, "--size 10x8", w, h);
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

TEST(CliConfig, AnExplicitConfigFileThatCannotBeReadIsAUsageErrorAndOneWithAMisspeltKeyAWarning) {
  ScratchDir dir;
  std::string file = dir.write("mine.toml", "[render]\nsise = \"24x12\"\n");
  int w, h;
  CliResult r = render_spot(dir, "--backend cpu --size 10x8 --config " + quote(file), w, h);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find(file + ":2: [render] 'sise' is not an option"), std::string::npos) << r.output;
  r = render_spot(dir, "--backend cpu --size 10x8 --config " + quote(dir.path("none.toml")), w, h);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(dir.path("none.toml")), std::string::npos) << r.output;
}

}  // namespace
}  // namespace facet::test
