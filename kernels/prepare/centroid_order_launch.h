// The launcher of the device's Morton sort of triangles (centroid_order.cu), for the engine's
// device order (engine/cuda/device_centroid_order.h), which owns the arrays.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/frame/params.h"
#include "kernels/prepare/centroid_code.h"

namespace facet {

// The device arrays the sort reads and writes; every pointer is device memory.
struct CentroidOrderArrays {
  const ShadeVertex* vertices = nullptr;  // [vertex_count]: the positions, as resolve reads them
  uint32_t vertex_count = 0;
  const uint32_t* indices = nullptr;  // [3 * triangle_count], each below vertex_count
  uint32_t triangle_count = 0;
  uint32_t* codes[2] = {nullptr, nullptr};  // [triangle_count] each: the codes, sorted in turns
  uint32_t* order[2] = {nullptr, nullptr};  // [triangle_count] each: the triangles, likewise
  void* scratch = nullptr;                  // the sort's, centroid_order_scratch_bytes
  size_t scratch_bytes = 0;
};

// The box of the finite positions into box[0..5]: the ordered bits (ordered_bits) of the least
// x, y, z, then of the greatest; set by the caller to ~0u for the least and 0 for the greatest
// first, and left so when no position is finite. For the grid of the codes (code_grid_of_box).
void launch_finite_box(const ShadeVertex* vertices, uint32_t vertex_count, uint32_t* box, cudaStream_t stream);

// A float's bits turned so that unsigned order is the floats' order (-0 before +0), and back.
FACET_HD uint32_t ordered_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u & 0x80000000u ? ~u : u | 0x80000000u;
}
FACET_HD float from_ordered_bits(uint32_t u) {
  u = u & 0x80000000u ? u & 0x7fffffffu : ~u;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

// Scratch the sort needs beyond the four arrays for `triangle_count` triangles.
size_t centroid_order_scratch_bytes(uint32_t triangle_count);

// The triangles sorted by (centroid_code, index), the CPU's order (engine/meshlets/meshlet_ranges.cpp), into
// a.order[k]; returns k. Asynchronous on `stream`; throws when a launch fails.
int launch_centroid_order(const CentroidOrderArrays& a, const CodeGrid& grid, cudaStream_t stream);

}  // namespace facet
