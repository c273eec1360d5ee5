// The closed-surface check (closed_surface.h) on the device, for a scene whose positions and
// indices are there already (Renderer::upload_ahead): a load that hands it to the GPU saves the
// CPU's pass (a long one on every core for the largest models) while the CPU builds the meshlets.
// The same answer as closed_outward bit for bit (the same steps and math: kernels/prepare/closed_math.h).
#pragma once
#include <cstdint>

#include "kernels/frame/params.h"

namespace facet {

// Whether the triangles (indices, [3 * triangle_count], device memory) over the vertices
// ([vertex_count], device memory) form a closed surface facing outward, the volumes taken about
// `centre` (compute_bounds(positions).center). Throws when device memory runs out or a CUDA call
// fails; the caller then asks the CPU.
bool closed_outward_on_device(const ShadeVertex* vertices, uint32_t vertex_count, const uint32_t* indices,
                              uint64_t triangle_count, const Vec3& centre);

}  // namespace facet
