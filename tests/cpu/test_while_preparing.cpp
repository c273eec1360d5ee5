// LoadOptions::while_preparing: the head start a fresh load gives (the renderer's upload of what
// does not depend on the meshlets). It runs once, with the loaded arrays, while the meshlets are
// built; the load waits for it; what it throws does not fail the load; a scene from the cache,
// which has its meshlets, does not call it.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "engine/loader.h"
#include "tests/support/scratch_dir.h"

namespace facet {
namespace {

constexpr const char* kObj =
    "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 2 0 0\n"
    "f 1 2 3 4\nf 2 5 3\n";

TEST(WhilePreparing, RunsOnceWithTheArraysTheLoadReturns) {
  test::ScratchDir dir;
  const std::string obj = dir.write("quad.obj", kObj);
  std::atomic<int> calls{0};
  BigVector<uint32_t> seen_indices;
  BigVector<Vec3> seen_positions;
  LoadOptions options;
  options.while_preparing = [&](const Scene& s) {
    ++calls;
    seen_indices = s.indices;
    seen_positions = s.positions;
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
  options.while_preparing = [&](const Scene&) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // longer than the meshlets take
    done = true;
  };
  load_model(obj, options);
  EXPECT_TRUE(done.load());
}

TEST(WhilePreparing, WhatItThrowsDoesNotFailTheLoad) {
  test::ScratchDir dir;
  const std::string obj = dir.write("quad.obj", kObj);
  LoadOptions options;
  options.while_preparing = [](const Scene&) { throw std::runtime_error("no device memory"); };
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
  options.while_preparing = [&](const Scene&) { ++calls; };
  load_model(obj, options);  // fresh: writes the cache
  ASSERT_EQ(calls, 1);
  const Scene again = load_model(obj, options);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(again.triangle_count(), 3u);
}

}  // namespace
}  // namespace facet
