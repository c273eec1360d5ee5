// facet.DeviceArray: a device allocation facet made (DeviceBuffer, RAII) with a shape and dtype,
// handed to PyTorch, CuPy or any DLPack consumer without a copy: torch.from_dlpack(a),
// cupy.from_dlpack(a), or __cuda_array_interface__. The memory lives until the last of the
// Python object and every capsule exported from it is gone. Not an array library (no
// indexing or arithmetic): convert it. Without CUDA, make_device_array refuses.
#pragma once
#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace facet_py {

namespace py = pybind11;

class DeviceArray {
 public:
  // Allocates count(shape) elements of (kind, bits) on the current device.
  DeviceArray(std::vector<int64_t> shape, char kind, int bits);
  void* data() const;
  const std::vector<int64_t>& shape() const { return m_shape; }
  char kind() const { return m_kind; }
  int bits() const { return m_bits; }
  int device() const { return m_device; }
  int64_t count() const;
  // DLPack producer protocol; `stream` is the consumer's stream (None, -1, 1 = legacy, 2 =
  // per-thread, or a cudaStream_t): it is made to wait for work facet queued on the legacy stream.
  py::capsule dlpack(py::object stream) const;
  py::dict cuda_array_interface() const;

 private:
  struct Storage;
  std::shared_ptr<Storage> m_storage;
  std::vector<int64_t> m_shape;
  char m_kind;
  int m_bits;
  int m_device = 0;
};

void bind_device_array(py::module_& m);

}  // namespace facet_py
