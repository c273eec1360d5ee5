// closed_outward_on_device (device_closed_check.h): the steps of closed_check.cu on a stream of
// their own, the balance read back first (an open mesh, most scans, stops there), then the
// volume runs read back and added up piece by piece on the host exactly as the CPU check does
// (every_piece_positive). The temporary arrays are freed on return: at most 12 bytes a triangle
// (its piece and volume) and 4 a vertex (its weld id), and before them the weld's table, 8 to 16
// bytes a vertex.
#include "engine/cuda/device_closed_check.h"

#include <stdexcept>
#include <vector>

#include "engine/base/step_timing.h"
#include "engine/cuda/device_buffer.h"
#include "engine/cuda/own_stream.h"
#include "engine/scene/closed_surface.h"
#include "kernels/base/cuda_check.h"
#include "kernels/frame/tuning.h"
#include "kernels/prepare/closed_check_launch.h"
#include "kernels/prepare/closed_math.h"

namespace facet {

namespace {

template <class T>
std::vector<T> download(const T* device, size_t count, const OwnStream& stream) {
  std::vector<T> host(count);
  if (count) FACET_CUDA_CHECK(cudaMemcpyAsync(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost, stream));
  stream.sync();
  return host;
}

uint32_t table_mask_for(uint32_t vertices) {
  uint64_t size = 1024;
  while (size < kWeldSlotsPerVertex * (uint64_t)vertices) size *= 2;
  // A table past 2^32 slots has no 32-bit mask: the CPU checks such a model.
  if (size > (uint64_t(1) << 32)) throw std::length_error("too many vertices for the device's closed-surface check");
  return (uint32_t)(size - 1);
}

// The volume runs of every block, in block order.
std::vector<PieceRun> volume_runs(const ClosedCheckArrays& a, const OwnStream& stream) {
  const uint64_t blocks = (a.triangle_count + kClosedVolumeBlock - 1) / kClosedVolumeBlock;
  DeviceBuffer<uint32_t> counts(blocks, "the closed-surface check's run counts");
  launch_count_runs(a, counts.data(), stream);
  FACET_CUDA_CHECK(cudaGetLastError());
  const std::vector<uint32_t> count = download(counts.data(), blocks, stream);
  std::vector<uint64_t> first(blocks);
  uint64_t runs = 0;
  for (uint64_t b = 0; b < blocks; ++b) first[b] = runs, runs += count[b];
  DeviceBuffer<uint64_t> first_run(blocks, "the closed-surface check's run places");
  FACET_CUDA_CHECK(
      cudaMemcpyAsync(first_run.data(), first.data(), blocks * sizeof(uint64_t), cudaMemcpyHostToDevice, stream));
  DeviceBuffer<uint32_t> run_piece(runs, "the closed-surface check's runs");
  DeviceBuffer<double> run_volume(runs, "the closed-surface check's runs");
  launch_sum_runs(a, first_run.data(), run_piece.data(), run_volume.data(), stream);
  FACET_CUDA_CHECK(cudaGetLastError());
  const std::vector<uint32_t> piece = download(run_piece.data(), runs, stream);
  const std::vector<double> volume = download(run_volume.data(), runs, stream);
  std::vector<PieceRun> out(runs);
  for (uint64_t r = 0; r < runs; ++r) out[r] = {piece[r], volume[r]};
  return out;
}

}  // namespace

bool closed_outward_on_device(const ShadeVertex* vertices, uint32_t vertex_count, const uint32_t* indices,
                              uint64_t triangle_count, const Vec3& centre) {
  if (triangle_count == 0) return false;
  StepTimer timer("closed");
  OwnStream stream;
  ClosedCheckArrays a;
  a.vertices = vertices;
  a.vertex_count = vertex_count;
  a.indices = indices;
  a.triangle_count = triangle_count;
  DeviceBuffer<uint32_t> parent(vertex_count, "the closed-surface check's weld");
  DeviceBuffer<unsigned long long> balance(3, "the closed-surface check's sums");
  a.parent = parent.data();
  a.balance = balance.data();
  {
    a.table_mask = table_mask_for(vertex_count);
    DeviceBuffer<uint32_t> table((uint64_t)a.table_mask + 1, "the closed-surface check's weld table");
    a.table = table.data();
    launch_weld(a, stream);
    FACET_CUDA_CHECK(cudaGetLastError());
    FACET_CUDA_CHECK(cudaMemsetAsync(a.balance, 0, 3 * sizeof(unsigned long long), stream));
    launch_edge_balance(a, stream);
    FACET_CUDA_CHECK(cudaGetLastError());
    stream.sync();  // before the table goes
    a.table = nullptr;
  }
  const std::vector<unsigned long long> sums = download(a.balance, 3, stream);
  timer.step("device weld, edges");
  if (sums[0] != 0 || sums[1] != 0 || sums[2] != 0) return false;
  launch_link_pieces(a, stream);
  FACET_CUDA_CHECK(cudaGetLastError());
  DeviceBuffer<uint32_t> piece(triangle_count, "the closed-surface check's pieces");
  DeviceBuffer<double> volume(triangle_count, "the closed-surface check's volumes");
  a.piece = piece.data();
  a.volume = volume.data();
  launch_triangle_volumes(a, centre.x, centre.y, centre.z, stream);
  FACET_CUDA_CHECK(cudaGetLastError());
  const bool outward = every_piece_positive(volume_runs(a, stream), vertex_count);
  timer.step("device pieces, volumes");
  return outward;
}

}  // namespace facet
