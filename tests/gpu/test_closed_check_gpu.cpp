// The closed-surface check on the device (engine/cuda/device_closed_check.h) gives closed_outward's
// answer on every mesh the CPU tests judge (holes, turned and inside-out pieces, many pieces over
// several blocks of the volume sums, non-finite and missing corners, repeated positions, -0 and
// +0), on the shared models and every edge-case model that loads, and on four tiled dragons; the
// CUDA renderer answers for the scene it was sent ahead and for no other. Skips, saying why, where
// no CUDA device exists.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "engine/cuda/cuda_renderer.h"
#include "engine/cuda/device_closed_check.h"
#include "engine/load/load_model.h"
#include "engine/scene/closed_surface.h"
#include "engine/scene/generate.h"
#include "kernels/prepare/closed_math.h"
#include "tests/support/device_mesh.h"
#include "tests/support/gpu_skip.h"
#include "tests/support/scene_edits.h"
#include "tests/support/test_scenes.h"

using namespace facet;

namespace {

class ClosedCheckGpu : public ::testing::Test {
 protected:
  void SetUp() override { FACET_SKIP_WITHOUT_CUDA(); }
};

// The device's answer for the scene's positions and indices, uploaded here.
bool on_device(const Scene& s) {
  const test::DeviceMesh mesh(s);
  return closed_outward_on_device(mesh.vertices.data(), (uint32_t)s.positions.size(), mesh.indices.data(),
                                  s.indices.size() / 3, compute_bounds(s.positions).center);
}

// Both answers, and the expected one.
void expect_both(const Scene& s, bool expected, const std::string& label) {
  EXPECT_EQ(closed_outward(s.positions, s.indices), expected) << label << " (CPU)";
  EXPECT_EQ(on_device(s), expected) << label << " (GPU)";
}

// Copies of a model side by side, half its width apart.
Scene tiled(const Scene& one, uint32_t copies) {
  return test::tiled(one, copies, 1.5f * (one.bounds.max.x - one.bounds.min.x));
}

TEST_F(ClosedCheckGpu, SpheresHolesAndTurnedPieces) {
  for (uint64_t n : {8ull, 2000ull, 200000ull}) expect_both(make_sphere(n), true, "sphere " + std::to_string(n));
  const Scene sphere = make_sphere(2000);
  Scene holed = sphere;
  holed.indices.resize(holed.indices.size() - 3);
  expect_both(holed, false, "a hole");
  Scene inside_out = sphere;
  test::flip_winding(inside_out);
  expect_both(inside_out, false, "inside out");
  Scene one_turned = sphere;
  std::swap(one_turned.indices[1], one_turned.indices[2]);
  expect_both(one_turned, false, "one triangle turned");
  expect_both(make_quad({}, 0, 0), false, "an open quad");
}

TEST_F(ClosedCheckGpu, EveryPieceOverSeveralBlocksMustFaceOutward) {
  expect_both(test::combined(make_sphere(2000), make_sphere(2000, 1.0f, {3, 0, 0})), true, "two spheres");
  Scene mixed = test::combined(make_sphere(2000, 2.0f), make_sphere(2000, 1.0f, {3, 0, 0}));
  test::flip_winding(mixed, make_sphere(2000, 2.0f).triangle_count());
  expect_both(mixed, false, "a larger outward piece beside an inside-out one");
  // Twelve spheres of 20 K triangles: 4 blocks of the volume sums, pieces across their borders.
  Scene all = make_sphere(20000);
  for (int i = 1; i < 12; ++i) all = test::combined(all, make_sphere(20000, 1.0f, {3.0f * i, 0, 0}));
  ASSERT_GT(all.triangle_count(), 3 * kClosedVolumeBlock);
  expect_both(all, true, "twelve spheres");
  test::flip_winding(all, 7 * make_sphere(20000).triangle_count());
  expect_both(all, false, "twelve spheres, the last five inside out");
}

TEST_F(ClosedCheckGpu, CornersThatAreMissingNonFiniteOrRepeated) {
  expect_both(test::tetrahedron(), true, "tetrahedron");
  Scene nan_corner = test::tetrahedron();
  nan_corner.positions[3].y = NAN;
  expect_both(nan_corner, false, "a NaN corner");
  Scene past_end = test::tetrahedron();
  past_end.indices[11] = 4;
  expect_both(past_end, false, "an index past the last vertex");
  Scene unused_inf = make_sphere(2000);
  unused_inf.positions.push_back({INFINITY, 0, 0});
  expect_both(unused_inf, true, "an unused infinite vertex");
  // Two corners on one position, and a texture seam's copy of a position at another index.
  Scene repeated = make_sphere(2000);
  const uint32_t a = repeated.indices[0], b = repeated.indices[1];
  repeated.indices.insert(repeated.indices.end(), {a, a, b});
  repeated.positions.push_back(repeated.positions[a]);
  repeated.indices.insert(repeated.indices.end(), {b, (uint32_t)repeated.positions.size() - 1, a});
  expect_both(repeated, true, "repeated corners and a seam copy");
  // -0 and +0 are one position: the tetrahedron's first corner copied as -0 and used by one face.
  Scene signed_zero = test::tetrahedron();
  signed_zero.positions.push_back({-0.0f, -0.0f, -0.0f});
  signed_zero.indices[0] = 4;
  expect_both(signed_zero, true, "-0 welded to +0");
  signed_zero.positions[4].x = 1e-30f;
  expect_both(signed_zero, false, "a tiny offset is another position");
}

TEST_F(ClosedCheckGpu, SharedModelsEdgeCasesAndTiledDragons) {
  for (const char* model : {"spot/spot_triangulated_with_mtl.obj", "bunny/stanford-bunny.obj", "dragon/dragon_vrip.obj",
                            "teapot/teapot.obj", "cornell_box/CornellBox-Original.obj"}) {
    const Scene s = load_model(test::shared_asset(model));
    EXPECT_EQ(on_device(s), s.bounds.closed) << model;
  }
  EXPECT_GT(test::for_each_loadable_edge_case(
                [](const Scene& s, const std::string& path) { EXPECT_EQ(on_device(s), s.bounds.closed) << path; }),
            10);
  const Scene dragon = load_model(test::shared_asset("dragon/dragon_vrip.obj"));
  const Scene four = tiled(dragon, 4);
  const bool cpu = closed_outward(four.positions, four.indices);
  // Many threads race in the union-find: the same answer every time.
  for (int run = 0; run < 10; ++run) EXPECT_EQ(on_device(four), cpu) << "four dragons, run " << run;
  const Scene spot = load_model(test::shared_asset("spot/spot_triangulated_with_mtl.obj"));
  expect_both(tiled(spot, 40), true, "forty Spots");
}

TEST_F(ClosedCheckGpu, TheRendererAnswersForTheSceneSentAheadOnly) {
  CudaRenderer renderer;
  const Scene spot = load_model(test::shared_asset("spot/spot_triangulated_with_mtl.obj"));
  const Scene bunny = load_model(test::shared_asset("bunny/stanford-bunny.obj"));
  EXPECT_EQ(renderer.closed_outward_ahead(spot), std::nullopt);  // nothing sent yet
  renderer.upload_ahead(spot, UploadPart::Shading);
  EXPECT_EQ(renderer.closed_outward_ahead(spot), std::optional<bool>(true));
  EXPECT_EQ(renderer.closed_outward_ahead(bunny), std::nullopt);
  renderer.upload_ahead(bunny, UploadPart::Shading);
  EXPECT_EQ(renderer.closed_outward_ahead(bunny), std::optional<bool>(false));
}

}  // namespace
