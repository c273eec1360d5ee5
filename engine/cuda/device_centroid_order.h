// The patch meshlets' Morton order (meshlet_ranges.h) on the device, for a scene whose positions
// and indices are there already (Renderer::upload_ahead): on the largest models the CPU's sort is
// a long pass of every core on the load's critical path, the device's sort and the read back of 4
// bytes a triangle much shorter (docs/performance.md). The same array as the CPU's, element for
// element (the same codes, kernels/prepare/centroid_code.h, and a stable sort).
#pragma once
#include <cstdint>
#include <memory>

#include "kernels/frame/params.h"

namespace facet {

// The triangles (indices, [3 * triangle_count], device memory, each below vertex_count) sorted by
// the Morton code of their centroid on the CPU's grid (code_grid_of_box over the finite positions,
// found here from the vertices, device memory) and by index, in host memory. Throws when device
// memory runs out, a CUDA call fails, or there are 2^31 triangles or more; the caller then sorts on
// the CPU.
std::unique_ptr<uint32_t[]> centroid_order_on_device(const ShadeVertex* vertices, uint32_t vertex_count,
                                                     const uint32_t* indices, uint64_t triangle_count);

}  // namespace facet
