// Checking that a pointer handed in from outside (a PyTorch or CuPy array) is device memory of
// the current CUDA device, with a message that says what it is instead.
#pragma once

namespace facet {

// Throws std::invalid_argument("WHAT: ...") unless `ptr` is device (or managed) memory of the
// current device. A null pointer (an empty array) passes.
void check_device_pointer(const void* ptr, const char* what);

}  // namespace facet
