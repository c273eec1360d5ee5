// Label gpu: the viewer's device memory comes back to where it started after 200 resizes (each
// re-registering the interop texture) and after 50 model loads, each installed while frames of
// the model before go on, as in the viewer. Skips, saying why, without a CUDA device.
// Tolerance: 2 MiB, the granularity cudaMemGetInfo reports in.
#include <gtest/gtest.h>

#include "app/viewer/controls/model_loader.h"
#include "app/viewer/window/cuda_interop.h"
#include "app/viewer/window/frame_presenter.h"
#include "app/viewer/window/host.h"
#include "tests/support/gpu_skip.h"

namespace facet {
namespace {

constexpr size_t kToleranceBytes = 2u << 20;
const std::string kSpot = std::string(FACET_ASSETS) + "/spot/spot_triangulated_with_mtl.obj";

size_t device_used() {
  size_t bytes = 0;
  EXPECT_TRUE(cuda_device_memory_used(&bytes));
  return bytes;
}

class ViewerMemory : public ::testing::Test {
 protected:
  void SetUp() override {
    FACET_SKIP_WITHOUT_CUDA();
    m_host = make_offscreen_host(64, 64);  // the GL context the interop texture lives in
    m_renderer = make_renderer(Backend::Cuda);
    m_loader.request(kSpot);
    m_loader.finish(*m_renderer);
    ASSERT_TRUE(m_loader.current()) << m_loader.error();
  }
  std::unique_ptr<Host> m_host;
  std::unique_ptr<Renderer> m_renderer;
  ModelLoader m_loader;
};

TEST_F(ViewerMemory, ResizingTwoHundredTimesReturnsDeviceMemoryToStart) {
  FramePresenter presenter(/*try_interop=*/true);
  Camera cam = Camera::framing(m_loader.current()->bounds, 4.0f / 3.0f);
  // The largest size first, so that scratch buffers that grow to the largest frame seen are in
  // the starting level.
  presenter.render(*m_renderer, cam, RenderOptions{}, 640, 480);
  presenter.render(*m_renderer, cam, RenderOptions{}, 320, 240);
  const size_t start = device_used();
  for (int i = 0; i < 200; ++i)
    presenter.render(*m_renderer, cam, RenderOptions{}, 160 + (i * 37) % 480, 120 + (i * 53) % 360);
  presenter.render(*m_renderer, cam, RenderOptions{}, 320, 240);
  EXPECT_TRUE(presenter.interop_live()) << presenter.path();
  EXPECT_GE(presenter.registrations(), 200);
  EXPECT_LE(device_used(), start + kToleranceBytes);
}

TEST_F(ViewerMemory, LoadingFiftyModelsReturnsDeviceMemoryToStart) {
  Camera cam = Camera::framing(m_loader.current()->bounds, 4.0f / 3.0f);
  FramePresenter presenter(true);
  presenter.render(*m_renderer, cam, RenderOptions{}, 320, 240);
  const size_t start = device_used();
  int frames_while_loading = 0;
  for (int i = 0; i < 50; ++i) {
    m_loader.request(kSpot);
    while (m_loader.busy()) {  // the frame loop: frames of the model on screen while the next loads
      m_loader.poll(*m_renderer);
      presenter.render(*m_renderer, cam, RenderOptions{}, 320, 240);
      ++frames_while_loading;
    }
    presenter.render(*m_renderer, cam, RenderOptions{}, 320, 240);
  }
  EXPECT_GE(frames_while_loading, 50);
  EXPECT_EQ(m_loader.models_installed(), 51);
  EXPECT_LE(device_used(), start + kToleranceBytes);
}

}  // namespace
}  // namespace facet
