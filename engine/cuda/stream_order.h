// Ordering facet's stream with the caller's: arrays handed in from PyTorch or CuPy are written
// and read on the legacy default stream unless the caller says otherwise, so work on them waits
// for that stream and that stream waits for the work, without the host waiting on either.
#pragma once
#include <cuda_runtime.h>

#include "kernels/base/cuda_check.h"

namespace facet {

// `later` waits for everything enqueued so far on `earlier`, through `event` (reusable: a wait
// takes the event's state when it is enqueued).
inline void order_after(cudaStream_t later, cudaStream_t earlier, cudaEvent_t event) {
  FACET_CUDA_CHECK(cudaEventRecord(event, earlier));
  FACET_CUDA_CHECK(cudaStreamWaitEvent(later, event, 0));
}

}  // namespace facet
