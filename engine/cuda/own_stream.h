// A CUDA stream of its own for work beside the frames' (the load's head start on the device: the
// closed-surface check, the Morton order), synchronised and destroyed when it goes.
#pragma once
#include <cuda_runtime.h>

#include "kernels/base/cuda_check.h"

namespace facet {

class OwnStream {
 public:
  OwnStream() { FACET_CUDA_CHECK(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking)); }
  ~OwnStream() {
    FACET_CUDA_CHECK_NOTHROW(cudaStreamSynchronize(m_stream));
    FACET_CUDA_CHECK_NOTHROW(cudaStreamDestroy(m_stream));
  }
  OwnStream(const OwnStream&) = delete;
  OwnStream& operator=(const OwnStream&) = delete;
  operator cudaStream_t() const { return m_stream; }
  void sync() const { FACET_CUDA_CHECK(cudaStreamSynchronize(m_stream)); }

 private:
  cudaStream_t m_stream = nullptr;
};

}  // namespace facet
