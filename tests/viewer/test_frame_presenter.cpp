// The present path on the GL side (app/viewer/window/frame_presenter.h), in an EGL offscreen context with
// the CPU backend: after many resizes the frame on screen is still exactly the renderer's image
// (row 0 = top), and GL reports no error.
#include <gtest/gtest.h>

#include "app/gl/gl_objects.h"
#include "app/viewer/window/frame_presenter.h"
#include "app/viewer/window/host.h"
#include "engine/scene/generate.h"

namespace facet {
namespace {

TEST(FramePresenter, ShowsTheRenderersPixelsExactlyAfterTwoHundredResizes) {
  const int w = 64, h = 48;
  std::unique_ptr<Host> host;
  try {
    host = make_offscreen_host(w, h);
  } catch (const std::exception& e) {
    FAIL() << "OpenGL through EGL unavailable: " << e.what();
  }
  auto renderer = make_renderer(Backend::Cpu);
  auto scene = std::make_shared<Scene>(make_sphere(200));
  renderer->set_scene(scene);
  Camera cam = Camera::framing(scene->bounds, (float)w / h);
  // A camera off-centre so that the image is not symmetric top to bottom.
  cam.target.y += 0.3f;
  {
    FramePresenter presenter(/*try_interop=*/false);
    for (int i = 0; i < 200; ++i)
      presenter.render(*renderer, cam, RenderOptions{}, 16 + (i * 37) % 200, 16 + (i * 53) % 150);
    presenter.render(*renderer, cam, RenderOptions{}, w, h);
    host->bind_framebuffer();
    presenter.present(w, h);
    EXPECT_NO_THROW(gl_check_errors("present after resizes"));

    std::vector<Rgba8> expected, shown((size_t)w * h);
    renderer->read_rgba(expected);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, shown.data());
    size_t differing = 0;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        Rgba8 e = expected[(size_t)y * w + x], s = shown[(size_t)(h - 1 - y) * w + x];  // GL row 0 = bottom
        differing += e.r != s.r || e.g != s.g || e.b != s.b;
      }
    EXPECT_EQ(differing, 0u);
  }  // GL objects go before the context
}

}  // namespace
}  // namespace facet
