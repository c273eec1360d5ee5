// Out-of-memory reporting for DeviceBuffer.
#include "engine/cuda/device_buffer.h"

namespace facet {

void throw_out_of_device_memory(const char* what, size_t bytes, cudaError_t e) {
  size_t free_b = 0, total_b = 0;
  (void)cudaMemGetInfo(&free_b, &total_b);
  char msg[512];
  std::snprintf(msg, sizeof msg,
                "out of device memory allocating %.1f MiB for %s (%.1f MiB free of %.1f MiB): %s",
                bytes / 1048576.0, what, free_b / 1048576.0, total_b / 1048576.0, cudaGetErrorString(e));
  throw std::runtime_error(msg);
}

}  // namespace facet
