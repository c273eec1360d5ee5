// The scene cache written behind the load (engine/cache/scene_cache_write.h): the file written in the
// background is whole and used once the writer is joined, even when the caller let the scene go
// first; the scene handed back equals a fresh load while the write runs; a failed write is one
// warning from join(), never a crash; a cache note is not stored in the rebuilt file; a hit
// starts no write; the pass that checksums and writes equals the block checksum on any number of
// workers; a SceneCacheWrite is joined by its destructor and by a move onto it.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <thread>

#include "engine/base/checksum.h"
#include "engine/base/parallel.h"
#include "engine/cache/scene_cache_files.h"
#include "engine/cache/scene_cache_pieces.h"
#include "engine/cache/scene_cache_write.h"
#include "engine/load/load_model.h"
#include "engine/meshlets/meshlets.h"
#include "engine/scene/generate.h"
#include "tests/support/scene_warnings.h"
#include "tests/support/scratch_dir.h"

namespace facet {
namespace {

namespace fs = std::filesystem;

// A sphere of ~20 K triangles as an OBJ: its cache file is a few MB, several checksum blocks.
std::string sphere_obj() {
  const Scene s = make_sphere(20000);
  std::string obj;
  for (const Vec3& p : s.positions)
    obj += "v " + std::to_string(p.x) + " " + std::to_string(p.y) + " " + std::to_string(p.z) + "\n";
  for (size_t i = 0; i + 2 < s.indices.size(); i += 3)
    obj += "f " + std::to_string(s.indices[i] + 1) + " " + std::to_string(s.indices[i + 1] + 1) + " " +
           std::to_string(s.indices[i + 2] + 1) + "\n";
  return obj;
}

struct Model {
  test::ScratchDir dir;
  std::string obj;
  LoadOptions options;
  Model() {
    obj = dir.write("model/sphere.obj", sphere_obj());
    options.use_cache = true;
    options.cache_dir = dir.path("cache");
  }
  std::vector<fs::path> cache_files() const {
    std::vector<fs::path> out;
    if (fs::exists(options.cache_dir))
      for (const auto& e : fs::directory_iterator(options.cache_dir)) out.push_back(e.path());
    return out;
  }
};

template <class T, class A, class B>
bool same_bytes(const std::vector<T, A>& a, const std::vector<T, B>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

bool same_scene(const Scene& a, const Scene& b) {
  return same_bytes(a.positions, b.positions) && same_bytes(a.normals, b.normals) && a.indices == b.indices &&
         a.tri_material == b.tri_material && a.meshlets && b.meshlets &&
         same_bytes(a.meshlets->meshlets, b.meshlets->meshlets) && a.meshlets->triangles == b.meshlets->triangles &&
         a.meshlets->triangle_ids == b.meshlets->triangle_ids;
}

TEST(SceneCacheBackground, FileWrittenBehindIsWholeAndUsedOnceJoined) {
  Model m;
  LoadedScene first = load_model_shared(m.obj, m.options);
  ASSERT_TRUE(first.cache_write.pending());
  EXPECT_EQ(first.cache_write.join(), "");
  ASSERT_EQ(m.cache_files().size(), 1u) << "one file, no temporary left";
  EXPECT_EQ(m.cache_files()[0].extension(), ".fscene");
  const Scene hit = load_model(m.obj, m.options);
  EXPECT_EQ(test::cache_warnings(hit.warnings), 0);
  EXPECT_TRUE(same_scene(hit, load_model(m.obj)));
}

TEST(SceneCacheBackground, WriterKeepsTheSceneAliveWhenTheCallerLetsItGo) {
  Model m;
  LoadedScene loaded = load_model_shared(m.obj, m.options);
  loaded.scene.reset();  // the caller's last reference: the writer's must keep the arrays
  EXPECT_EQ(loaded.cache_write.join(), "");
  const Scene hit = load_model(m.obj, m.options);
  EXPECT_EQ(test::cache_warnings(hit.warnings), 0) << "the file read back whole, checksum included";
  EXPECT_TRUE(same_scene(hit, load_model(m.obj)));
}

TEST(SceneCacheBackground, SceneHandedBackEqualsAFreshLoadWhileTheWriteRuns) {
  Model m;
  const Scene fresh = load_model(m.obj);
  LoadedScene loaded = load_model_shared(m.obj, m.options);
  EXPECT_TRUE(same_scene(*loaded.scene, fresh));  // read beside the writer, before the join
  EXPECT_EQ(loaded.cache_write.join(), "");
  EXPECT_TRUE(same_scene(*loaded.scene, fresh));
}

TEST(SceneCacheBackground, FailedWriteIsOneWarningFromJoinAndTheSceneStands) {
  Model m;
  m.dir.write("cache", "not a folder");  // a plain file where the folder should be
  LoadedScene loaded = load_model_shared(m.obj, m.options);
  const std::string warning = loaded.cache_write.join();
  EXPECT_NE(warning.find("scene cache not written"), std::string::npos) << warning;
  EXPECT_NE(warning.find(m.obj), std::string::npos) << "names the model: " << warning;
  EXPECT_EQ(loaded.scene->triangle_count(), load_model(m.obj).triangle_count());
  EXPECT_EQ(test::cache_warnings(loaded.scene->warnings), 0);
}

TEST(SceneCacheBackground, OneCacheProblemIsOneWarningThoughBothTheLookupAndTheStoreFail) {
  Model m;
  // A folder where the model's cache file belongs: it can be neither read nor replaced (as root too).
  fs::create_directories(cache_file_path(m.options.cache_dir, fs::canonical(m.obj).string()));
  LoadedScene loaded = load_model_shared(m.obj, m.options);
  EXPECT_EQ(test::cache_warnings(loaded.scene->warnings), 1);
  EXPECT_EQ(loaded.cache_write.join(), "") << "the store's failure is the same problem, already reported";
  EXPECT_EQ(test::cache_warnings(load_model(m.obj, m.options).warnings), 1) << "one from the load that stores at once";
}

TEST(SceneCacheBackground, StaleFileNoteIsShownButNotStoredInTheRebuiltFile) {
  Model m;
  load_model_shared(m.obj, m.options).cache_write.join();
  fs::last_write_time(m.obj, fs::file_time_type::clock::now() + std::chrono::seconds(5));
  LoadedScene rebuilt = load_model_shared(m.obj, m.options);
  EXPECT_EQ(test::cache_warnings(rebuilt.scene->warnings), 1);
  EXPECT_EQ(rebuilt.cache_write.join(), "");
  EXPECT_EQ(test::cache_warnings(load_model(m.obj, m.options).warnings), 0);
}

TEST(SceneCacheBackground, CacheHitStartsNoWrite) {
  Model m;
  load_model_shared(m.obj, m.options).cache_write.join();
  LoadedScene hit = load_model_shared(m.obj, m.options);
  EXPECT_FALSE(hit.cache_write.pending());
  EXPECT_EQ(test::cache_warnings(hit.scene->warnings), 0);
}

TEST(SceneCacheBackground, CacheOffStartsNoWrite) {
  Model m;
  m.options.use_cache = false;
  LoadedScene loaded = load_model_shared(m.obj, m.options);
  EXPECT_FALSE(loaded.cache_write.pending());
  EXPECT_TRUE(m.cache_files().empty());
}

// A payload of pieces: small runs between arrays, one array longer than a checksum block.
struct Payload {
  std::vector<uint8_t> bytes;
  std::vector<CachePiece> pieces;
  Payload() {
    std::mt19937 rng(11);
    bytes.resize(3 * kChecksumBlock + 12345);
    for (uint8_t& b : bytes) b = (uint8_t)rng();
    const uint64_t cuts[] = {0, 40, 1000, 2 * kChecksumBlock + 7, bytes.size()};
    for (int i = 0; i + 1 < 5; ++i) pieces.push_back({cuts[i], cuts[i + 1] - cuts[i], bytes.data() + cuts[i], nullptr});
  }
};

TEST(SceneCacheBackground, WriteAndChecksumWritesEveryByteAndEqualsTheBlockChecksum) {
  const Payload p;
  test::ScratchDir dir;
  for (unsigned workers : {1u, 3u}) {
    SCOPED_TRACE(workers);
    worker_count_override() = workers;
    std::string path = dir.path("out" + std::to_string(workers) + ".XXXXXX");
    platform::OutputFile file;
    ASSERT_EQ(file.create_unique(path), "");
    constexpr uint64_t kAt = 48;  // after a header
    EXPECT_EQ(write_and_checksum(p.pieces, file, kAt), block_checksum(p.bytes.data(), p.bytes.size()));
    ASSERT_EQ(file.close(), "");
    EXPECT_EQ(fs::file_size(path), kAt + p.bytes.size());
    std::ifstream in(path, std::ios::binary);
    in.seekg((std::streamoff)kAt);
    const std::vector<uint8_t> back{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    EXPECT_TRUE(back == p.bytes);
  }
  worker_count_override() = 0;
}

TEST(SceneCacheBackground, WriteAndChecksumThrowsWhenTheFileCannotBeWritten) {
  const Payload p;
  test::ScratchDir dir;
  std::string path = dir.path("no-such-folder/out.XXXXXX");
  platform::OutputFile file;  // stays closed: its folder is missing
  ASSERT_NE(file.create_unique(path), "");
  EXPECT_THROW(write_and_checksum(p.pieces, file, 0), std::runtime_error);
}

TEST(SceneCacheBackground, DestructorWaitsForTheWrite) {
  std::atomic<bool> ran{false};
  {
    SceneCacheWrite write([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      ran = true;
      return std::string();
    });
  }
  EXPECT_TRUE(ran);
}

TEST(SceneCacheBackground, MovingAWriteOntoAnotherJoinsTheOneItHad) {
  std::atomic<bool> first_ran{false};
  SceneCacheWrite write([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    first_ran = true;
    return std::string("first");
  });
  write = SceneCacheWrite([] { return std::string("second"); });
  EXPECT_TRUE(first_ran);
  EXPECT_EQ(write.join(), "second");
  EXPECT_FALSE(write.pending());
  EXPECT_EQ(write.join(), "") << "nothing left to join";
}

}  // namespace
}  // namespace facet
