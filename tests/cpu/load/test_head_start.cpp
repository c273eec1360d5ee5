// HeadStart: the Morton order a load's head start hands the meshlet build. The build waits for an
// order promised, takes none when none was promised or the head start ended without a word, and
// builds its patches from the order it is given: the CPU's own order gives the same meshlets as a
// load without a head start, another order other meshlets, each triangle still in one.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "engine/load/head_start.h"
#include "engine/load/load_model.h"
#include "engine/meshlets/meshlet_ranges.h"
#include "engine/meshlets/meshlets.h"
#include "tests/support/test_scenes.h"

namespace facet {
namespace {

std::unique_ptr<uint32_t[]> numbers(uint32_t n) {
  std::unique_ptr<uint32_t[]> a(new uint32_t[n]);
  for (uint32_t i = 0; i < n; ++i) a[i] = i;
  return a;
}

TEST(HeadStart, AnOrderPromisedIsWaitedForAndTaken) {
  HeadStart head;
  head.promise_order();
  std::thread later([&head] {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    head.give_order(numbers(3));
  });
  const auto t0 = std::chrono::steady_clock::now();
  const std::unique_ptr<uint32_t[]> order = head.take_order();
  later.join();
  ASSERT_TRUE(order != nullptr);
  EXPECT_EQ(order[2], 2u);
  EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(25));
}

TEST(HeadStart, NoOrderPromisedIsNone) {
  HeadStart said_no;
  said_no.no_order();
  EXPECT_TRUE(said_no.take_order() == nullptr);
  HeadStart unpromised;  // given without a promise: dropped
  unpromised.give_order(numbers(3));
  unpromised.finish();
  EXPECT_TRUE(unpromised.take_order() == nullptr);
  HeadStart failed;  // promised, then nothing came
  failed.promise_order();
  failed.give_order(nullptr);
  EXPECT_TRUE(failed.take_order() == nullptr);
}

TEST(HeadStart, WithoutAWordTheBuildWaitsForTheEnd) {
  HeadStart head;
  std::thread ends([&head] {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    head.finish();
  });
  EXPECT_TRUE(head.take_order() == nullptr);
  ends.join();
}

void expect_same_meshlets(const Meshlets& a, const Meshlets& b) {
  ASSERT_EQ(a.meshlets.size(), b.meshlets.size());
  EXPECT_EQ(std::memcmp(a.meshlets.data(), b.meshlets.data(), a.meshlets.size() * sizeof(Meshlet)), 0);
  EXPECT_EQ(a.triangles, b.triangles);
  EXPECT_EQ(a.triangle_ids, b.triangle_ids);
}

// The bunny (a scan: patches) loaded with a head start that gives `order(scene)`.
template <class Order>
Scene loaded_with(const Order& order) {
  LoadOptions options;
  options.while_preparing = [&order](const Scene& fresh, HeadStart& head) -> std::optional<bool> {
    head.promise_order();
    head.give_order(order(fresh));
    return std::nullopt;
  };
  return load_model(test::shared_asset("bunny/stanford-bunny.obj"), options);
}

TEST(HeadStart, TheBuildGrowsItsPatchesFromTheOrderGiven) {
  const Scene plain = load_model(test::shared_asset("bunny/stanford-bunny.obj"));
  ASSERT_GT(plain.meshlets->meshlets.size(), 100u);
  const Scene same = loaded_with([](const Scene& s) {
    BackgroundRelease release;
    return patch_ranges(s, release).order;
  });
  expect_same_meshlets(*same.meshlets, *plain.meshlets);
  EXPECT_EQ(same.file_triangle, plain.file_triangle);
  // The file's order instead: other patches, every triangle in one of them.
  const Scene other = loaded_with([](const Scene& s) { return numbers(s.triangle_count()); });
  EXPECT_NE(other.file_triangle, plain.file_triangle);
  std::vector<uint32_t> ids(other.file_triangle.begin(), other.file_triangle.end());
  std::sort(ids.begin(), ids.end());
  ASSERT_EQ(ids.size(), plain.triangle_count());
  for (uint32_t t = 0; t < ids.size(); ++t) ASSERT_EQ(ids[t], t);
}

}  // namespace
}  // namespace facet
