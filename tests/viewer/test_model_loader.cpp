// The viewer's load-and-swap behaviour (app/viewer/controls/model_loader.h), driven through the same entry
// points the window uses (request_dropped is what the drop callback calls), with the CPU renderer.
#include <gtest/gtest.h>
#include <malloc.h>

#include <unistd.h>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "app/viewer/controls/model_loader.h"
#include "engine/base/memory_policy.h"
#include "engine/scene/generate.h"
#include "tests/viewer/forwarding_renderer.h"

namespace facet {
namespace {

const std::string kSpot = std::string(FACET_ASSETS) + "/spot/spot_triangulated_with_mtl.obj";

std::string write_temp_file(const std::string& name, const std::string& bytes) {
  std::string path = ::testing::TempDir() + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

// The model on screen after `loader` has finished everything it was asked to do.
std::shared_ptr<const Scene> load_and_finish(ModelLoader& loader, Renderer& r, const std::string& p) {
  loader.request(p);
  loader.finish(r);
  return loader.current();
}

TEST(ModelLoader, InstallsARequestedModelAndRendersIt) {
  auto renderer = make_renderer(Backend::Cpu);
  ModelLoader loader;
  auto scene = load_and_finish(loader, *renderer, kSpot);
  ASSERT_TRUE(scene) << loader.error();
  EXPECT_EQ(scene->triangle_count(), 5856u);
  EXPECT_TRUE(loader.error().empty());
  EXPECT_EQ(loader.current_path(), kSpot);
}

TEST(ModelLoader, ABadFileDroppedOnTheWindowLeavesThePreviousModelInPlace) {
  auto renderer = make_renderer(Backend::Cpu);
  ModelLoader loader;
  auto before = load_and_finish(loader, *renderer, kSpot);
  ASSERT_TRUE(before);
  const std::string garbage =
      write_temp_file("facet_viewer_garbage.obj", std::string("\x00\xff\x13garbage f 9 9 9\n", 20));
  for (const std::string& bad : {std::string("/nonexistent/missing.obj"), garbage}) {
    loader.request_dropped({bad});
    loader.finish(*renderer);
    EXPECT_EQ(loader.current(), before) << bad;
    EXPECT_NE(loader.error().find(bad), std::string::npos) << "message names the file: " << loader.error();
    // The renderer still draws the previous model.
    Camera cam = Camera::framing(before->bounds, 1.0f);
    renderer->render(cam, RenderOptions{}, 32, 32);
    EXPECT_EQ(renderer->stats().triangles_in, before->triangle_count());
  }
}

TEST(ModelLoader, ADropWithoutAModelFileIsRefusedWithAMessage) {
  auto renderer = make_renderer(Backend::Cpu);
  ModelLoader loader;
  loader.request_dropped({"/tmp/picture.png"});
  EXPECT_FALSE(loader.busy());
  EXPECT_NE(loader.error().find("/tmp/picture.png"), std::string::npos);
  EXPECT_FALSE(loader.current());
}

TEST(ModelLoader, ADropOpensTheFirstModelFileWhateverItsFormat) {
  auto renderer = make_renderer(Backend::Cpu);
  ModelLoader loader;
  const std::string ply = write_temp_file("facet_viewer_triangle.PLY",
                                          "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\n"
                                          "property float y\nproperty float z\nelement face 1\n"
                                          "property list uchar int vertex_indices\nend_header\n"
                                          "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n");
  loader.request_dropped({"/tmp/picture.png", ply});
  loader.finish(*renderer);
  EXPECT_EQ(loader.error(), "");
  ASSERT_TRUE(loader.current());
  EXPECT_EQ(loader.current()->triangle_count(), 1u);
  EXPECT_EQ(loader.current_path(), ply);
}

TEST(ModelLoader, AnUploadThatFailsKeepsThePreviousModel) {
  // A renderer that accepts the first scene and refuses the next (as out of device memory would).
  struct RefusingRenderer : test::ForwardingRenderer {
    int scenes = 0;
    const char* name() const override { return "refusing"; }
    void set_scene(std::shared_ptr<const Scene> s) override {
      if (scenes++ > 0) throw std::runtime_error("out of device memory uploading the scene");
      cpu->set_scene(std::move(s));
    }
  } renderer;
  ModelLoader loader([](const std::string& p, const LoadOptions&) {
    Scene s = make_sphere(p == "small" ? 64 : 512);
    s.source = p;
    return s;
  });
  auto first = load_and_finish(loader, renderer, "small");
  ASSERT_TRUE(first);
  load_and_finish(loader, renderer, "large");
  EXPECT_EQ(loader.current(), first);
  EXPECT_NE(loader.error().find("out of device memory"), std::string::npos) << loader.error();
  EXPECT_NE(loader.error().find("large"), std::string::npos) << loader.error();
}

TEST(ModelLoader, LoadsInTheBackgroundWithProgressAndTheNewestRequestWins) {
  auto renderer = make_renderer(Backend::Cpu);
  std::atomic<bool> release{false};
  ModelLoader loader([&](const std::string& p, const LoadOptions& o) {
    if (o.progress) o.progress(0.5f, "reading");
    while (p == "slow" && !release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    Scene s = make_sphere(64);
    s.source = p;
    return s;
  });
  loader.request("slow");
  loader.request("skipped");
  loader.request("newest");
  // The frame loop goes on while "slow" loads: poll returns at once with nothing new.
  for (int frame = 0; frame < 5; ++frame) EXPECT_FALSE(loader.poll(*renderer));
  EXPECT_TRUE(loader.busy());
  while (loader.progress() < 0.5f) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_EQ(loader.stage(), "reading");
  release = true;
  loader.finish(*renderer);
  EXPECT_EQ(loader.current_path(), "newest");
  EXPECT_EQ(loader.models_installed(), 2);
}

// A load that waits until it is cancelled (or released), as a huge model would take its time.
struct SlowLoad {
  std::atomic<bool> release{false};
  std::atomic<bool> started{false};
  Scene operator()(const std::string& p, const LoadOptions& o) {
    if (p == "slow") {
      started = true;
      while (!release) {
        if (o.cancel && *o.cancel) throw LoadCancelled(p + ": cancelled");
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    }
    Scene s = make_sphere(p == "slow" ? 512 : 64);
    s.source = p;
    return s;
  }
};

TEST(ModelLoader, CancellingALoadLeavesThePreviousModelCurrent) {
  auto renderer = make_renderer(Backend::Cpu);
  SlowLoad slow;
  ModelLoader loader([&](const std::string& p, const LoadOptions& o) { return slow(p, o); });
  auto before = load_and_finish(loader, *renderer, "first");
  ASSERT_TRUE(before);
  loader.request("slow");
  loader.request("queued");  // dropped by the cancel too
  while (!slow.started) loader.poll(*renderer);
  loader.cancel();
  loader.finish(*renderer);
  EXPECT_EQ(loader.current(), before);
  EXPECT_EQ(loader.current_path(), "first");
  EXPECT_EQ(loader.models_installed(), 1);
  EXPECT_NE(loader.error().find("slow: cancelled"), std::string::npos) << loader.error();
}

TEST(ModelLoader, ThePreviousModelKeepsRenderingWhileALoadRuns) {
  auto renderer = make_renderer(Backend::Cpu);
  SlowLoad slow;
  ModelLoader loader([&](const std::string& p, const LoadOptions& o) { return slow(p, o); });
  auto before = load_and_finish(loader, *renderer, "first");
  ASSERT_TRUE(before);
  loader.request("slow");
  while (!slow.started) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const Camera cam = Camera::framing(before->bounds, 1.0f);
  std::vector<Rgba8> first_frame, frame;
  for (int f = 0; f < 10; ++f) {  // the frame loop: poll, then draw
    EXPECT_FALSE(loader.poll(*renderer));
    renderer->render(cam, RenderOptions{}, 32, 32);
    EXPECT_EQ(renderer->stats().triangles_in, before->triangle_count());
    renderer->read_rgba(f == 0 ? first_frame : frame);
    if (f > 0) {
      EXPECT_EQ(frame.size(), first_frame.size());
      EXPECT_EQ(std::memcmp(frame.data(), first_frame.data(), frame.size() * sizeof(Rgba8)), 0) << "frame " << f;
    }
  }
  EXPECT_TRUE(loader.busy());
  slow.release = true;
  loader.finish(*renderer);
  EXPECT_EQ(loader.current_path(), "slow");
}

TEST(ModelLoader, AFailedLoadAfterASuccessKeepsTheModelAndSaysWhy) {
  auto renderer = make_renderer(Backend::Cpu);
  ModelLoader loader([](const std::string& p, const LoadOptions&) -> Scene {
    if (p == "bad") throw LoadError(p + ": no triangles to show");
    return make_sphere(64);
  });
  auto before = load_and_finish(loader, *renderer, "good");
  load_and_finish(loader, *renderer, "bad");
  EXPECT_EQ(loader.current(), before);
  EXPECT_EQ(loader.error(), "bad: no triangles to show");
}

TEST(ModelLoader, AFrameShowsTheUploadingStageBeforeTheModelIsInstalled) {
  auto renderer = make_renderer(Backend::Cpu);
  ModelLoader loader([](const std::string&, const LoadOptions&) { return make_sphere(64); });
  loader.request("sphere");
  while (std::string(loader.status().stage) != "uploading") EXPECT_FALSE(loader.poll(*renderer));
  EXPECT_FALSE(loader.current());
  EXPECT_TRUE(loader.poll(*renderer));
  EXPECT_TRUE(loader.current());
}

// facet keeps memory freed on its main thread in the heap (memory_policy.h); a load that finds more
// than 256 MiB of it free hands it back to the system before the model is installed.
TEST(ModelLoader, FreedMemoryKeptInTheHeapGoesBackToTheSystemAfterALoad) {
#if defined(__SANITIZE_ADDRESS__) || !defined(__GLIBC__)
  GTEST_SKIP() << "malloc here is not glibc's: the policy has no effect";
#endif
  keep_freed_memory_for_reuse();
  const size_t bytes = size_t(384) << 20;  // a replaced scene's arrays, say
  char* freed = static_cast<char*>(std::malloc(bytes));
  ASSERT_NE(freed, nullptr);
  std::memset(freed, 1, bytes);
  asm volatile("" : : "r"(freed) : "memory");  // resident: the writes are not elided
  std::free(freed);
  const size_t held = mallinfo2().arena;
  ASSERT_GE(held, bytes) << "the freed block left the heap at once";
  auto renderer = make_renderer(Backend::Cpu);
  ModelLoader loader([](const std::string&, const LoadOptions&) { return make_sphere(64); });
  ASSERT_TRUE(load_and_finish(loader, *renderer, "sphere"));
  EXPECT_LT(mallinfo2().arena + (size_t(256) << 20), held) << "the freed memory stayed in the heap";
}

// XDG_CACHE_HOME pointed at a fresh folder for a scope: the loader's cache goes to its facet/.
struct CacheHome {
  std::string dir = ::testing::TempDir() + "facet_viewer_cache_" + std::to_string(getpid());
  std::string previous;
  bool had = false;
  CacheHome() {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    if (const char* v = std::getenv("XDG_CACHE_HOME")) previous = v, had = true;
    setenv("XDG_CACHE_HOME", dir.c_str(), 1);
  }
  ~CacheHome() {
    if (had)
      setenv("XDG_CACHE_HOME", previous.c_str(), 1);
    else
      unsetenv("XDG_CACHE_HOME");
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  std::vector<std::string> files() const {
    std::vector<std::string> out;
    if (std::filesystem::exists(dir + "/facet"))
      for (const auto& e : std::filesystem::directory_iterator(dir + "/facet")) out.push_back(e.path().string());
    return out;
  }
};

bool has_cache_warning(const std::vector<std::string>& warnings, const std::string& what) {
  for (const std::string& w : warnings)
    if (w.find(what) != std::string::npos) return true;
  return false;
}

TEST(ModelLoader, AFirstOpensCacheFileWrittenBehindIsWholeOnceTheLoaderIsGone) {
  CacheHome home;
  {
    auto renderer = make_renderer(Backend::Cpu);
    ModelLoader loader;
    loader.set_use_cache(true);
    ASSERT_TRUE(load_and_finish(loader, *renderer, kSpot)) << loader.error();
  }  // the destructor waits for the write
  const std::vector<std::string> files = home.files();
  ASSERT_EQ(files.size(), 1u) << "one file, no temporary left";
  LoadOptions options;
  options.use_cache = true;
  options.cache_dir = home.dir + "/facet";
  EXPECT_FALSE(has_cache_warning(load_model(kSpot, options).warnings, "scene cache"));
}

TEST(ModelLoader, AFailedCacheWriteJoinsTheModelsWarnings) {
  CacheHome home;
  std::ofstream(home.dir + "/facet") << "not a folder";
  auto renderer = make_renderer(Backend::Cpu);
  ModelLoader loader;
  loader.set_use_cache(true);
  ASSERT_TRUE(load_and_finish(loader, *renderer, kSpot)) << loader.error();
  while (loader.writing_cache()) {
    loader.poll(*renderer);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_TRUE(has_cache_warning(loader.warnings(), "scene cache not written"));
  EXPECT_TRUE(loader.error().empty());
}

}  // namespace
}  // namespace facet
