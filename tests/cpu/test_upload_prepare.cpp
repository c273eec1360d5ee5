// What the device upload builds on every core before sending it, the interleaved vertex records
// (interleave_shade_vertices, interleave_shade_range), and the host references of each triangle's
// meshlet (triangle_meshlets) and of the meshlet layout of the shading (host_meshlet_shading),
// which the gpu tests hold the upload's kernels to, are byte for byte what a plain sequential loop
// gives, at any number of workers; and so is the layout the upload's host route builds
// range by range (MeshletShadingOnHost). No GPU here: the upload itself is
// checked by the gpu tests.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "engine/generate.h"
#include "engine/meshlet_shading_host.h"
#include "engine/meshlets.h"
#include "engine/parallel.h"
#include "engine/scene.h"
#include "kernels/normal_code.h"
#include "tests/support/meshlet_shading.h"
#include "tests/support/triangle_meshlets.h"

using namespace facet;

namespace {

const unsigned kWorkerCounts[] = {1, 2, 3, 7};

// Restores "all cores" however the test ends.
struct WorkerCount {
  explicit WorkerCount(unsigned n) { worker_count_override() = n; }
  ~WorkerCount() { worker_count_override() = 0; }
};

// Meshlets of 1..kMeshletMaxTriangles slots each, over enough triangles that triangle_meshlets
// splits them into many pieces; slot order shuffled when `permuted`.
Meshlets synthetic_meshlets(uint32_t triangles, bool permuted) {
  std::mt19937 rng(7);
  Meshlets m;
  for (uint32_t first = 0; first < triangles;) {
    Meshlet ml{};
    ml.first_triangle = first;
    ml.triangle_count = (uint16_t)std::min<uint32_t>(1 + rng() % kMeshletMaxTriangles, triangles - first);
    m.meshlets.push_back(ml);
    first += ml.triangle_count;
  }
  if (permuted) {
    m.triangle_ids.resize(triangles);
    std::iota(m.triangle_ids.begin(), m.triangle_ids.end(), 0u);
    std::shuffle(m.triangle_ids.begin(), m.triangle_ids.end(), rng);
  }
  return m;
}

std::vector<uint32_t> sequential_triangle_meshlets(const Meshlets& m, uint32_t triangles) {
  std::vector<uint32_t> meshlet_of(triangles);
  for (uint32_t i = 0; i < (uint32_t)m.meshlets.size(); ++i)
    for (uint32_t k = 0; k < m.meshlets[i].triangle_count; ++k)
      meshlet_of[scene_triangle(m, m.meshlets[i].first_triangle + k)] = i;
  return meshlet_of;
}

// Vertices with values whose bits matter (-0, NaN, denormals), normals and uvs present or not.
Scene synthetic_vertices(uint32_t count, bool with_uvs) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-5.0f, 5.0f);
  const float odd[] = {-0.0f, std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::denorm_min()};
  auto value = [&] { return rng() % 97 == 0 ? odd[rng() % 3] : u(rng); };
  Scene s;
  for (uint32_t i = 0; i < count; ++i) {
    s.positions.push_back({value(), value(), value()});
    s.normals.push_back({value(), value(), value()});
    if (with_uvs) s.uvs.push_back({value(), value()});
  }
  return s;
}

std::vector<ShadeVertex> sequential_interleave(const Scene& s) {
  std::vector<ShadeVertex> out(s.positions.size());
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = {s.positions[i], quantize_normal(s.normals[i]), s.uvs.empty() ? Vec2{0, 0} : s.uvs[i]};
  return out;
}

template <class T>
bool same_bytes(const T* a, const T* b, size_t n) {
  return n == 0 || std::memcmp(a, b, n * sizeof(T)) == 0;  // an empty vector's data() may be null
}

}  // namespace

// Slots permuted (patches, with scene triangle ids) and in file order (runs).
TEST(UploadPrepare, TriangleMeshletsMatchASequentialLoopAtAnyWorkerCount) {
  const uint32_t triangles = 300000;
  for (bool permuted : {true, false}) {
    const Meshlets m = synthetic_meshlets(triangles, permuted);
    const std::vector<uint32_t> expected = sequential_triangle_meshlets(m, triangles);
    for (unsigned workers : kWorkerCounts) {
      WorkerCount forced(workers);
      const std::unique_ptr<uint32_t[]> got = triangle_meshlets(m, triangles);
      EXPECT_TRUE(same_bytes(got.get(), expected.data(), triangles))
          << workers << " workers, " << (permuted ? "permuted" : "file-order") << " slots";
    }
  }
}

// Where each triangle's vertices are, from a plain loop over the meshlets in order.
static std::vector<MeshletCorners> sequential_corners(const Meshlets& m, uint32_t triangles) {
  std::vector<MeshletCorners> corners(triangles);
  for (const Meshlet& ml : m.meshlets)
    for (uint32_t k = 0; k < ml.triangle_count; ++k)
      corners[scene_triangle(m, ml.first_triangle + k)] = {ml.first_vertex, m.triangles[ml.first_triangle + k]};
  return corners;
}

// `n` entries from make(begin, end, out) called on ranges of uneven lengths that start and end
// anywhere in a meshlet (the upload's staging fills cut them where their buffers end).
template <class T, class Make>
static std::vector<T> by_ranges(size_t n, const Make& make) {
  std::vector<T> out(n);
  size_t begin = 0;
  for (size_t step = 1; begin < n; step = step * 7 % 1009 + 1) {
    const size_t end = std::min(n, begin + step);
    make(begin, end, out.data() + begin);
    begin = end;
  }
  return out;
}

// Patches (with scene triangle ids, in many pieces) and runs (slot i holds triangle i), uvs and
// vertex colours on.
TEST(UploadPrepare, MeshletLayoutMatchesASequentialLoopAtAnyWorkerCount) {
  Scene s = make_sphere(300000);
  for (uint32_t v = 0; v < s.vertex_count(); ++v) s.colors.push_back({(uint8_t)v, (uint8_t)(v >> 8), 7, 255});
  const std::vector<ShadeVertex> shade = interleave_shade_vertices(s);
  for (bool patches : {true, false}) {
    auto m = std::make_shared<const Meshlets>(patches ? build_meshlet_patches(s) : build_meshlet_runs(s));
    ASSERT_EQ(m->triangle_ids.empty(), !patches);
    ASSERT_GT(m->meshlets.size(), 4 * kMeshletsPerPiece);
    const std::vector<MeshletCorners> expected = sequential_corners(*m, s.triangle_count());
    const HostMeshletShading one = [&] {
      WorkerCount forced(1);
      return host_meshlet_shading(s, m, shade);
    }();
    EXPECT_TRUE(same_bytes(one.corners.data(), expected.data(), expected.size())) << (patches ? "patches" : "runs");
    ASSERT_FALSE(one.uvs.empty());
    ASSERT_FALSE(one.colors.empty());
    for (unsigned workers : kWorkerCounts) {
      WorkerCount forced(workers);
      const HostMeshletShading got = host_meshlet_shading(s, m, shade);
      EXPECT_TRUE(same_bytes(got.corners.data(), expected.data(), expected.size())) << workers << " workers";
      EXPECT_TRUE(same_bytes(got.points.data(), one.points.data(), one.points.size())) << workers << " workers";
      EXPECT_TRUE(same_bytes(got.uvs.data(), one.uvs.data(), one.uvs.size())) << workers << " workers";
      EXPECT_TRUE(same_bytes(got.colors.data(), one.colors.data(), one.colors.size())) << workers << " workers";
      // The upload's host route, which makes the layout range by range: the same bytes.
      const MeshletShadingOnHost route(s, *m);
      ASSERT_EQ(route.vertex_count(), one.points.size());
      ASSERT_EQ(route.corners_by_range(), !patches);
      const std::vector<MeshletCorners> scattered = [&] {
        const BigVector<MeshletCorners> c = route.scattered_corners();
        return std::vector<MeshletCorners>(c.begin(), c.end());
      }();
      EXPECT_TRUE(same_bytes(scattered.data(), expected.data(), expected.size())) << workers << " workers";
      if (route.corners_by_range()) {
        EXPECT_TRUE(same_bytes(by_ranges<MeshletCorners>(expected.size(), [&](size_t b, size_t e, MeshletCorners* o) {
                      route.corners(b, e, o);
                    }).data(), expected.data(), expected.size()));
      }
      const size_t n = one.points.size();
      EXPECT_TRUE(same_bytes(by_ranges<MeshletPoint>(n, [&](size_t b, size_t e, MeshletPoint* o) { route.points(b, e, o); }).data(),
                             one.points.data(), n)) << workers << " workers";
      EXPECT_TRUE(same_bytes(by_ranges<Vec2>(n, [&](size_t b, size_t e, Vec2* o) { route.uvs(b, e, o); }).data(),
                             one.uvs.data(), n)) << workers << " workers";
      EXPECT_TRUE(same_bytes(by_ranges<Rgba8>(n, [&](size_t b, size_t e, Rgba8* o) { route.colors(b, e, o); }).data(),
                             one.colors.data(), n)) << workers << " workers";
    }
  }
}

TEST(UploadPrepare, InterleavedVerticesMatchASequentialLoopAtAnyWorkerCount) {
  for (bool with_uvs : {true, false}) {
    const Scene s = synthetic_vertices(300000, with_uvs);
    const std::vector<ShadeVertex> expected = sequential_interleave(s);
    for (unsigned workers : kWorkerCounts) {
      WorkerCount forced(workers);
      const std::vector<ShadeVertex> got = interleave_shade_vertices(s);
      ASSERT_EQ(got.size(), expected.size());
      EXPECT_TRUE(same_bytes(got.data(), expected.data(), got.size())) << workers << " workers, uvs " << with_uvs;
    }
  }
}

TEST(UploadPrepare, InterleavedRangeWritesThoseVerticesFromTheStartOfItsOutput) {
  const Scene s = synthetic_vertices(1000, true);
  const std::vector<ShadeVertex> expected = sequential_interleave(s);
  std::vector<ShadeVertex> got(300);
  interleave_shade_range(s, 650, 950, got.data());
  EXPECT_TRUE(same_bytes(got.data(), expected.data() + 650, got.size()));
}
