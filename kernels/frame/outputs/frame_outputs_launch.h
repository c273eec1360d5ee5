// The launcher of the frame-outputs kernel (frame_outputs.cu), for the CUDA backend.
#pragma once
#include <cuda_runtime.h>

#include "kernels/frame/outputs/frame_outputs.h"

namespace facet {

// One thread a pixel over the whole frame; every pointer in p is device memory.
void launch_frame_outputs(const FrameOutputParams& p, cudaStream_t stream);

}  // namespace facet
