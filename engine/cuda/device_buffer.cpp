// Out-of-memory reporting and the byte counts of DeviceBuffer.
#include "engine/cuda/device_buffer.h"

#include <atomic>

namespace facet {

namespace {
std::atomic<size_t> g_held{0}, g_peak{0};
}  // namespace

size_t device_bytes_held() { return g_held.load(); }
size_t device_bytes_peak() { return g_peak.load(); }
void reset_device_bytes_peak() { g_peak.store(g_held.load()); }

void note_device_bytes(size_t bytes, bool allocated) {
  if (!allocated) {
    g_held.fetch_sub(bytes);
    return;
  }
  const size_t now = g_held.fetch_add(bytes) + bytes;
  size_t peak = g_peak.load();
  while (now > peak && !g_peak.compare_exchange_weak(peak, now)) {}
}

void throw_out_of_device_memory(const char* what, size_t bytes, cudaError_t e) {
  size_t free_b = 0, total_b = 0;
  (void)cudaMemGetInfo(&free_b, &total_b);
  char msg[512];
  std::snprintf(msg, sizeof msg, "out of device memory allocating %.1f MiB for %s (%.1f MiB free of %.1f MiB): %s",
                bytes / 1048576.0, what, free_b / 1048576.0, total_b / 1048576.0, cudaGetErrorString(e));
  throw DeviceOutOfMemory(msg);
}

}  // namespace facet
