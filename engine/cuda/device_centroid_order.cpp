// centroid_order_on_device (device_centroid_order.h): codes and sort on a stream of their own
// (kernels/prepare/centroid_order.cu), the order read back into a host array faulted in meanwhile.
// Device memory for the load's moment: 16 bytes a triangle and the sort's scratch.
#include "engine/cuda/device_centroid_order.h"

#include <climits>
#include <stdexcept>

#include "engine/base/big_array.h"
#include "engine/base/step_timing.h"
#include "engine/cuda/device_buffer.h"
#include "engine/cuda/own_stream.h"
#include "kernels/base/cuda_check.h"
#include "kernels/prepare/centroid_order_launch.h"

namespace facet {

namespace {

// code_grid's grid, from the box of the finite positions found on the device.
CodeGrid device_code_grid(const ShadeVertex* vertices, uint32_t vertex_count, const OwnStream& stream) {
  DeviceBuffer<uint32_t> box(6, "the Morton sort's box");
  const uint32_t start[6] = {~0u, ~0u, ~0u, 0u, 0u, 0u};
  FACET_CUDA_CHECK(cudaMemcpyAsync(box.data(), start, sizeof(start), cudaMemcpyHostToDevice, stream));
  launch_finite_box(vertices, vertex_count, box.data(), stream);
  uint32_t found[6];
  FACET_CUDA_CHECK(cudaMemcpyAsync(found, box.data(), sizeof(found), cudaMemcpyDeviceToHost, stream));
  stream.sync();
  if (found[0] == ~0u) return code_grid_of_box({0, 0, 0}, {0, 0, 0});  // none finite: compute_bounds' zeros
  return code_grid_of_box({from_ordered_bits(found[0]), from_ordered_bits(found[1]), from_ordered_bits(found[2])},
                          {from_ordered_bits(found[3]), from_ordered_bits(found[4]), from_ordered_bits(found[5])});
}

}  // namespace

std::unique_ptr<uint32_t[]> centroid_order_on_device(const ShadeVertex* vertices, uint32_t vertex_count,
                                                     const uint32_t* indices, uint64_t triangle_count) {
  // CUB's sort counts its items in an int.
  if (triangle_count > (uint64_t)INT_MAX) throw std::length_error("too many triangles for the device's sort");
  StepTimer timer("meshlets");
  const uint32_t n = (uint32_t)triangle_count;
  if (n == 0) return uninitialized_array<uint32_t>(0);
  OwnStream stream;
  CentroidOrderArrays a;
  a.vertices = vertices;
  a.vertex_count = vertex_count;
  a.indices = indices;
  a.triangle_count = n;
  DeviceBuffer<uint32_t> codes0(n, "the Morton sort's codes"), codes1(n, "the Morton sort's codes");
  DeviceBuffer<uint32_t> order0(n, "the Morton sort's order"), order1(n, "the Morton sort's order");
  a.scratch_bytes = centroid_order_scratch_bytes(n);
  DeviceBuffer<unsigned char> scratch(a.scratch_bytes, "the Morton sort's scratch");
  a.codes[0] = codes0.data();
  a.codes[1] = codes1.data();
  a.order[0] = order0.data();
  a.order[1] = order1.data();
  a.scratch = scratch.data();
  const int k = launch_centroid_order(a, device_code_grid(vertices, vertex_count, stream), stream);
  // While the device sorts: the host array's pages, on every core, so that the copy back runs at
  // the bus's rate rather than fault by fault on the copying thread (85 K faults at 87 M).
  std::unique_ptr<uint32_t[]> order = uninitialized_array<uint32_t>(n);
  fault_in_on_every_core(order.get(), (size_t)n * sizeof(uint32_t));
  timer.step("device sort");
  FACET_CUDA_CHECK(
      cudaMemcpyAsync(order.get(), a.order[k], (size_t)n * sizeof(uint32_t), cudaMemcpyDeviceToHost, stream));
  stream.sync();
  timer.step("device read back");
  return order;
}

}  // namespace facet
