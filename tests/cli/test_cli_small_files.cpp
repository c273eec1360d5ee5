// The small text files a user names: the defaults file (facet.toml or --config), --cameras and
// the viewer's viewer.json. A bad value in the defaults file is a warning naming the file, its
// line and key, and is ignored: the command goes on with the rest (exit 0), never naming an
// option the user did not type. A FIFO, a device, a folder or a gigabyte file where a small text
// file is expected is refused at once, naming the file; JSON nested 200,000 deep is refused
// naming the file and the byte, and never takes the viewer down.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>

#include "tests/cli/cli_run.h"
#include "tests/support/scratch_dir.h"

namespace facet::test {
namespace {

// Long enough for a render of Spot on a loaded machine; a read of /dev/zero never ends.
constexpr int kTimeoutS = 60;

// Renders Spot at 16x12 with `config` as the defaults file ($XDG_CONFIG_HOME/facet/facet.toml).
CliResult render_with_defaults(const ScratchDir& dir, const std::string& config, const std::string& options = "") {
  dir.write("config/facet/facet.toml", config);
  return run_facet(
      "render " + quote(spot_model()) + " -o " + quote(dir.path("out.png")) + " --backend cpu --size 16x12 " + options,
      dir.path("config"), kTimeoutS);
}

struct BadValue {
  const char* key;
  const char* value;  // as written in the file
};

TEST(DefaultsFile, ABadValueIsAWarningNamingTheFileLineAndKeyAndTheRenderGoesOn) {
  const BadValue bad[] = {
      {"fov-y", "nan"},      {"fov-y", "inf"},          {"fov-y", "\"-inf\""},   {"fov-y", "1e39"},   {"fov-y", "500"},
      {"focal-px", "nan"},   {"focal-px", "1e39"},      {"near", "nan"},         {"near", "inf"},     {"far", "nan"},
      {"far", "1e39"},       {"eye", "\"nan,0,0\""},    {"eye", "\"1e39,0,0\""}, {"up", "\"0,0,0\""}, {"ortho", "nan"},
      {"ortho", "\"1e39\""}, {"background", "\"1,2\""}, {"shading", "\"toon\""}, {"aa", "3"},
  };
  ScratchDir dir;
  const std::string file = dir.path("config/facet/facet.toml");
  for (const BadValue& b : bad) {
    CliResult r = render_with_defaults(dir, std::string("[render]\n") + b.key + " = " + b.value + "\n");
    EXPECT_EQ(r.exit_code, 0) << b.key << " = " << b.value << "\n" << r.output;
    EXPECT_NE(r.output.find(file + ":2: [render] '" + b.key + "'"), std::string::npos) << b.value << "\n" << r.output;
    EXPECT_EQ(r.output.find(std::string("--") + b.key + ":"), std::string::npos)
        << "names an option the user did not type:\n"
        << r.output;
  }
}

TEST(DefaultsFile, ASizeThatCannotBeParsedIsAWarningNotAnErrorAboutSize) {
  ScratchDir dir;
  dir.write("config/facet/facet.toml", "[render]\nsize = \"12by4\"\n");
  CliResult r =
      run_facet("render " + quote(spot_model()) + " -o " + quote(dir.path("out.png")) + " --backend cpu --aa 1",
                dir.path("config"), kTimeoutS);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("facet.toml:2: [render] 'size'"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("--size"), std::string::npos) << r.output;
}

TEST(DefaultsFile, TheRestOfTheFileStillCounts) {
  ScratchDir dir;
  dir.write("config/facet/facet.toml", "[render]\nfov-y = nan\nsize = \"24x12\"\nbogus = 1\n");
  CliResult r = run_facet("render " + quote(spot_model()) + " -o " + quote(dir.path("out.png")) + " --backend cpu",
                          dir.path("config"), kTimeoutS);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  read_png_of_size(dir.path("out.png"), 24, 12);
}

TEST(DefaultsFile, ValuesThatConflictInTheFileAreWarnedAndIgnored) {
  ScratchDir dir;
  CliResult r = render_with_defaults(dir, "[render]\nnear = 5\nfar = 1\n");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("near (line 2) and far (line 3)"), std::string::npos) << r.output;
  r = render_with_defaults(dir, "[render]\neye = \"1,2,3\"\ntarget = \"1,2,3\"\n");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("the same point"), std::string::npos) << r.output;
  r = render_with_defaults(dir, "[render]\nfov-y = 30\nfocal-px = 100\n");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find(":3: [render] 'focal-px' excludes"), std::string::npos) << r.output;
}

TEST(DefaultsFile, TheCommandLineWinsWithoutAWordAndItsOwnErrorsStayUsageErrors) {
  ScratchDir dir;
  CliResult r = render_with_defaults(dir, "[render]\nfov-y = 30\n", "--focal-px 20");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.find("warning"), std::string::npos) << r.output;
  r = render_with_defaults(dir, "[render]\nfov-y = 30\n", "--fov-y nan");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--fov-y: "), std::string::npos) << r.output;
}

// Values each fine alone that the frame (a focal length past 180 degrees at 12 pixels tall) or
// the model (a near plane beyond Spot's fitted far one) refuses: still the file's, so warnings.
TEST(DefaultsFile, AValueTheFrameOrTheModelRefusesIsAWarningNamingTheFileAndTheRenderGoesOn) {
  const BadValue bad[] = {{"focal-px", "0.001"}, {"near", "1e6"}};
  ScratchDir dir;
  const std::string file = dir.path("config/facet/facet.toml");
  for (const BadValue& b : bad) {
    std::filesystem::remove(dir.path("out.png"));
    CliResult r = render_with_defaults(dir, std::string("[render]\n") + b.key + " = " + b.value + "\n");
    EXPECT_EQ(r.exit_code, 0) << b.key << "\n" << r.output;
    EXPECT_NE(r.output.find("warning: " + file + ":2: [render] '" + b.key + "'"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("; ignored"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find(std::string("--") + b.key), std::string::npos) << "names an option the user did not type:\n"
                                                                           << r.output;
    read_png_of_size(dir.path("out.png"), 16, 12);
  }
}

TEST(DefaultsFile, TheSameValueTypedIsStillAUsageErrorNamingTheOption) {
  ScratchDir dir;
  for (const char* option : {"--focal-px 0.001", "--near 1e6"}) {
    CliResult r = render_with_defaults(dir, "[render]\naa = 1\n", option);
    EXPECT_EQ(r.exit_code, 2) << option << "\n" << r.output;
    EXPECT_NE(r.output.find(std::string(option).substr(0, std::string(option).find(' '))), std::string::npos)
        << r.output;
    EXPECT_EQ(r.output.find("facet.toml"), std::string::npos) << r.output;
  }
}

TEST(DefaultsFile, AnExplicitConfigFileWarnsAboutItsValuesToo) {
  ScratchDir dir;
  const std::string file = dir.write("mine.toml", "[render]\nfocal-px = nan\n");
  CliResult r = run_facet("render " + quote(spot_model()) + " -o " + quote(dir.path("out.png")) +
                              " --backend cpu --size 16x12 --config " + quote(file),
                          "", kTimeoutS);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find(file + ":2: [render] 'focal-px': must be a positive number"), std::string::npos) << r.output;
}

TEST(DefaultsFile, AMegabyteValueIsNotEchoedWhole) {
  ScratchDir dir;
  CliResult r = render_with_defaults(dir, "[render]\nshading = \"" + std::string(1000000, 'A') + "\"\n");
  EXPECT_EQ(r.exit_code, 0) << r.output.substr(0, 400);
  EXPECT_LT(r.output.size(), 4000u) << r.output.substr(0, 400);
  EXPECT_NE(r.output.find("(1000000 bytes)"), std::string::npos) << r.output.substr(0, 600);
}

TEST(DefaultsFile, ANulInAValueIsAWarningNotATruncatedPath) {
  ScratchDir dir;
  // Written as the escape and as the raw byte: either would cut the path where the system reads
  // it, and an EXR would land in d.npy.
  const std::string depth = dir.path("d.npy");
  for (const std::string nul : {std::string("\\u0000"), std::string(1, '\0')}) {
    CliResult r = render_with_defaults(dir, "[render]\ndepth = \"" + depth + nul + ".exr\"\n");
    EXPECT_EQ(r.exit_code, 0) << r.output.substr(0, 400);
    EXPECT_NE(r.output.find("facet.toml:2"), std::string::npos) << r.output.substr(0, 400);
    EXPECT_FALSE(std::filesystem::exists(depth)) << r.output.substr(0, 400);
  }
}

TEST(DefaultsFile, AFileOfManyBadLinesSaysSoInAScreenful) {
  ScratchDir dir;
  std::string text = "[render]\n";
  for (int i = 0; i < 20000; ++i) text += "bogus" + std::to_string(i) + " = 1\n";
  CliResult r = render_with_defaults(dir, text);
  EXPECT_EQ(r.exit_code, 0) << r.output.substr(0, 400);
  EXPECT_LT(r.output.size(), 4000u) << r.output.substr(0, 400);
  EXPECT_NE(r.output.find("more problems"), std::string::npos) << r.output;
}

// Files that are no small text file: a device, a FIFO, a folder, a 2 GB sparse file.
std::vector<std::string> unreadable_files(const ScratchDir& dir) {
  const std::string fifo = dir.path("fifo.txt"), folder = dir.path("folder.txt"), big = dir.path("big.txt");
  EXPECT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::filesystem::create_directories(folder);
  dir.write("big.txt", "");
  EXPECT_EQ(truncate(big.c_str(), int64_t(2) << 30), 0);
  return {"/dev/zero", fifo, folder, big};
}

TEST(SmallFiles, ConfigAndCamerasRefuseDevicesFifosFoldersAndGigabyteFilesAtOnceNamingThem) {
  ScratchDir dir;
  for (const std::string& path : unreadable_files(dir)) {
    const auto t0 = std::chrono::steady_clock::now();
    CliResult r = run_facet("render " + quote(spot_model()) + " -o " + quote(dir.path("o.png")) +
                                " --backend cpu --size 16x12 --config " + quote(path),
                            "", kTimeoutS);
    EXPECT_EQ(r.exit_code, 2) << path << "\n" << r.output;
    EXPECT_NE(r.output.find("--config " + path + ": "), std::string::npos) << r.output;
    r = run_facet("render " + quote(spot_model()) + " --backend cpu --size 16x12 --cameras " + quote(path), "",
                  kTimeoutS);
    EXPECT_EQ(r.exit_code, 1) << path << "\n" << r.output;
    EXPECT_NE(r.output.find(path + ": "), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("loaded "), std::string::npos) << "read the model first:\n" << r.output;
    if (std::filesystem::is_directory(path)) {
      EXPECT_NE(r.output.find(path + ": is a folder"), std::string::npos) << r.output;
    }
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(20)) << path;
  }
}

TEST(SmallFiles, ADefaultsFileThatIsAFifoOrFolderIsAWarningAndIgnored) {
  ScratchDir dir;
  std::filesystem::create_directories(dir.path("config/facet/facet.toml"));
  CliResult r =
      run_facet("render " + quote(spot_model()) + " -o " + quote(dir.path("o.png")) + " --backend cpu --size 16x12",
                dir.path("config"), kTimeoutS);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("facet.toml: is a folder"), std::string::npos) << r.output;
  std::filesystem::remove(dir.path("config/facet/facet.toml"));
  ASSERT_EQ(mkfifo(dir.path("config/facet/facet.toml").c_str(), 0600), 0);
  r = run_facet("render " + quote(spot_model()) + " -o " + quote(dir.path("o.png")) + " --backend cpu --size 16x12",
                dir.path("config"), kTimeoutS);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("facet.toml: is not a regular file"), std::string::npos) << r.output;
}

TEST(SmallFiles, DeepJsonInACamerasFileIsRefusedNamingTheFileAndByte) {
  ScratchDir dir;
  // Closed, so that a parser that recursed would build (and destroy) the whole tree.
  const std::string file = dir.write("deep.json", std::string(200000, '[') + std::string(200000, ']'));
  CliResult r = run_facet("render " + quote(spot_model()) + " --backend cpu --cameras " + quote(file), "", kTimeoutS);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find(file + ": JSON nested deeper than 256 levels (at byte 256)"), std::string::npos) << r.output;
}

TEST(SmallFiles, DeepOrBadViewerSettingsAreReportedAndTheViewerRunsOnDefaults) {
  ScratchDir dir;
  const std::string settings = dir.path("config/facet/viewer.json");
  const std::string view = "view " + quote(spot_model()) + " --offscreen --frames 1 --size 32x24 --backend cpu";
  for (const std::string& text :
       {std::string(200000, '[') + std::string(200000, ']'), std::string("{\"fov_y_deg\": 1e39}"),
        std::string("{\"window\": {\"x\": 1e30, \"y\": 0, \"width\": 9, \"height\": 9}}")}) {
    dir.write("config/facet/viewer.json", text);
    CliResult r = run_facet(view, dir.path("config"), kTimeoutS);
    if (r.output.find("EGL") != std::string::npos && r.exit_code != 0) GTEST_SKIP() << "no EGL here: " << r.output;
    EXPECT_EQ(r.exit_code, 0) << r.output.substr(0, 600);
    EXPECT_NE(r.output.find(settings + ": "), std::string::npos) << r.output.substr(0, 600);
    EXPECT_NE(r.output.find("--fov-y 45 "), std::string::npos) << "the defaults were not used:\n" << r.output;
  }
}

}  // namespace
}  // namespace facet::test
