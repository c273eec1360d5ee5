// The one checked-call macro for CUDA: a failing call throws with the file, line, the expression
// and CUDA's own words. The NOTHROW twin is for destructors, where throwing is not an option.
#pragma once
#include <cuda_runtime.h>

#include <cstdio>
#include <stdexcept>
#include <string>

namespace facet {

[[noreturn]] inline void throw_cuda_error(cudaError_t e, const char* expr, const char* file, int line) {
  throw std::runtime_error(std::string("CUDA error ") + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ") in " +
                           expr + " at " + file + ":" + std::to_string(line));
}

}  // namespace facet

#define FACET_CUDA_CHECK(expr)                                                                       \
  do {                                                                                               \
    cudaError_t facet_err_ = (expr);                                                                 \
    if (facet_err_ != cudaSuccess) ::facet::throw_cuda_error(facet_err_, #expr, __FILE__, __LINE__); \
  } while (0)

#define FACET_CUDA_CHECK_NOTHROW(expr)                                                                        \
  do {                                                                                                        \
    cudaError_t facet_err_ = (expr);                                                                          \
    if (facet_err_ != cudaSuccess)                                                                            \
      std::fprintf(stderr, "CUDA error %s in %s at %s:%d\n", cudaGetErrorString(facet_err_), #expr, __FILE__, \
                   __LINE__);                                                                                 \
  } while (0)
