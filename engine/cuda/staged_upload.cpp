// StagedUpload: pinned staging buffers filled on every core, sent double-buffered on one stream.
#include "engine/cuda/staged_upload.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "engine/base/parallel.h"

namespace facet {

void copy_to_stage(void* host, const void* src, size_t bytes) {
#if defined(__SSE2__)
  auto* out = static_cast<unsigned char*>(host);
  auto* in = static_cast<const unsigned char*>(src);
  const size_t head = std::min(bytes, (size_t)((16 - (uintptr_t)out % 16) % 16));
  std::memcpy(out, in, head);  // up to the first 16-byte boundary of the destination
  size_t done = head;
  for (; done + 64 <= bytes; done += 64) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + done));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + done + 16));
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + done + 32));
    const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + done + 48));
    _mm_stream_si128(reinterpret_cast<__m128i*>(out + done), a);
    _mm_stream_si128(reinterpret_cast<__m128i*>(out + done + 16), b);
    _mm_stream_si128(reinterpret_cast<__m128i*>(out + done + 32), c);
    _mm_stream_si128(reinterpret_cast<__m128i*>(out + done + 48), d);
  }
  std::memcpy(out + done, in + done, bytes - done);
  _mm_sfence();
#else
  std::memcpy(host, src, bytes);
#endif
}

StagedUpload::~StagedUpload() {
  if (m_stream) FACET_CUDA_CHECK_NOTHROW(cudaStreamSynchronize(m_stream));
  for (int i = 0; i < kStageBuffers; ++i) {
    if (m_free[i]) FACET_CUDA_CHECK_NOTHROW(cudaEventDestroy(m_free[i]));
    if (m_host[i]) FACET_CUDA_CHECK_NOTHROW(cudaFreeHost(m_host[i]));
  }
  if (m_stream) FACET_CUDA_CHECK_NOTHROW(cudaStreamDestroy(m_stream));
}

void StagedUpload::start() {
  // Only what is still missing: after a failure part way (no pinned memory), nothing leaks and
  // nothing is used half made.
  // Non-blocking: the copies need not wait for other streams' work, and copy() waits for them.
  if (!m_stream) FACET_CUDA_CHECK(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking));
  for (int i = 0; i < kStageBuffers; ++i) {
    if (!m_host[i]) FACET_CUDA_CHECK(cudaMallocHost(&m_host[i], kStageBytes));
    if (!m_free[i]) FACET_CUDA_CHECK(cudaEventCreateWithFlags(&m_free[i], cudaEventDisableTiming));
  }
}

void StagedUpload::copy_direct(void* device, size_t count, size_t element_bytes, const StageFill& fill) {
  std::vector<unsigned char> host(count * element_bytes);
  fill(host.data(), 0, count);
  FACET_CUDA_CHECK(cudaMemcpy(device, host.data(), host.size(), cudaMemcpyHostToDevice));
}

void StagedUpload::fill_stage(int stage, size_t first, size_t count, size_t element_bytes, const StageFill& fill) {
  unsigned char* host = static_cast<unsigned char*>(m_host[stage]);
  const size_t per_slice = std::max<size_t>(1, kStageSliceBytes / element_bytes);
  parallel_for(count, per_slice, [&](uint64_t begin, uint64_t end, unsigned) {
    fill(host + begin * element_bytes, first + begin, first + end);
  });
}

void StagedUpload::copy(void* device, size_t count, size_t element_bytes, const StageFill& fill) {
  if (count == 0) return;
  // Small arrays, and elements too large for a staging buffer (none today), go directly.
  if (count * element_bytes < kStagedMinBytes || element_bytes > kStageBytes)
    return copy_direct(device, count, element_bytes, fill);
  start();
  unsigned char* out = static_cast<unsigned char*>(device);
  const size_t per_stage = kStageBytes / element_bytes;
  int stage = 0;
  for (size_t first = 0; first < count; first += per_stage, stage = (stage + 1) % kStageBuffers) {
    const size_t n = std::min(per_stage, count - first);
    // The buffer's previous transfer must be over before it is written again (an event never
    // recorded counts as complete).
    FACET_CUDA_CHECK(cudaEventSynchronize(m_free[stage]));
    fill_stage(stage, first, n, element_bytes, fill);
    FACET_CUDA_CHECK(cudaMemcpyAsync(out + first * element_bytes, m_host[stage], n * element_bytes,
                                     cudaMemcpyHostToDevice, m_stream));
    FACET_CUDA_CHECK(cudaEventRecord(m_free[stage], m_stream));
  }
  // Like cudaMemcpy: the array is on the device when this returns, whichever stream reads it.
  FACET_CUDA_CHECK(cudaStreamSynchronize(m_stream));
}

}  // namespace facet
