// The weld by position (position_weld.h) that the closed-surface check runs on: against a plain
// map of positions in index order, with many repeats, -0 beside +0 and non-finite coordinates,
// on models large enough for many buckets and blocks, at 1, 2, 3 and 7 workers.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <random>

#include "engine/base/parallel.h"
#include "engine/scene/position_weld.h"

using namespace facet;

namespace {

// `count` positions on a coarse grid (so that most repeat), some with -0 for 0.
std::vector<Vec3> repeating_positions(size_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> cell(-40, 40);
  std::vector<Vec3> p(count);
  for (Vec3& v : p) {
    v = {(float)cell(rng), (float)cell(rng), (float)cell(rng)};
    if (v.x == 0.0f && rng() % 2) v.x = -0.0f;
  }
  return p;
}

// The definition, one vertex after another: the first index with the same bits (-0 as +0).
std::vector<uint32_t> first_with_position(const std::vector<Vec3>& positions) {
  auto bits = [](float f) {
    if (f == 0.0f) f = 0.0f;
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
  };
  std::map<std::array<uint32_t, 3>, uint32_t> first;
  std::vector<uint32_t> id(positions.size());
  for (uint32_t v = 0; v < positions.size(); ++v) {
    const Vec3& p = positions[v];
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) {
      id[v] = kNonFiniteVertex;
      continue;
    }
    id[v] = first.emplace(std::array<uint32_t, 3>{bits(p.x), bits(p.y), bits(p.z)}, v).first->second;
  }
  return id;
}

std::vector<uint32_t> welded(const std::vector<Vec3>& positions, unsigned workers) {
  worker_count_override() = workers;
  std::unique_ptr<std::atomic<uint32_t>[]> id = weld_by_position(BigVector<Vec3>(positions.begin(), positions.end()));
  worker_count_override() = 0;
  std::vector<uint32_t> out(positions.size());
  for (size_t v = 0; v < out.size(); ++v) out[v] = id[v].load();
  return out;
}

}  // namespace

TEST(PositionWeld, EachVertexGetsTheFirstWithItsPositionForAnyThreadCount) {
  const std::vector<Vec3> positions = repeating_positions(300000, 7);  // many buckets and blocks
  const std::vector<uint32_t> expected = first_with_position(positions);
  for (unsigned workers : {1u, 2u, 3u, 7u}) EXPECT_EQ(welded(positions, workers), expected) << workers << " workers";
}

TEST(PositionWeld, NonFiniteVerticesWeldToNothing) {
  std::vector<Vec3> positions = repeating_positions(100000, 8);
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  positions[10] = {inf, 0, 0};
  positions[20] = {0, nan, 0};
  positions[30] = {0, nan, 0};  // the same bits as vertex 20, yet welded to nothing
  positions[99999] = {0, 0, -inf};
  const std::vector<uint32_t> expected = first_with_position(positions);
  for (unsigned workers : {1u, 3u}) {
    const std::vector<uint32_t> id = welded(positions, workers);
    EXPECT_EQ(id[10], kNonFiniteVertex);
    EXPECT_EQ(id[30], kNonFiniteVertex);
    EXPECT_EQ(id[99999], kNonFiniteVertex);
    EXPECT_EQ(id, expected) << workers << " workers";
  }
}
