// `facet bench`: one measuring loop for every backend (the camera orbits on the CPU as on CUDA),
// and --json written by a JSON library (names with quotes stay valid JSON).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "app/bench_measure.h"
#include "tests/cli/cli_run.h"
#include "tests/support/scratch_dir.h"

namespace facet::test {
namespace {

// A renderer that draws nothing and remembers the eye of every frame it was asked to draw.
class RecordingRenderer : public Renderer {
 public:
  std::vector<glm::vec3> eyes;
  const char* name() const override { return "cpu"; }
  BackendCapabilities capabilities() const override { return {}; }
  void set_scene(std::shared_ptr<const Scene>) override {}
  void render(const Camera& camera, const RenderOptions&, int, int, const FrameTarget&) override {
    eyes.push_back(camera.eye);
  }
  void render(const FrameParams& fp, const FrameTarget&) override { eyes.push_back({fp.eye.x, fp.eye.y, fp.eye.z}); }
  void read_rgba(std::vector<Rgba8>&) override {}
  void read_triangle_ids(std::vector<uint32_t>&) override {}
  FrameStats stats() const override { return {}; }
};

// The angle of the eye about +Y around `centre`, degrees.
float eye_angle(const glm::vec3& eye, const Vec3& centre) {
  return glm::degrees(std::atan2(eye.x - centre.x, eye.z - centre.z));
}

TEST(BenchMeasure, EveryFrameOfABackendWithoutCudaTurnsByTheOrbitAngle) {
  RecordingRenderer renderer;
  Bounds bounds;
  bounds.center = {1, 2, 3};
  bounds.radius = 1;
  Camera cam;
  cam.target = {1, 2, 3};
  cam.eye = {1, 2, 13};
  MeasureParams p;
  p.width = p.height = 8;
  p.warmup = 2;
  p.frames = 3;
  p.orbit_deg = 10.0f;
  measure_frames(renderer, cam, bounds, p);
  ASSERT_EQ(renderer.eyes.size(), 5u);
  for (size_t i = 0; i < renderer.eyes.size(); ++i) {
    const glm::vec3& eye = renderer.eyes[i];
    EXPECT_NEAR(eye_angle(eye, bounds.center), 10.0f * (float)i, 1e-3f) << "frame " << i;
    EXPECT_NEAR(glm::length(eye - cam.target), 10.0f, 1e-4f) << "frame " << i;
    EXPECT_NEAR(eye.y, cam.eye.y, 1e-5f) << "turned about the vertical axis: frame " << i;
  }
}

TEST(BenchMeasure, WithoutAnOrbitEveryFrameHasTheSameCamera) {
  RecordingRenderer renderer;
  Bounds bounds;
  Camera cam;
  cam.eye = {0, 0, 5};
  MeasureParams p;
  p.width = p.height = 8;
  p.warmup = 1;
  p.frames = 2;
  measure_frames(renderer, cam, bounds, p);
  ASSERT_EQ(renderer.eyes.size(), 3u);
  for (const glm::vec3& eye : renderer.eyes) EXPECT_EQ(eye, cam.eye);
}

TEST(BenchCli, TheCpuBenchMovesItsCameraWithOrbit) {
  // Spot from the front and from the side covers different triangles: the last frame's count
  // differs only if the camera moved (5 warm-up frames + 1 timed, 18 degrees a frame: 90).
  ScratchDir dir;
  auto drawn = [&](const char* orbit) {
    std::string json = dir.path(std::string("orbit") + orbit + ".json");
    CliResult r = run_facet("bench --backend cpu --no-gl --frames 1 --sizes 64x48 --orbit " + std::string(orbit) +
                            " --json " + quote(json) + " " + quote(spot_model()));
    EXPECT_EQ(r.exit_code, 0) << r.output;
    std::ifstream f(json);
    nlohmann::json js = nlohmann::json::parse(f, nullptr, false);
    return js.is_discarded() ? -1 : js["scenes"][0]["drawn"].get<int>();
  };
  int still = drawn("0"), turned = drawn("18");
  EXPECT_GT(still, 0);
  EXPECT_GT(turned, 0);
  EXPECT_NE(still, turned);
}

TEST(BenchCli, JsonStaysValidWhenTheSceneNameHasAQuote) {
  ScratchDir dir;
  std::string model = dir.write("tri\"angle\\.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
  std::string json = dir.path("out\".json");
  CliResult r =
      run_facet("bench --backend cpu --no-gl --frames 1 --sizes 16x16 --json " + quote(json) + " " + quote(model));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream f(json);
  ASSERT_TRUE(f) << json;
  nlohmann::json js = nlohmann::json::parse(f, nullptr, false);
  ASSERT_FALSE(js.is_discarded()) << "not valid JSON";
  EXPECT_EQ(js["backend"], "cpu");
  ASSERT_EQ(js["scenes"].size(), 1u);
  EXPECT_EQ(js["scenes"][0]["scene"], model);
  EXPECT_EQ(js["scenes"][0]["triangles"], 1);
}

}  // namespace
}  // namespace facet::test
