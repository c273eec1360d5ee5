// `facet --version`, `--help`, and the exit codes: 0 success, 1 a failure doing the work, 2 a
// usage error, the same in every command.
#include <gtest/gtest.h>

#include "tests/cli/cli_run.h"
#include "tests/support/scratch_dir.h"

namespace facet::test {
namespace {

TEST(CliVersion, PrintsTheProjectVersionAndExitsZero) {
  CliResult r = run_facet("--version");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.rfind(FACET_PROJECT_VERSION, 0), 0u) << r.output;
}

TEST(CliVersion, IsShownInTheHelp) {
  CliResult r = run_facet("--help");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find(std::string("facet ") + FACET_PROJECT_VERSION), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--version"), std::string::npos) << r.output;
}

TEST(CliExitCodes, AnUnknownOptionIsAUsageError) {
  EXPECT_EQ(run_facet("render " + quote(spot_model()) + " -o x.png --no-such-option").exit_code, 2);
  EXPECT_EQ(run_facet("bench --no-such-option").exit_code, 2);
  EXPECT_EQ(run_facet("--no-such-option").exit_code, 2);
}

TEST(CliExitCodes, AMissingRequiredArgumentIsAUsageError) {
  CliResult r = run_facet("render -o x.png");
  EXPECT_EQ(r.exit_code, 2) << r.output;
}

TEST(CliExitCodes, AMalformedSizeIsAUsageErrorInEveryCommand) {
  ScratchDir dir;
  EXPECT_EQ(run_facet("render " + quote(spot_model()) + " -o " + quote(dir.path("a.png")) + " --size 0x5").exit_code,
            2);
  EXPECT_EQ(run_facet("bench --no-gl --backend cpu --sizes 12by4 sphere-2K").exit_code, 2);
  EXPECT_EQ(run_facet("view --size 12by4").exit_code, 2);
}

TEST(CliExitCodes, AMalformedColourIsAUsageErrorInRenderAndView) {
  ScratchDir dir;
  EXPECT_EQ(run_facet("render " + quote(spot_model()) + " -o " + quote(dir.path("a.png")) +
                      " --backend cpu --size 8x8 --background 300,0,0")
                .exit_code,
            2);
  EXPECT_EQ(run_facet("view --background 300,0,0").exit_code, 2);
}

TEST(CliExitCodes, AnUnusableCameraIsAUsageError) {
  ScratchDir dir;
  CliResult r = run_facet("render " + quote(spot_model()) + " -o " + quote(dir.path("a.png")) +
                          " --backend cpu --size 16x16 --eye 0,1,0 --target 0,0,0 --up 0,1,0");
  EXPECT_EQ(r.exit_code, 2) << r.output;
}

TEST(CliExitCodes, AModelThatCannotBeLoadedIsAFailure) {
  ScratchDir dir;
  CliResult r = run_facet("render " + quote(dir.path("missing.obj")) + " -o " + quote(dir.path("a.png")) +
                          " --backend cpu --size 16x16");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("missing.obj"), std::string::npos) << r.output;
  EXPECT_EQ(run_facet("bench --no-gl --backend cpu --sizes 8x8 " + quote(dir.path("missing.obj"))).exit_code, 1);
}

TEST(CliExitCodes, AnOutputThatCannotBeWrittenIsAFailure) {
  ScratchDir dir;
  CliResult r = run_facet("render " + quote(spot_model()) + " -o " + quote(dir.path("no/such/dir/a.png")) +
                          " --backend cpu --size 16x16");
  EXPECT_EQ(r.exit_code, 1) << r.output;
}

TEST(CliExitCodes, ASuccessfulRenderExitsZero) {
  ScratchDir dir;
  CliResult r =
      run_facet("render " + quote(spot_model()) + " -o " + quote(dir.path("a.png")) + " --backend cpu --size 16x16");
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

}  // namespace
}  // namespace facet::test
