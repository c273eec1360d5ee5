// `facet render` starts the renderer (the CUDA context) while the model loads: where no CUDA
// device exists, asking for CUDA is still refused with the device's reason, ahead of a model that
// cannot be loaded; a model that cannot be loaded is still named; and the automatic backend still
// falls back to the CPU, with the CPU backend's pixels. Where a device exists, the CUDA backend's
// closed-surface flag (decided on the GPU while the meshlets are built) is the CPU backend's, and so
// are its pixels.
#include <gtest/gtest.h>

#include <string>

#include "engine/render/renderer.h"
#include "tests/cli/cli_run.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/test_scenes.h"

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
  EXPECT_TRUE(
      same_pixels(read_png_of_size(dir.path("auto.png"), 40, 30), read_png_of_size(dir.path("cpu.png"), 40, 30)));
}

TEST(RenderStartup, TheCudaBackendFindsTheClosedSurfacesTheCpuFinds) {
  if (!has_cuda_device()) GTEST_SKIP() << "no CUDA device: nothing to compare";
  ScratchDir dir;
  const std::string bunny = shared_asset("bunny/stanford-bunny.obj");
  for (const std::string& model : {spot_model(), bunny}) {
    const std::string common = " --size 64x48 --no-cache -v -o ";
    CliResult g = run_facet("render " + quote(model) + common + quote(dir.path("cuda.png")) + " --backend cuda");
    CliResult c = run_facet("render " + quote(model) + common + quote(dir.path("cpu.png")) + " --backend cpu");
    ASSERT_EQ(g.exit_code, 0) << g.output;
    ASSERT_EQ(c.exit_code, 0) << c.output;
    const bool closed = model == spot_model();  // Spot is closed; the bunny's scan has holes
    EXPECT_EQ(g.output.find(", closed surface") != std::string::npos, closed) << g.output;
    EXPECT_EQ(c.output.find(", closed surface") != std::string::npos, closed) << c.output;
    EXPECT_TRUE(
        same_pixels(read_png_of_size(dir.path("cuda.png"), 64, 48), read_png_of_size(dir.path("cpu.png"), 64, 48)))
        << model;
  }
}

}  // namespace
}  // namespace facet::test
