// Arrays handed in from Python, as one plain view whatever they came from: a NumPy array (host),
// an object with __cuda_array_interface__ (PyTorch and CuPy device arrays), or one with
// __dlpack__ (host or device). The checks every entry point shares raise TypeError (wrong
// dtype, not an array) or ValueError (shape, non-contiguous), naming the argument.
// Not a general array library: only what facet's calls take (C-contiguous, a few dtypes).
#pragma once
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <vector>

namespace facet_py {

namespace py = pybind11;

struct ArrayRef {
  void* data = nullptr;        // first element
  std::vector<int64_t> shape;  // elements per dimension
  char kind = 'f';             // 'f' float, 'i' signed int, 'u' unsigned int, 'b' bool
  int bits = 32;               // bits per element
  bool contiguous = true;      // C order
  bool device = false;         // CUDA device memory (else host)
  int device_id = 0;           // the CUDA device, when device
  bool writable = true;
  py::object keepalive;  // what keeps `data` alive (the array, or a DLPack capsule)

  int64_t count() const;         // elements in all
  std::string describe() const;  // e.g. "float64 array of shape (10, 3)"
};

// The view of `obj`; `name` is the argument's name for messages. Throws TypeError when `obj`
// is not an array facet understands.
ArrayRef array_ref(py::handle obj, const char* name);

// Throws TypeError unless the dtype is (kind, bits), ValueError unless C-contiguous and the
// shape matches `shape` (-1: any extent). `dtype` names the expected dtype for the message.
void require(const ArrayRef& a, const char* name, char kind, int bits, const char* dtype,
             const std::vector<int64_t>& shape);

// "(N, 3)"-style text of a shape pattern, -1 printed as the letter given.
std::string shape_text(const std::vector<int64_t>& shape, const char* any = "N");

}  // namespace facet_py
