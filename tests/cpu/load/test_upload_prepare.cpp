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

#include "engine/base/parallel.h"
#include "engine/meshlets/meshlet_shading_host.h"
#include "engine/meshlets/meshlets.h"
#include "engine/scene/generate.h"
#include "engine/scene/scene.h"
#include "kernels/frame/resolve/normal_code.h"
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

// Where each triangle's vertices are: its meshlet's first vertex and its packed local indices.
struct Corner {
  uint32_t first_vertex, locals;
};

// From a plain loop over the meshlets in order; locals 0 where the meshlets hold none.
static std::vector<Corner> sequential_corners(const Meshlets& m, uint32_t triangles) {
  std::vector<Corner> corners(triangles, Corner{~0u, ~0u});
  for (const Meshlet& ml : m.meshlets)
    for (uint32_t k = 0; k < ml.triangle_count; ++k) {
      const uint32_t slot = ml.first_triangle + k;
      corners[scene_triangle(m, slot)] = {ml.first_vertex, m.triangles.empty() ? 0u : m.triangles[slot]};
    }
  return corners;
}

// What corner words and their vertex bases say, as resolve reads them (triangle_corners).
static std::vector<Corner> decoded_corners(const uint32_t* words, const CornerBases& b, size_t triangles) {
  std::vector<Corner> out(triangles);
  for (size_t t = 0; t < triangles; ++t)
    out[t] = {b.bases[t >> b.shift] + corner_base_offset(words[t]), words[t] & 0xffffffu};
  return out;
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

// Meshlets whose vertices follow each other, `vertices(triangle_count)` each, over `triangles` slots.
template <class Vertices>
static Meshlets meshlets_with_vertices(uint32_t triangles, bool permuted, Vertices vertices) {
  Meshlets m = synthetic_meshlets(triangles, permuted);
  uint32_t next = 0;
  for (Meshlet& ml : m.meshlets) {
    ml.first_vertex = next;
    ml.vertex_count = (uint16_t)vertices(ml.triangle_count);
    next += ml.vertex_count;
  }
  return m;
}

// The first vertex each triangle's corner word and base give, d kept to its 8 bits.
static std::vector<Corner> read_first_vertices(const Meshlets& m, const CornerBases& b, uint32_t triangles) {
  std::vector<uint32_t> words(triangles);
  for (const Meshlet& ml : m.meshlets)
    for (uint32_t k = 0; k < ml.triangle_count; ++k) {
      const uint32_t t = scene_triangle(m, ml.first_triangle + k);
      words[t] = corner_word(0, corner_offset(b, ml, t) & 0xffu);
    }
  return decoded_corners(words.data(), b, triangles);
}

// Blocks of triangles share a base where the triangles are in their meshlets' order and every d
// fits 8 bits; else each triangle has its own, and every triangle still finds its first vertex.
TEST(UploadPrepare, CornerBasesShareABlockOnlyWhereEveryOffsetFits) {
  const uint32_t triangles = 40000;
  struct Case {
    const char* label;
    bool permuted;
    uint32_t (*vertices)(uint32_t triangle_count);
    uint32_t shift;
  } cases[] = {
      // As many vertices as a meshlet can have (three a triangle, at most 128): d up to 221.
      {"runs, the most vertices", false, [](uint32_t t) { return std::min<uint32_t>(3 * t, kMeshletMaxVertices); },
       kCornerBaseShift},
      {"runs, few vertices", false, [](uint32_t t) { return (t + 1) / 2 + 2; }, kCornerBaseShift},
      // Vertices no triangle uses (a cache written by something else): d past 255 somewhere.
      {"runs, unused vertices", false, [](uint32_t t) { return 200 + t % 7; }, 0},
      {"patches", true, [](uint32_t t) { return std::min<uint32_t>(3 * t, kMeshletMaxVertices); }, 0},
  };
  for (const Case& c : cases) {
    const Meshlets m = meshlets_with_vertices(triangles, c.permuted, c.vertices);
    for (unsigned workers : kWorkerCounts) {
      WorkerCount forced(workers);
      const CornerBases b = corner_bases(m, triangles);
      EXPECT_EQ(b.shift, c.shift) << c.label << ", " << workers << " workers";
      ASSERT_EQ(b.bases.size(), ((triangles - 1) >> b.shift) + 1) << c.label;
      const std::vector<Corner> expected = sequential_corners(m, triangles);
      EXPECT_TRUE(same_bytes(read_first_vertices(m, b, triangles).data(), expected.data(), triangles))
          << c.label << ", " << workers << " workers";
    }
  }
  // A first vertex below that of the meshlet that gives its block the base.
  Meshlets m = meshlets_with_vertices(triangles, false, [](uint32_t t) { return (t + 2) / 3; });
  const uint32_t block = 1u << kCornerBaseShift;
  size_t k = 1;
  while (k < m.meshlets.size() && !(m.meshlets[k].first_triangle % block != 0 &&
                                    m.meshlets[k - 1].first_triangle <= (m.meshlets[k].first_triangle & ~(block - 1))))
    ++k;
  ASSERT_LT(k, m.meshlets.size());
  m.meshlets[k].first_vertex = m.meshlets[k - 1].first_vertex - 1;
  const CornerBases b = corner_bases(m, triangles);
  EXPECT_EQ(b.shift, 0u);
  const std::vector<Corner> expected = sequential_corners(m, triangles);
  EXPECT_TRUE(same_bytes(read_first_vertices(m, b, triangles).data(), expected.data(), triangles));
  EXPECT_TRUE(corner_bases(Meshlets{}, 0).bases.empty());
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
    const std::vector<Corner> expected = sequential_corners(*m, s.triangle_count());
    const HostMeshletShading one = [&] {
      WorkerCount forced(1);
      return host_meshlet_shading(s, m, shade);
    }();
    // Runs share a base by blocks of triangles (4 bytes a triangle, not 8); patches, whose slots
    // are not in the triangles' order, have a base each.
    EXPECT_EQ(one.bases.shift, patches ? 0u : kCornerBaseShift);
    EXPECT_EQ(one.bases.bases.size(), ((s.triangle_count() - 1) >> one.bases.shift) + 1);
    EXPECT_TRUE(same_bytes(decoded_corners(one.corners.data(), one.bases, expected.size()).data(), expected.data(),
                           expected.size()))
        << (patches ? "patches" : "runs");
    ASSERT_FALSE(one.uvs.empty());
    ASSERT_FALSE(one.colors.empty());
    for (unsigned workers : kWorkerCounts) {
      WorkerCount forced(workers);
      const HostMeshletShading got = host_meshlet_shading(s, m, shade);
      EXPECT_TRUE(same_bytes(got.corners.data(), one.corners.data(), one.corners.size())) << workers << " workers";
      EXPECT_TRUE(same_bytes(got.bases.bases.data(), one.bases.bases.data(), one.bases.bases.size()))
          << workers << " workers";
      EXPECT_TRUE(same_bytes(got.points.data(), one.points.data(), one.points.size())) << workers << " workers";
      EXPECT_TRUE(same_bytes(got.uvs.data(), one.uvs.data(), one.uvs.size())) << workers << " workers";
      EXPECT_TRUE(same_bytes(got.colors.data(), one.colors.data(), one.colors.size())) << workers << " workers";
      // The upload's host route, which makes the layout range by range: the same bytes.
      const MeshletShadingOnHost route(s, *m);
      ASSERT_EQ(route.vertex_count(), one.points.size());
      ASSERT_EQ(route.corners_by_range(), !patches);
      ASSERT_EQ(route.bases().shift, one.bases.shift);
      EXPECT_TRUE(same_bytes(route.bases().bases.data(), one.bases.bases.data(), one.bases.bases.size()));
      const BigVector<uint32_t> scattered = route.scattered_corners();
      EXPECT_TRUE(same_bytes(scattered.data(), one.corners.data(), one.corners.size())) << workers << " workers";
      if (route.corners_by_range()) {
        EXPECT_TRUE(same_bytes(
            by_ranges<uint32_t>(one.corners.size(), [&](size_t b, size_t e, uint32_t* o) { route.corners(b, e, o); })
                .data(),
            one.corners.data(), one.corners.size()));
      }
      const size_t n = one.points.size();
      EXPECT_TRUE(same_bytes(
          by_ranges<MeshletPoint>(n, [&](size_t b, size_t e, MeshletPoint* o) { route.points(b, e, o); }).data(),
          one.points.data(), n))
          << workers << " workers";
      EXPECT_TRUE(same_bytes(by_ranges<Vec2>(n, [&](size_t b, size_t e, Vec2* o) { route.uvs(b, e, o); }).data(),
                             one.uvs.data(), n))
          << workers << " workers";
      EXPECT_TRUE(same_bytes(by_ranges<Rgba8>(n, [&](size_t b, size_t e, Rgba8* o) { route.colors(b, e, o); }).data(),
                             one.colors.data(), n))
          << workers << " workers";
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
