// check_device_pointer: cudaPointerGetAttributes, read as a sentence for the caller.
#include "engine/cuda/device_pointer.h"

#include <stdexcept>
#include <string>

#include "kernels/base/cuda_check.h"

namespace facet {

void check_device_pointer(const void* ptr, const char* what) {
  if (!ptr) return;
  cudaPointerAttributes a{};
  FACET_CUDA_CHECK(cudaPointerGetAttributes(&a, ptr));
  if (a.type != cudaMemoryTypeDevice && a.type != cudaMemoryTypeManaged)
    throw std::invalid_argument(std::string(what) + ": not CUDA device memory");
  int current = 0;
  FACET_CUDA_CHECK(cudaGetDevice(&current));
  if (a.device != current)
    throw std::invalid_argument(std::string(what) + ": on CUDA device " + std::to_string(a.device) +
                                ", but facet works on device " + std::to_string(current) +
                                " (move the array to that device)");
}

}  // namespace facet
