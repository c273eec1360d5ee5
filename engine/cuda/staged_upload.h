// Host-to-device copies of big arrays at the bus's speed. cudaMemcpy from pageable memory goes
// through the driver's own small staging on one thread (a few GB/s); here the source is copied,
// on every core, into a few pinned buffers, each sent with cudaMemcpyAsync while the next one is
// filled (events say when a buffer is free again). The source is written by a fill function, so a
// derived array (interleaved vertices) goes straight into the staging buffers with no host copy
// of its own. Small arrays take plain cudaMemcpy: pinning costs more than it saves there.
// It allocates no device memory of its own: the destination is a DeviceBuffer.
#pragma once
#include <cstddef>
#include <functional>
#include <vector>

#include "engine/cuda/device_buffer.h"

namespace facet {

// Bytes of one pinned staging buffer: each transfer long enough to run at the full bus rate and
// each parallel fill long enough to spread over 16 cores, while pinning all of them takes ms.
constexpr size_t kStageBytes = size_t(32) << 20;
// Staging buffers: one filling, one in flight, one spare so a slow fill or transfer does not stall.
constexpr int kStageBuffers = 3;
// Bytes each core copies per parallel_for piece of a fill.
constexpr size_t kStageSliceBytes = size_t(1) << 20;
// Arrays below this go by plain cudaMemcpy (no pinned buffers allocated for a small model).
constexpr size_t kStagedMinBytes = size_t(4) << 20;

// fill(host, begin, end): writes source elements [begin, end) to host[0 .. end - begin). Called
// from several threads at once, for disjoint ranges.
using StageFill = std::function<void(void* host, size_t begin, size_t end)>;

// memcpy into a staging buffer with non-temporal stores: no core reads the buffer again (the
// copy engine does), so its lines are written without being read first. A plain memcpy of
// pieces this size reads every destination line before writing it, a third more memory traffic,
// and the fill, not the bus, is what bounds the upload (docs/performance.md). Ends with a store
// fence: the bytes are visible to the transfer queued after the fill.
void copy_to_stage(void* host, const void* src, size_t bytes);

class StagedUpload {
 public:
  StagedUpload() = default;
  ~StagedUpload();  // waits for transfers still in flight, then frees what it allocated
  StagedUpload(const StagedUpload&) = delete;
  StagedUpload& operator=(const StagedUpload&) = delete;

  // Copies `count` elements of `element_bytes` each, as `fill` writes them, to `device`; returns
  // once they are all there.
  void copy(void* device, size_t count, size_t element_bytes, const StageFill& fill);

  // `dst` resized to `count` elements (out of memory: DeviceBuffer's error naming `what`), then
  // filled from `fill`.
  template <class T>
  void upload(DeviceBuffer<T>& dst, size_t count, const char* what, const StageFill& fill) {
    dst.allocate(count, what);
    copy(dst.data(), count, sizeof(T), fill);
  }
  template <class T>
  void upload(DeviceBuffer<T>& dst, const T* src, size_t count, const char* what) {
    upload(dst, count, what, [src](void* host, size_t begin, size_t end) {
      copy_to_stage(host, src + begin, (end - begin) * sizeof(T));
    });
  }
  template <class T, class A>
  void upload(DeviceBuffer<T>& dst, const std::vector<T, A>& src, const char* what) {
    upload(dst, src.data(), src.size(), what);
  }

 private:
  void start();  // the pinned buffers, stream and events, at the first big array
  void copy_direct(void* device, size_t count, size_t element_bytes, const StageFill& fill);
  void fill_stage(int stage, size_t first, size_t count, size_t element_bytes, const StageFill& fill);

  cudaStream_t m_stream = nullptr;
  void* m_host[kStageBuffers] = {};
  cudaEvent_t m_free[kStageBuffers] = {};  // recorded after each buffer's transfer
};

}  // namespace facet
