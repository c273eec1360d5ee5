// `facet render` starts the renderer (the CUDA context) while the model loads: where no CUDA
// device exists, asking for CUDA is still refused with the device's reason, ahead of a model that
// cannot be loaded; a model that cannot be loaded is still named; and the automatic backend still
// falls back to the CPU, with the CPU backend's pixels.
#include <gtest/gtest.h>

#include <string>

#include "engine/renderer.h"
#include "tests/cli/cli_run.h"
#include "tests/support/scratch_dir.h"

namespace facet::test {
namespace {

bool has_cuda_device() { return cuda_available(nullptr); }

TEST(RenderStartup, NoCudaDeviceIsReportedAheadOfAModelThatCannotBeLoaded) {
  if (has_cuda_device()) GTEST_SKIP() << "a CUDA device exists: the backend is not refused";
  ScratchDir dir;
  CliResult r = run_facet("render " + quote(dir.path("missing.obj")) + " -o " + quote(dir.path("out.png")) +
                          " --backend cuda --no-cache");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("CUDA backend unavailable: "), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("missing.obj"), std::string::npos) << r.output;
}

TEST(RenderStartup, AModelThatCannotBeLoadedIsNamedWhateverTheBackend) {
  ScratchDir dir;
  CliResult r = run_facet("render " + quote(dir.path("missing.obj")) + " -o " + quote(dir.path("out.png")) +
                          " --backend auto --no-cache");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("missing.obj"), std::string::npos) << r.output;
}

TEST(RenderStartup, AutomaticBackendWithoutADeviceDrawsTheCpuBackendsPixels) {
  if (has_cuda_device()) GTEST_SKIP() << "a CUDA device exists: auto picks CUDA";
  ScratchDir dir;
  const std::string common = " --size 40x30 --no-cache -o ";
  CliResult a = run_facet("render " + quote(spot_model()) + common + quote(dir.path("auto.png")) + " --backend auto");
  CliResult c = run_facet("render " + quote(spot_model()) + common + quote(dir.path("cpu.png")) + " --backend cpu");
  ASSERT_EQ(a.exit_code, 0) << a.output;
  ASSERT_EQ(c.exit_code, 0) << c.output;
  EXPECT_TRUE(same_pixels(read_png_of_size(dir.path("auto.png"), 40, 30), read_png_of_size(dir.path("cpu.png"), 40, 30)));
}

}  // namespace
}  // namespace facet::test
