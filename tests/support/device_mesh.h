// A scene's positions (inside the shading records, as the renderer sends them) and indices in
// device memory, for the gpu tests of the load's device steps (the closed-surface check, the
// Morton sort), which read what Renderer::upload_ahead sent.
#pragma once
#include <vector>

#include "engine/cuda/device_buffer.h"
#include "engine/scene/scene.h"
#include "kernels/base/cuda_check.h"

namespace facet::test {

struct DeviceMesh {
  explicit DeviceMesh(const Scene& s) : indices(s.indices.size(), "test indices") {
    const std::vector<ShadeVertex> shade = interleave_shade_vertices(s);
    vertices.upload(shade, "test vertices");
    if (!s.indices.empty())
      FACET_CUDA_CHECK(cudaMemcpy(indices.data(), s.indices.data(), s.indices.size() * 4, cudaMemcpyHostToDevice));
  }
  DeviceBuffer<ShadeVertex> vertices;
  DeviceBuffer<uint32_t> indices;
};

}  // namespace facet::test
