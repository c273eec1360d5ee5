// One validator for every camera value (engine/render/camera_values.h), seen from the command
// line and from a cameras file: nan, infinities and numbers beyond single precision are refused
// where they were given, naming the option or the file's entry and key, before the model is read;
// a cameras file accepts exactly what the same option accepts; a conflict among the command
// line's own values is blamed on the options, never on a cameras file.
#include <gtest/gtest.h>

#include "tests/cli/cli_run.h"
#include "tests/support/scratch_dir.h"

namespace facet::test {
namespace {

const std::string kCommon = " --backend cpu --size 16x12";

CliResult render(const ScratchDir& dir, const std::string& options) {
  return run_facet("render " + quote(spot_model()) + " -o " + quote(dir.path("out.png")) + kCommon + " " + options);
}

// The model is loaded only once every value passed: the load's line says it was.
bool loaded(const CliResult& r) { return r.output.find("loaded ") != std::string::npos; }

struct BadValue {
  const char* option;
  const char* value;
};

TEST(CliValues, ANumberThatIsNotFiniteOrOutOfRangeIsAUsageErrorNamingItsOptionBeforeTheLoad) {
  const BadValue bad[] = {
      {"--fov-y", "nan"},        {"--fov-y", "inf"},    {"--fov-y", "-inf"},     {"--fov-y", "1e39"},
      {"--fov-y", "179.5"},      {"--fov-y", "0"},      {"--focal-px", "nan"},   {"--focal-px", "inf"},
      {"--focal-px", "1e39"},    {"--focal-px", "0"},   {"--focal-px", "-5"},    {"--near", "nan"},
      {"--near", "inf"},         {"--near", "-inf"},    {"--near", "1e39"},      {"--far", "nan"},
      {"--far", "inf"},          {"--far", "1e39"},     {"--far", "0"},          {"--eye", "nan,0,0"},
      {"--eye", "0,inf,0"},      {"--eye", "0,0,1e39"}, {"--target", "nan,0,0"}, {"--up", "0,nan,0"},
      {"--view-dir", "inf,0,0"}, {"--ortho", "nan"},    {"--ortho", "inf"},      {"--ortho", "1e39"},
      {"--ortho", "0"},          {"--fov-y", "wide"},   {"--eye", "1,2"},
  };
  ScratchDir dir;
  for (const BadValue& b : bad) {
    CliResult r = render(dir, std::string(b.option) + " " + b.value);
    EXPECT_EQ(r.exit_code, 2) << b.option << " " << b.value << "\n" << r.output;
    EXPECT_NE(r.output.find(std::string(b.option) + ": "), std::string::npos) << b.value << "\n" << r.output;
    EXPECT_FALSE(loaded(r)) << b.option << " " << b.value << ": refused only after the load\n" << r.output;
  }
}

TEST(CliValues, ANumberBeyondSinglePrecisionIsSaidToBe) {
  ScratchDir dir;
  CliResult r = render(dir, "--focal-px 1e39");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("beyond single precision"), std::string::npos) << r.output;
}

TEST(CliValues, AZeroUpVectorIsCalledZeroAndAnUpAlongTheViewParallel) {
  ScratchDir dir;
  CliResult zero = render(dir, "--up 0,0,0");
  EXPECT_EQ(zero.exit_code, 2) << zero.output;
  EXPECT_NE(zero.output.find("--up: is the zero vector"), std::string::npos) << zero.output;
  EXPECT_EQ(zero.output.find("parallel"), std::string::npos) << zero.output;
  CliResult along = render(dir, "--eye 0,5,0 --target 0,0,0 --up 0,1,0");
  EXPECT_EQ(along.exit_code, 2) << along.output;
  EXPECT_NE(along.output.find("--up: 0,1,0 is parallel to the viewing direction"), std::string::npos) << along.output;
  EXPECT_FALSE(loaded(along)) << along.output;
}

TEST(CliValues, ConflictingValuesAreAUsageErrorNamingBothOptionsBeforeTheLoad) {
  ScratchDir dir;
  for (const char* options : {"--near 5 --far 1", "--near 2 --far 2", "--eye 1,2,3 --target 1,2,3", "--near -1"}) {
    CliResult r = render(dir, options);
    EXPECT_EQ(r.exit_code, 2) << options << "\n" << r.output;
    EXPECT_FALSE(loaded(r)) << options << "\n" << r.output;
    EXPECT_NE(r.output.find(std::string(options).substr(0, 6)), std::string::npos) << options << "\n" << r.output;
  }
  // Orthographic, the near plane may lie behind the eye.
  EXPECT_EQ(render(dir, "--near -1 --ortho fit").exit_code, 0);
}

TEST(CliValues, AFocalLengthThatGivesNoFieldOfViewIsRefusedBeforeTheLoad) {
  ScratchDir dir;
  CliResult r = render(dir, "--focal-px 1e-30");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--focal-px 1e-30: gives a field of view of 180 degrees"), std::string::npos) << r.output;
  EXPECT_FALSE(loaded(r)) << r.output;
}

TEST(CliValues, AHugeValueIsNotEchoedWhole) {
  ScratchDir dir;
  const std::string huge(100000, '7');
  for (const std::string& option : {"--size " + huge + "x", "--fov-y " + huge + "z", "--background " + huge}) {
    CliResult r = render(dir, option);
    EXPECT_EQ(r.exit_code, 2) << r.output.substr(0, 400);
    EXPECT_LT(r.output.size(), 2000u) << r.output.substr(0, 400);
  }
}

// --cameras FILE with one camera whose `key` is `value` (JSON); the result.
CliResult render_camera_key(const ScratchDir& dir, const std::string& key, const std::string& value,
                            const std::string& options = "") {
  const std::string file =
      dir.write("cams.json", R"([{"eye": [2, 1, 2], "target": [0, 0, 0], "output": ")" + dir.path("a.png") +
                                 R"("}, {"eye": [2, 1, 2], "target": [0, 0, 0], ")" + key + "\": " + value +
                                 R"(, "output": ")" + dir.path("b.png") + R"("}])");
  return run_facet("render " + quote(spot_model()) + " --cameras " + quote(file) + kCommon + " " + options);
}

TEST(CliValues, ACamerasFileRefusesTheSameValuesNamingTheFileTheEntryAndTheKey) {
  const BadValue bad[] = {
      {"fov_y", "1e39"},           {"fov_y", "179.5"},     {"fov_y", "0"},          {"fov_y", "\"nan\""},
      {"focal_px", "1e39"},        {"focal_px", "0"},      {"focal_px", "1e-30"},   {"ortho_height", "1e39"},
      {"ortho_height", "\"nan\""}, {"ortho_height", "-1"}, {"eye", "[1e39, 0, 0]"}, {"target", "[0, 1e39, 0]"},
      {"up", "[0, 0, 1e39]"},      {"up", "[0, 0, 0]"},
  };
  ScratchDir dir;
  for (const BadValue& b : bad) {
    CliResult r = render_camera_key(dir, b.option, b.value);
    EXPECT_EQ(r.exit_code, 1) << b.option << " " << b.value << "\n" << r.output;
    const std::string where = dir.path("cams.json") + ": camera 1: \"" + b.option + "\"";
    EXPECT_NE(r.output.find(where), std::string::npos) << b.value << "\n" << r.output;
    EXPECT_FALSE(loaded(r)) << b.option << " " << b.value << ": refused only after the load\n" << r.output;
  }
}

TEST(CliValues, ACamerasFileAcceptsExactlyWhatTheOptionAccepts) {
  ScratchDir dir;
  for (const char* fov : {"0.005", "0.01", "1", "90", "179", "179.0001", "179.5", "180"}) {
    const bool option = render(dir, std::string("--fov-y ") + fov).exit_code == 0;
    const bool file = render_camera_key(dir, "fov_y", fov).exit_code == 0;
    EXPECT_EQ(file, option) << "fov " << fov;
  }
  for (const char* focal : {"1e-30", "0.001", "1", "5000", "3.4e38", "1e39"}) {
    const bool option = render(dir, std::string("--focal-px ") + focal).exit_code == 0;
    const bool file = render_camera_key(dir, "focal_px", focal).exit_code == 0;
    EXPECT_EQ(file, option) << "focal " << focal;
  }
}

TEST(CliValues, ACamerasFileUpIsCalledZeroOrParallelAsTheOptions) {
  ScratchDir dir;
  CliResult zero = render_camera_key(dir, "up", "[0, 0, 0]");
  EXPECT_NE(zero.output.find("\"up\": is the zero vector"), std::string::npos) << zero.output;
  CliResult along = render_camera_key(dir, "up", "[2, 1, 2]");
  EXPECT_NE(along.output.find("\"up\": 2,1,2 is parallel to the viewing direction"), std::string::npos) << along.output;
}

TEST(CliValues, TheCommandLinesOwnNearAndFarAreBlamedOnTheOptionsNotOnTheCamerasFile) {
  ScratchDir dir;
  for (const char* options : {"--near 5 --far 1", "--near -1"}) {
    CliResult r = render_camera_key(dir, "fov_y", "40", options);
    EXPECT_EQ(r.exit_code, 2) << options << "\n" << r.output;
    EXPECT_NE(r.output.find("--near"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("camera 0"), std::string::npos) << "blamed on the file:\n" << r.output;
    EXPECT_EQ(r.output.find("camera 1"), std::string::npos) << "blamed on the file:\n" << r.output;
  }
  // --near -1 suits an orthographic entry, which may put its near plane behind the eye.
  EXPECT_EQ(render_camera_key(dir, "ortho_height", "\"fit\"", "--near -1 --ortho fit").exit_code, 0);
}

}  // namespace
}  // namespace facet::test
