// How many blocks of a kernel one SM holds at once (its launch bounds, registers and shared
// memory): the size of one resident wave, which the persistent kernels' grids are built from.
#pragma once
#include <cuda_runtime.h>

namespace facet {

// At least 1, also when the query fails.
template <class Kernel>
int resident_blocks_per_sm(Kernel kernel, int threads) {
  int blocks = 0;
  cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, 0);
  return e == cudaSuccess && blocks > 0 ? blocks : 1;
}

}  // namespace facet
