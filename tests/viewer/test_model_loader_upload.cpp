// The viewer's upload beside the frames (ModelLoader::set_upload_renderer): a finished load is
// sent whole to the renderer on the load's own thread, before poll installs it with set_scene;
// a failed send still installs the model (set_scene sends it again); without an upload renderer
// nothing is sent ahead. Driven with a renderer that records what it is asked, over the CPU one.
#include <gtest/gtest.h>

#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "app/viewer/model_loader.h"
#include "engine/generate.h"
#include "tests/viewer/forwarding_renderer.h"

namespace facet {
namespace {

// The CPU renderer, with every upload_ahead and set_scene written down in order.
struct RecordingRenderer : test::ForwardingRenderer {
  struct Ahead {
    const Scene* scene;
    UploadPart part;
    std::thread::id thread;
    int set_scenes_before;  // set_scene calls made before this one
  };
  std::mutex mutex;
  std::vector<Ahead> aheads;
  int set_scenes = 0;
  bool refuse_ahead = false;

  const char* name() const override { return "recording"; }
  void upload_ahead(const Scene& s, UploadPart part) override {
    std::lock_guard<std::mutex> lock(mutex);
    aheads.push_back({&s, part, std::this_thread::get_id(), set_scenes});
    if (refuse_ahead) throw std::runtime_error("out of device memory");
  }
  void set_scene(std::shared_ptr<const Scene> s) override {
    {
      std::lock_guard<std::mutex> lock(mutex);
      ++set_scenes;
    }
    cpu->set_scene(std::move(s));
  }
};

ModelLoader sphere_loader() {
  return ModelLoader([](const std::string& p, const LoadOptions&) {
    Scene s = make_sphere(256);
    s.source = p;
    return s;
  });
}

TEST(ModelLoaderUpload, AFinishedLoadIsSentWholeOnItsOwnThreadBeforeItIsInstalled) {
  RecordingRenderer renderer;
  ModelLoader loader = sphere_loader();
  loader.set_upload_renderer(&renderer);
  loader.request("sphere");
  loader.finish(renderer);
  ASSERT_TRUE(loader.current());
  ASSERT_EQ(renderer.aheads.size(), 1u);
  const RecordingRenderer::Ahead& a = renderer.aheads.front();
  EXPECT_EQ(a.scene, loader.current().get());  // the scene installed, not a copy
  EXPECT_EQ(a.part, UploadPart::Whole);
  EXPECT_NE(a.thread, std::this_thread::get_id());
  EXPECT_EQ(a.set_scenes_before, 0);
  EXPECT_EQ(renderer.set_scenes, 1);
}

TEST(ModelLoaderUpload, AFailedSendStillInstallsTheModelWithoutAnError) {
  RecordingRenderer renderer;
  renderer.refuse_ahead = true;
  ModelLoader loader = sphere_loader();
  loader.set_upload_renderer(&renderer);
  loader.request("sphere");
  loader.finish(renderer);
  EXPECT_TRUE(loader.current());
  EXPECT_EQ(renderer.aheads.size(), 1u);
  EXPECT_EQ(renderer.set_scenes, 1);
  EXPECT_TRUE(loader.error().empty()) << loader.error();
}

TEST(ModelLoaderUpload, WithoutAnUploadRendererNothingIsSentAhead) {
  RecordingRenderer renderer;
  ModelLoader loader = sphere_loader();
  loader.request("sphere");
  loader.finish(renderer);
  EXPECT_TRUE(loader.current());
  EXPECT_TRUE(renderer.aheads.empty());
  EXPECT_EQ(renderer.set_scenes, 1);
}

}  // namespace
}  // namespace facet
