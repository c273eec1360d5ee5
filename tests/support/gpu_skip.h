// FACET_SKIP_WITHOUT_CUDA(): ends the current test as skipped, with the reason cuda_available
// gives, where this build or machine has no usable CUDA device. For SetUp() or a test body of
// tests labelled gpu; it does not check the device's capabilities, only that one exists.
#pragma once
#include <gtest/gtest.h>

#include <string>

#include "engine/render/renderer.h"

#define FACET_SKIP_WITHOUT_CUDA()                                                    \
  do {                                                                               \
    std::string facet_cuda_why_;                                                     \
    if (!::facet::cuda_available(&facet_cuda_why_)) GTEST_SKIP() << facet_cuda_why_; \
  } while (0)
