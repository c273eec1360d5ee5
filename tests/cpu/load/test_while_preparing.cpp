// LoadOptions::while_preparing: the head start a fresh load gives (the renderer's upload of what
// does not depend on the meshlets, and the GPU's closed-surface check). It runs once, with the
// loaded arrays, while the meshlets are built; the load waits for it; the closed-surface flag it
// returns is the scene's, and where it returns none or throws the CPU's check decides; what it
// throws does not fail the load; a scene from the cache, which has its meshlets, does not call it.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <optional>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "engine/load/load_model.h"
#include "tests/support/scratch_dir.h"

namespace facet {
namespace {

constexpr const char* kObj =
    "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 2 0 0\n"
    "f 1 2 3 4\nf 2 5 3\n";
// A tetrahedron wound counter-clockwise seen from outside: a closed surface facing outward.
constexpr const char* kClosedObj =
    "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n"
    "f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";

TEST(WhilePreparing, RunsOnceWithTheArraysTheLoadReturns) {
  test::ScratchDir dir;
  const std::string obj = dir.write("quad.obj", kObj);
  std::atomic<int> calls{0};
  BigVector<uint32_t> seen_indices;
  BigVector<Vec3> seen_positions;
  LoadOptions options;
  options.while_preparing = [&](const Scene& s, HeadStart&) -> std::optional<bool> {
    ++calls;
    seen_indices = s.indices;
    seen_positions = s.positions;
    return std::nullopt;
  };
  const Scene scene = load_model(obj, options);
  EXPECT_EQ(calls.load(), 1);
  EXPECT_EQ(seen_indices, scene.indices);
  ASSERT_EQ(seen_positions.size(), scene.positions.size());
  for (size_t i = 0; i < seen_positions.size(); ++i) {
    EXPECT_EQ(seen_positions[i].x, scene.positions[i].x);
    EXPECT_EQ(seen_positions[i].y, scene.positions[i].y);
    EXPECT_EQ(seen_positions[i].z, scene.positions[i].z);
  }
  EXPECT_EQ(seen_indices.size(), 9u);  // the quad's two triangles and the triangle
}

TEST(WhilePreparing, TheLoadReturnsOnlyAfterItIsDone) {
  test::ScratchDir dir;
  const std::string obj = dir.write("quad.obj", kObj);
  std::atomic<bool> done{false};
  LoadOptions options;
  options.while_preparing = [&](const Scene&, HeadStart&) -> std::optional<bool> {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // longer than the meshlets take
    done = true;
    return std::nullopt;
  };
  load_model(obj, options);
  EXPECT_TRUE(done.load());
}

TEST(WhilePreparing, WhatItThrowsDoesNotFailTheLoad) {
  test::ScratchDir dir;
  const std::string obj = dir.write("quad.obj", kObj);
  LoadOptions options;
  options.while_preparing = [](const Scene&, HeadStart&) -> std::optional<bool> {
    throw std::runtime_error("no device memory");
  };
  Scene scene;
  EXPECT_NO_THROW(scene = load_model(obj, options));
  EXPECT_EQ(scene.triangle_count(), 3u);
  EXPECT_TRUE(scene.meshlets != nullptr);
}

TEST(WhilePreparing, ASceneFromTheCacheDoesNotCallIt) {
  test::ScratchDir dir;
  const std::string obj = dir.write("quad.obj", kObj);
  int calls = 0;
  LoadOptions options;
  options.use_cache = true;
  options.cache_dir = dir.path("cache");
  options.while_preparing = [&](const Scene&, HeadStart&) -> std::optional<bool> {
    ++calls;
    return std::nullopt;
  };
  load_model(obj, options);  // fresh: writes the cache
  ASSERT_EQ(calls, 1);
  const Scene again = load_model(obj, options);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(again.triangle_count(), 3u);
}

// Both models' flags, with a head start that answers `answer` (or throws when `fail`).
std::pair<bool, bool> closed_flags(std::optional<bool> answer, bool fail = false) {
  test::ScratchDir dir;
  LoadOptions options;
  options.while_preparing = [&](const Scene&, HeadStart&) -> std::optional<bool> {
    if (fail) throw std::runtime_error("no device memory");
    return answer;
  };
  return {load_model(dir.write("tetra.obj", kClosedObj), options).bounds.closed,
          load_model(dir.write("quad.obj", kObj), options).bounds.closed};
}

TEST(WhilePreparing, ItsClosedSurfaceAnswerIsTheScenes) {
  EXPECT_EQ(closed_flags(false), std::make_pair(false, false));
  EXPECT_EQ(closed_flags(true), std::make_pair(true, true));
}

TEST(WhilePreparing, WithoutAnAnswerTheCpuChecksTheSurface) {
  test::ScratchDir dir;
  const std::pair<bool, bool> cpu{load_model(dir.write("tetra.obj", kClosedObj)).bounds.closed,
                                  load_model(dir.write("quad.obj", kObj)).bounds.closed};
  EXPECT_EQ(cpu, std::make_pair(true, false));  // no head start at all
  EXPECT_EQ(closed_flags(std::nullopt), cpu);
  EXPECT_EQ(closed_flags(true, /*fail=*/true), cpu);
}

}  // namespace
}  // namespace facet
