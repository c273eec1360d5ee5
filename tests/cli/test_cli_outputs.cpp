// Outputs that never lie and never destroy an input: an output naming a file the run reads (the
// model, its MTL or texture, under any name; the cameras file; the defaults file) is a usage
// error, exit 2, before anything is written, and the input keeps every byte; an output that cannot
// be written (a full disk: /dev/full; a file-size limit reached mid-file) exits 1 naming the path
// and the reason, and leaves the previous file as it was and no temporary file behind.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include "engine/render/image_io.h"
#include "tests/cli/cli_run.h"
#include "tests/support/scratch_dir.h"

namespace facet::test {
namespace {

namespace fs = std::filesystem;

const std::string kRender = " --backend cpu --size 32x24 --no-cache";
const std::string kBench = " --backend cpu --no-gl --no-vertices --frames 1 --sizes 16x16";

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::vector<std::string> names_in(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A square with a noisy texture, in a folder of its own: model.obj, model.mtl, tex.png. The
// noise keeps a frame's PNG from compressing to almost nothing.
struct Model {
  ScratchDir dir;
  std::string obj, mtl, tex;
  std::string obj_bytes, mtl_bytes, tex_bytes;  // as written, to compare with afterwards

  Model() {
    obj = dir.write("model.obj",
                    "mtllib model.mtl\nv -1 -1 0\nv 1 -1 0\nv 1 1 0\nv -1 1 0\n"
                    "vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nusemtl skin\nf 1/1 2/2 3/3 4/4\n");
    mtl = dir.write("model.mtl", "newmtl skin\nKd 1 1 1\nmap_Kd tex.png\n");
    tex = dir.path("tex.png");
    std::mt19937 random(3);
    std::vector<Rgba8> texels(64 * 64);
    for (Rgba8& t : texels) t = Rgba8{(uint8_t)random(), (uint8_t)random(), (uint8_t)random(), 255};
    write_png(tex, 64, 64, texels);
    obj_bytes = bytes_of(obj);
    mtl_bytes = bytes_of(mtl);
    tex_bytes = bytes_of(tex);
  }
  // Every input keeps every byte.
  void expect_untouched() const {
    EXPECT_EQ(bytes_of(obj), obj_bytes) << "the model was changed";
    EXPECT_EQ(bytes_of(mtl), mtl_bytes) << "the MTL was changed";
    EXPECT_EQ(bytes_of(tex), tex_bytes) << "the texture was changed";
  }
  CliResult render(const std::string& options, const std::string& config_home = "") const {
    return run_facet("render " + quote(obj) + kRender + " " + options, config_home);
  }
};

// `facet ARGS` as run_facet runs it, with files limited to `bytes` (RLIMIT_FSIZE through the
// shell's ulimit, in its 512-byte blocks) and SIGXFSZ ignored: a write past the limit fails
// with EFBIG, as one on a full disk fails with ENOSPC.
CliResult run_facet_with_file_limit(const std::string& args, int blocks) {
  const std::string cmd = "trap '' XFSZ; ulimit -f " + std::to_string(blocks) +
                          " && XDG_CONFIG_HOME=/nonexistent/facet-test-home HOME=/nonexistent/facet-test-home " +
                          quote(FACET_EXE) + " " + args + " 2>&1";
  CliResult r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) {
    ADD_FAILURE() << "cannot run " << cmd;
    return r;
  }
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) r.output.append(buf, n);
  const int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// ---- Inputs are never written over ----

TEST(OutputsSpareInputs, MinusONamingTheModelIsAUsageErrorAndTheModelKeepsEveryByte) {
  Model m;
  CliResult r = m.render("-o " + quote(m.obj));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "facet render: -o " + m.obj + " is the model being rendered (" + m.obj + ")"))
      << r.output;
  m.expect_untouched();
}

TEST(OutputsSpareInputs, MinusONamingAHardLinkOfTheModelIsAUsageError) {
  Model m;
  fs::create_hard_link(m.obj, m.dir.path("alias.png"));
  CliResult r = m.render("-o " + quote(m.dir.path("alias.png")));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "is the model being rendered")) << r.output;
  m.expect_untouched();
}

TEST(OutputsSpareInputs, MinusONamingTheMtlOrTheTextureIsAUsageError) {
  Model m;
  CliResult mtl = m.render("-o " + quote(m.mtl));
  EXPECT_EQ(mtl.exit_code, 2) << mtl.output;
  EXPECT_TRUE(contains(mtl.output, "-o " + m.mtl + " is a material library of the model")) << mtl.output;
  CliResult tex = m.render("-o " + quote(m.tex));
  EXPECT_EQ(tex.exit_code, 2) << tex.output;
  EXPECT_TRUE(contains(tex.output, "-o " + m.tex + " is a texture of the model")) << tex.output;
  m.expect_untouched();
}

TEST(OutputsSpareInputs, DepthNamingTheModelThroughASymbolicLinkIsAUsageError) {
  Model m;
  fs::create_symlink(m.obj, m.dir.path("depth.npy"));
  CliResult r = m.render("-o " + quote(m.dir.path("out.png")) + " --depth " + quote(m.dir.path("depth.npy")));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "--depth " + m.dir.path("depth.npy") + " is the model being rendered")) << r.output;
  EXPECT_FALSE(fs::exists(m.dir.path("out.png"))) << "nothing is written before the check";
  m.expect_untouched();
}

TEST(OutputsSpareInputs, DepthOrIdsNamingTheMtlOrTheTextureIsAUsageError) {
  Model m;
  fs::create_hard_link(m.mtl, m.dir.path("mtl.npy"));
  fs::create_hard_link(m.tex, m.dir.path("tex.npy"));
  const std::string out = " -o " + quote(m.dir.path("out.png"));
  CliResult ids = m.render(out + " --ids " + quote(m.dir.path("mtl.npy")));
  EXPECT_EQ(ids.exit_code, 2) << ids.output;
  EXPECT_TRUE(contains(ids.output, "--ids " + m.dir.path("mtl.npy") + " is a material library of the model"))
      << ids.output;
  CliResult depth = m.render(out + " --depth " + quote(m.dir.path("tex.npy")));
  EXPECT_EQ(depth.exit_code, 2) << depth.output;
  EXPECT_TRUE(contains(depth.output, "--depth " + m.dir.path("tex.npy") + " is a texture of the model"))
      << depth.output;
  EXPECT_FALSE(fs::exists(m.dir.path("out.png"))) << "nothing is written before the check";
  m.expect_untouched();
}

TEST(OutputsSpareInputs, ACamerasFileOutputNamingTheCamerasFileIsAUsageError) {
  Model m;
  const std::string cams = m.dir.path("cams.json");
  m.dir.write("cams.json", R"([{"eye": [0, 0, 3], "target": [0, 0, 0], "output": ")" + cams + R"("}])");
  const std::string before = bytes_of(cams);
  CliResult r = m.render("--cameras " + quote(cams));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "the cameras file's output " + cams + " is the cameras file")) << r.output;
  EXPECT_EQ(bytes_of(cams), before);
  m.expect_untouched();
}

TEST(OutputsSpareInputs, MinusONamingTheDefaultsFileIsAUsageError) {
  Model m;
  const std::string toml = m.dir.write("config/facet/facet.toml", "[render]\naa = 1\n");
  CliResult r = m.render("-o " + quote(toml), m.dir.path("config"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "-o " + toml + " is the defaults file")) << r.output;
  EXPECT_EQ(bytes_of(toml), "[render]\naa = 1\n");
  const std::string given = m.dir.write("given.toml", "[render]\naa = 1\n");
  CliResult explicit_file = m.render("--config " + quote(given) + " -o " + quote(given));
  EXPECT_EQ(explicit_file.exit_code, 2) << explicit_file.output;
  EXPECT_TRUE(contains(explicit_file.output, "-o " + given + " is the defaults file")) << explicit_file.output;
  EXPECT_EQ(bytes_of(given), "[render]\naa = 1\n");
}

TEST(OutputsSpareInputs, BenchJsonNamingTheModelIsAUsageErrorBeforeAnythingIsRead) {
  Model m;
  CliResult r = run_facet("bench " + quote(m.obj) + " --json " + quote(m.obj) + kBench);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "facet bench: --json " + m.obj + " is the model being measured")) << r.output;
  m.expect_untouched();
}

TEST(OutputsSpareInputs, BenchJsonNamingTheTextureIsAUsageError) {
  Model m;
  CliResult r = run_facet("bench " + quote(m.obj) + " --json " + quote(m.tex) + kBench);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_TRUE(contains(r.output, "--json " + m.tex + " is a texture of the model")) << r.output;
  m.expect_untouched();
}

// ---- Outputs that cannot be written fail, and leave nothing half-written ----

TEST(OutputsFailLoudly, AFullDiskIsExitOneNamingThePathAndTheReason) {
  Model m;
  CliResult r = m.render("-o /dev/full");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(contains(r.output, "facet render: /dev/full: cannot write: " + std::string(std::strerror(ENOSPC))))
      << r.output;
  EXPECT_FALSE(contains(r.output, "rendered 32x24")) << "no success is reported";
}

TEST(OutputsFailLoudly, DepthOnAFullDiskIsExitOneNamingThePathAndTheReason) {
  Model m;
  fs::create_symlink("/dev/full", m.dir.path("full.npy"));
  CliResult r = m.render("-o " + quote(m.dir.path("out.png")) + " --depth " + quote(m.dir.path("full.npy")));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(contains(r.output, m.dir.path("full.npy") + ": cannot write: " + std::strerror(ENOSPC))) << r.output;
}

TEST(OutputsFailLoudly, ExrDepthOnAFullDiskIsExitOneNamingThePathAndTheReason) {
  Model m;
  fs::create_symlink("/dev/full", m.dir.path("full.exr"));
  CliResult r = m.render("-o " + quote(m.dir.path("out.png")) + " --depth " + quote(m.dir.path("full.exr")));
  if (contains(r.output, "without tinyexr")) GTEST_SKIP() << r.output;
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(contains(r.output, m.dir.path("full.exr") + ": cannot write: " + std::strerror(ENOSPC))) << r.output;
}

TEST(OutputsFailLoudly, AnUnwritableIdsPathNamesTheReason) {
  Model m;
  CliResult r = m.render("-o " + quote(m.dir.path("out.png")) + " --ids /dev/full/ids.npy");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(contains(r.output, "/dev/full/ids.npy: cannot write: " + std::string(std::strerror(ENOTDIR))))
      << r.output;
}

TEST(OutputsFailLoudly, AWriteThatFailsMidFileKeepsThePreviousFileAndLeavesNothingElse) {
  Model m;
  const std::string out = m.dir.write("out/frame.png", "the previous frame");
  // 2 blocks (1 KiB): a 128 x 96 frame of the noisy texture is tens of KiB.
  CliResult r = run_facet_with_file_limit(
      "render " + quote(m.obj) + " --backend cpu --size 128x96 --no-cache -o " + quote(out), 2);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(contains(r.output, out + ": cannot write: " + std::strerror(EFBIG))) << r.output;
  EXPECT_EQ(bytes_of(out), "the previous frame");
  EXPECT_EQ(names_in(m.dir.path("out")), std::vector<std::string>{"frame.png"}) << "no temporary file is left";
}

TEST(OutputsFailLoudly, ATurntableWhoseSecondFrameCannotBeWrittenKeepsTheFirstAndStops) {
  Model m;
  fs::create_directories(m.dir.path("t"));
  fs::create_symlink("/dev/full", m.dir.path("t/f_01.png"));
  CliResult r = m.render("--turntable 3 -o " + quote(m.dir.path("t/f_%02d.png")));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(contains(r.output, m.dir.path("t/f_01.png") + ": cannot write: " + std::strerror(ENOSPC))) << r.output;
  read_png_of_size(m.dir.path("t/f_00.png"), 32, 24);
  EXPECT_EQ(names_in(m.dir.path("t")), (std::vector<std::string>{"f_00.png", "f_01.png"}))
      << "frame 2 is not drawn after the failure, and no temporary file is left";
}

TEST(OutputsFailLoudly, AScriptedViewerScreenshotThatCannotBeWrittenIsExitOne) {
  Model m;
  CliResult r = run_facet("view " + quote(m.obj) +
                          " --offscreen --frames 1 --size 32x24 --no-cache --screenshot /dev/full --backend cpu");
  if (contains(r.output, "no viewer") || contains(r.output, "EGL")) GTEST_SKIP() << r.output;
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(contains(r.output, "/dev/full: cannot write: " + std::string(std::strerror(ENOSPC)))) << r.output;
}

TEST(OutputsSpareInputs, AScriptedViewerScreenshotNamingTheModelIsRefused) {
  Model m;
  CliResult r = run_facet("view " + quote(m.obj) + " --offscreen --frames 1 --size 32x24 --no-cache --screenshot " +
                          quote(m.obj) + " --backend cpu");
  if (contains(r.output, "no viewer") || contains(r.output, "EGL")) GTEST_SKIP() << r.output;
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(contains(r.output, "the screenshot " + m.obj + " is the model being shown")) << r.output;
  m.expect_untouched();
}

}  // namespace
}  // namespace facet::test
