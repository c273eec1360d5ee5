// A Renderer for the viewer's tests that draws with the CPU backend and lets a test override
// what it wants to watch or refuse (set_scene, upload_ahead).
#pragma once
#include <memory>
#include <vector>

#include "engine/render/renderer.h"

namespace facet::test {

struct ForwardingRenderer : Renderer {
  std::unique_ptr<Renderer> cpu = make_renderer(Backend::Cpu);
  BackendCapabilities capabilities() const override { return cpu->capabilities(); }
  void set_scene(std::shared_ptr<const Scene> s) override { cpu->set_scene(std::move(s)); }
  void render(const Camera& c, const RenderOptions& s, int w, int h, const FrameTarget& t) override {
    cpu->render(c, s, w, h, t);
  }
  void render(const FrameParams& fp, const FrameTarget& t) override { cpu->render(fp, t); }
  void read_rgba(std::vector<Rgba8>& out) override { cpu->read_rgba(out); }
  void read_triangle_ids(std::vector<uint32_t>& out) override { cpu->read_triangle_ids(out); }
  FrameStats stats() const override { return cpu->stats(); }
};

}  // namespace facet::test
