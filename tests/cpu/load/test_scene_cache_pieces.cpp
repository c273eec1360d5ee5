// The scene cache's byte-moving passes (engine/cache/scene_cache_pieces.h) and a cache file of several
// checksum blocks: the fused copy and checksum equals BlockChecksum and copies every piece, claimed
// arrays come back sized in the storage they were claimed in, and a multi-block file reads back
// the same arrays on any number of workers and still fails its checksum where a late byte or an
// array's count changed.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include "engine/base/checksum.h"
#include "engine/base/parallel.h"
#include "engine/cache/scene_cache_format.h"
#include "engine/cache/scene_cache_pieces.h"
#include "engine/meshlets/meshlets.h"
#include "engine/scene/generate.h"

namespace facet {
namespace {

// Sets the worker count for a scope (0 again after).
struct Workers {
  explicit Workers(unsigned n) { worker_count_override() = n; }
  ~Workers() { worker_count_override() = 0; }
};

std::vector<uint8_t> noise(size_t n) {
  std::mt19937 rng(5);
  std::vector<uint8_t> v(n);
  for (uint8_t& b : v) b = (uint8_t)rng();
  return v;
}

template <class T, class A, class B>
bool same_bytes(const std::vector<T, A>& a, const std::vector<T, B>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

TEST(SceneCachePieces, CopyAndChecksumEqualsTheBlockChecksumAndCopiesEveryPiece) {
  // Piece edges off every block and word boundary; a piece that spans blocks; gaps left uncopied.
  const std::vector<uint8_t> bytes = noise(3 * kChecksumBlock + 12345);
  const uint64_t cuts[] = {0,           7, 1000, kChecksumBlock + 3, 2 * kChecksumBlock + 5, 2 * kChecksumBlock + 9,
                           bytes.size()};
  for (unsigned workers : {1u, 3u}) {
    SCOPED_TRACE(workers);
    Workers scope(workers);
    std::vector<uint8_t> out(bytes.size(), 0);
    std::vector<CachePiece> pieces;
    for (size_t i = 0; i + 1 < std::size(cuts); ++i) {
      const bool copied = i % 2 == 1;
      uint8_t* to = copied ? out.data() + cuts[i] : nullptr;
      pieces.push_back({cuts[i], cuts[i + 1] - cuts[i], bytes.data() + cuts[i], to});
    }
    EXPECT_EQ(copy_and_checksum(pieces, true), block_checksum(bytes.data(), bytes.size()));
    for (const CachePiece& p : pieces) {
      const bool copied_right = std::memcmp(out.data() + p.offset, bytes.data() + p.offset, p.size) == 0;
      EXPECT_EQ(copied_right, p.to != nullptr) << "piece at " << p.offset;
    }
  }
}

TEST(SceneCachePieces, ClaimedArraysComeBackZeroedAndSizedWhereTheyWereClaimed) {
  std::vector<uint32_t> big{1, 2, 3};  // over the first-touch threshold: faulted in on every core
  std::vector<Vec3> small;
  ArrayClaims claims;
  const uint32_t* big_at = claims.claim(big, 3u << 20);
  const Vec3* small_at = claims.claim(small, 5);
  EXPECT_TRUE(big.empty());  // sized only once faulted in
  claims.size_all();
  ASSERT_EQ(big.size(), 3u << 20);
  ASSERT_EQ(small.size(), 5u);
  EXPECT_EQ(big.data(), big_at);
  EXPECT_EQ(small.data(), small_at);
  EXPECT_TRUE(std::all_of(big.begin(), big.end(), [](uint32_t v) { return v == 0; }));
}

constexpr const char* kSource = "/models/sphere.obj";

// A prepared sphere whose cache file spans several checksum blocks, written to a temporary file
// and read back into memory.
struct BigCache {
  Scene scene;
  std::vector<uint8_t> file;
  BigCache() {
    scene = make_sphere(100000);
    scene.meshlets = std::make_shared<const Meshlets>(build_meshlets(scene));
    std::string name = (std::filesystem::temp_directory_path() / "facet_big_cache.XXXXXX").string();
    platform::OutputFile out;
    EXPECT_EQ(out.create_unique(name), "");
    write_scene_cache(out, scene, scene.warnings, kSource, {}, 1, 2);
    EXPECT_EQ(out.close(), "");
    std::ifstream in(name, std::ios::binary);
    file.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    std::remove(name.c_str());
  }
};

TEST(SceneCachePieces, AMultiBlockFileReadsBackTheSameArraysOnAnyNumberOfWorkers) {
  BigCache c;
  ASSERT_GT(c.file.size(), 3 * kChecksumBlock);
  for (unsigned workers : {1u, 3u}) {
    SCOPED_TRACE(workers);
    Workers scope(workers);
    const SceneCacheContents got = read_scene_cache(c.file.data(), c.file.size());
    EXPECT_TRUE(same_bytes(got.scene.positions, c.scene.positions));
    EXPECT_TRUE(same_bytes(got.scene.normals, c.scene.normals));
    EXPECT_TRUE(same_bytes(got.scene.indices, c.scene.indices));
    EXPECT_TRUE(same_bytes(got.scene.tri_material, c.scene.tri_material));
    EXPECT_TRUE(same_bytes(got.scene.meshlets->meshlets, c.scene.meshlets->meshlets));
    EXPECT_TRUE(same_bytes(got.scene.meshlets->positions, c.scene.meshlets->positions));
    EXPECT_TRUE(same_bytes(got.scene.meshlets->triangles, c.scene.meshlets->triangles));
    EXPECT_TRUE(same_bytes(got.scene.meshlets->triangle_ids, c.scene.meshlets->triangle_ids));
  }
}

TEST(SceneCachePieces, AChangedByteInALaterBlockFailsTheChecksum) {
  BigCache c;
  c.file[c.file.size() - kChecksumBlock - 100] ^= 0x10;
  try {
    read_scene_cache(c.file.data(), c.file.size());
    FAIL() << "read a corrupt file";
  } catch (const CacheFormatError& e) {
    EXPECT_NE(std::string(e.what()).find("checksum"), std::string::npos) << e.what();
  }
}

TEST(SceneCachePieces, ACorruptArrayCountIsCalledCorruptNotTruncated) {
  BigCache c;
  // The positions' count: after the header, the source path (length, bytes) and the dependency count.
  const size_t count_at = sizeof(SceneCacheHeader) + 8 + std::strlen(kSource) + 8;
  uint64_t count;
  std::memcpy(&count, c.file.data() + count_at, 8);
  ASSERT_EQ(count, c.scene.positions.size());
  count |= uint64_t(1) << 40;
  std::memcpy(c.file.data() + count_at, &count, 8);
  try {
    read_scene_cache(c.file.data(), c.file.size());
    FAIL() << "read a corrupt file";
  } catch (const CacheFormatError& e) {
    EXPECT_NE(std::string(e.what()).find("checksum"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace facet
