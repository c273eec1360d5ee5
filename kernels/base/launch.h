// Programmatic dependent launch (sm_90): a kernel launched with `after_kernel` may start while the
// kernel before it in the stream is still draining its last blocks, and waits inside, at
// wait_for_previous_kernel(), for that kernel's completion and memory. What it saves is the gap
// between two dependent kernels of the frame's graph (the launch of the next grid and its first
// blocks' start-up), paid three times a frame. Elsewhere (older cards, or a launch without the
// attribute) both device calls do nothing and the launch is an ordinary one.
#pragma once
#include <cuda_runtime.h>

#include "kernels/base/cuda_check.h"

namespace facet {

// Blocks until the previous kernel of the stream has completed and its writes are visible. Every
// read of what that kernel (or anything before it) wrote must come after this call.
__device__ __forceinline__ void wait_for_previous_kernel() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// Lets the next kernel of the stream be launched once every block of this one has called it (or
// exited). It promises nothing about this kernel's writes: the next kernel still waits for them.
__device__ __forceinline__ void let_next_kernel_launch() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;");
#endif
}

// Launches `kernel` over `grid` blocks of `block` threads on `stream`, with no dynamic shared
// memory, and checks the launch (FACET_CUDA_CHECK: a grid of 0 blocks throws, so callers return
// before launching on empty work). Allowed to overlap the previous kernel of the stream when
// `after_kernel` (the previous operation in the stream is a kernel that calls
// let_next_kernel_launch, and the device supports it). The one way facet launches a kernel.
template <class... Params, class... Args>
void launch_kernel(void (*kernel)(Params...), dim3 grid, dim3 block, cudaStream_t stream, bool after_kernel,
                   Args&&... args) {
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = 0;
  config.stream = stream;
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute[0].val.programmaticStreamSerializationAllowed = 1;
  config.attrs = attribute;
  config.numAttrs = after_kernel ? 1 : 0;
  FACET_CUDA_CHECK(cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...));
}

}  // namespace facet
