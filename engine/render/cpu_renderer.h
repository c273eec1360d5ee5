// The CPU backend: the same stage functions as the CUDA kernels (kernels/*.h), run over all
// cores. It is the reference the CUDA output is tested against and the fallback without a GPU.
#pragma once
#include <atomic>
#include <memory>

#include "engine/meshlets/meshlets.h"
#include "engine/render/option_names.h"
#include "engine/render/renderer.h"

namespace facet {

class CpuRenderer final : public Renderer {
 public:
  const char* name() const override { return name_of(Backend::Cpu); }
  // None: frames on the host, finished when render returns; the scene is read where it lies.
  BackendCapabilities capabilities() const override { return {}; }
  // Runs in file order (scene.h says why); a scene prepared with patches draws the same image.
  MeshletGrouping meshlet_grouping() const override { return MeshletGrouping::FileOrder; }
  void set_scene(std::shared_ptr<const Scene> scene) override;
  void render(const Camera& camera, const RenderOptions& settings, int width, int height,
              const FrameTarget& target = {}) override;
  void read_rgba(std::vector<Rgba8>& out) override { out = m_rgba; }
  void read_triangle_ids(std::vector<uint32_t>& out) override;
  void read_outputs(const FrameOutputs& out) override;
  FrameStats stats() const override { return m_stats; }
  PixelHit pick(int x, int y) override;

  // The CPU backend draws only into its own buffer: a surface target is ignored, a device
  // target refused (std::invalid_argument).
  void render(const FrameParams& params, const FrameTarget& target = {}) override;
  // The visibility buffer of the last frame: (depth bits << 32 | triangle), fp.samples keys a
  // pixel, sample-major (kernels/frame/raster/raster.h, vis_index).
  const BigVector<uint64_t>& visibility() const { return m_vis; }

 private:
  std::shared_ptr<const Scene> m_scene;
  std::vector<ShadeVertex> m_shade;            // the scene's vertices interleaved for resolve
  std::shared_ptr<const Meshlets> m_meshlets;  // the scene's triangles in meshlets, cull bounds
  // Both grown unwritten (big_vector.h): every frame writes them whole, on every core.
  BigVector<ProjectedVertex> m_projected;  // the vertex stage's output, last frame
  BigVector<uint64_t> m_vis;               // visibility buffer, width * height * samples
  std::vector<Rgba8> m_rgba;               // shaded frame
  int m_width = 0, m_height = 0;
  uint32_t m_tag = 3;    // the last frame's visibility tag
  FrameParams m_last{};  // the last frame's parameters (read_outputs)
  FrameStats m_stats;
};

}  // namespace facet
