// RAII owner of a device allocation. Running out of memory is an error that names what was being
// allocated and how much, and leaves the previous allocation untouched.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kernels/base/cuda_check.h"

namespace facet {

// What a DeviceBuffer throws when the device has no room, apart from other failures: a way that
// needs less memory (DeviceScene's host route) can be taken instead.
struct DeviceOutOfMemory : std::runtime_error {
  using std::runtime_error::runtime_error;
};

[[noreturn]] void throw_out_of_device_memory(const char* what, size_t bytes, cudaError_t e);

// Bytes DeviceBuffers hold now (this process, every thread) and the most they held at once since
// reset_device_bytes_peak: an upload's true peak, where sampling the card's use misses short ones.
size_t device_bytes_held();
size_t device_bytes_peak();
void reset_device_bytes_peak();
void note_device_bytes(size_t bytes, bool allocated);

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(size_t count, const char* what) { allocate(count, what); }
  ~DeviceBuffer() { release(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept { swap(o); }
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    DeviceBuffer t(std::move(o));
    swap(t);
    return *this;
  }

  // Allocates exactly `count` elements (contents undefined); the old allocation is freed only
  // after the new one succeeded.
  void allocate(size_t count, const char* what) {
    T* p = nullptr;
    if (count) {
      cudaError_t e = cudaMalloc(&p, count * sizeof(T));
      if (e != cudaSuccess) {
        (void)cudaGetLastError();  // clear the sticky-free error so later calls still work
        throw_out_of_device_memory(what, count * sizeof(T), e);
      }
    }
    release();
    m_ptr = p;
    m_count = count;
    if (count) note_device_bytes(count * sizeof(T), true);
  }
  // Grows (never shrinks) to hold at least `count` elements, with headroom.
  void reserve(size_t count, const char* what) {
    if (count > m_count) allocate(count + count / 4, what);
  }
  template <class A>
  void upload(const std::vector<T, A>& src, const char* what) {
    allocate(src.size(), what);
    if (!src.empty()) FACET_CUDA_CHECK(cudaMemcpy(m_ptr, src.data(), src.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  void release() {
    if (m_ptr) {
      FACET_CUDA_CHECK_NOTHROW(cudaFree(m_ptr));
      note_device_bytes(bytes(), false);
    }
    m_ptr = nullptr;
    m_count = 0;
  }
  void swap(DeviceBuffer& o) noexcept {
    std::swap(m_ptr, o.m_ptr);
    std::swap(m_count, o.m_count);
  }

  T* data() const { return m_ptr; }
  size_t size() const { return m_count; }
  size_t bytes() const { return m_count * sizeof(T); }

 private:
  T* m_ptr = nullptr;
  size_t m_count = 0;
};

}  // namespace facet
