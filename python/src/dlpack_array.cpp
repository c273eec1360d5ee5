// DeviceArray: DeviceBuffer-owned memory exported as DLPack capsules (dlpack 0.6,
// DLManagedTensor, "dltensor") and as __cuda_array_interface__ version 3.
#include "dlpack_array.h"

#include <dlpack/dlpack.h>

#include <stdexcept>
#include <string>

#ifdef FACET_HAVE_CUDA
#include "engine/cuda/device_buffer.h"
#include "kernels/base/cuda_check.h"
#endif

namespace facet_py {

#ifdef FACET_HAVE_CUDA
struct DeviceArray::Storage {
  facet::DeviceBuffer<uint8_t> buffer;
};

namespace {

// What a capsule owns: the DLManagedTensor, its shape, and a share of the storage.
struct Export {
  DLManagedTensor managed{};
  std::vector<int64_t> shape;
  std::shared_ptr<void> storage;
};

void delete_export(DLManagedTensor* m) { delete static_cast<Export*>(m->manager_ctx); }

// Capsule destructor: only a capsule nobody consumed still owns its tensor.
void capsule_destructor(PyObject* capsule) {
  if (!PyCapsule_IsValid(capsule, "dltensor")) return;  // renamed "used_dltensor": consumed
  auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (m && m->deleter) m->deleter(m);
}

uint8_t dl_code(char kind) {
  return kind == 'f' ? (uint8_t)kDLFloat : kind == 'i' ? (uint8_t)kDLInt : (uint8_t)kDLUInt;
}

}  // namespace
#else
struct DeviceArray::Storage {};
#endif

int64_t DeviceArray::count() const {
  int64_t n = 1;
  for (int64_t s : m_shape) n *= s;
  return n;
}

#ifdef FACET_HAVE_CUDA
DeviceArray::DeviceArray(std::vector<int64_t> shape, char kind, int bits)
    : m_storage(std::make_shared<Storage>()), m_shape(std::move(shape)), m_kind(kind), m_bits(bits) {
  FACET_CUDA_CHECK(cudaGetDevice(&m_device));
  m_storage->buffer.allocate((size_t)count() * (size_t)(bits / 8), "a facet device array");
}

void* DeviceArray::data() const { return m_storage->buffer.data(); }

py::capsule DeviceArray::dlpack(py::object stream) const {
  if (!stream.is_none()) {
    const intptr_t s = stream.cast<intptr_t>();
    // -1: the consumer asks for no synchronisation; 1 (legacy) is the stream facet uses.
    if (s != -1 && s != 1 && s != 0) {
      cudaStream_t consumer = s == 2 ? cudaStreamPerThread : reinterpret_cast<cudaStream_t>(s);
      cudaEvent_t done = nullptr;
      FACET_CUDA_CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
      cudaError_t e = cudaEventRecord(done, cudaStreamLegacy);
      if (e == cudaSuccess) e = cudaStreamWaitEvent(consumer, done, 0);
      FACET_CUDA_CHECK_NOTHROW(cudaEventDestroy(done));
      FACET_CUDA_CHECK(e);
    }
  }
  auto* ex = new Export;
  ex->shape = m_shape;
  ex->storage = m_storage;
  DLTensor& t = ex->managed.dl_tensor;
  t.data = data();
  t.device = {kDLCUDA, m_device};
  t.ndim = (int)m_shape.size();
  t.dtype = {dl_code(m_kind), (uint8_t)m_bits, 1};
  t.shape = ex->shape.data();
  t.strides = nullptr;  // C-contiguous
  t.byte_offset = 0;
  ex->managed.manager_ctx = ex;
  ex->managed.deleter = delete_export;
  return py::capsule(&ex->managed, "dltensor", capsule_destructor);
}
#else
DeviceArray::DeviceArray(std::vector<int64_t>, char, int) {
  throw std::runtime_error("facet was built without CUDA: no device arrays");
}
void* DeviceArray::data() const { return nullptr; }
py::capsule DeviceArray::dlpack(py::object) const { throw std::runtime_error("facet was built without CUDA"); }
#endif

py::dict DeviceArray::cuda_array_interface() const {
  py::tuple shape(m_shape.size());
  for (size_t d = 0; d < m_shape.size(); ++d) shape[d] = m_shape[d];
  std::string typestr = std::string(m_bits == 8 ? "|" : "<") + m_kind + std::to_string(m_bits / 8);
  py::dict d;
  d["shape"] = shape;
  d["typestr"] = typestr;
  d["data"] = py::make_tuple(reinterpret_cast<uintptr_t>(data()), false);
  d["version"] = 3;
  d["strides"] = py::none();
  d["stream"] = 1;  // written on the legacy default stream
  return d;
}

void bind_device_array(py::module_& m) {
  py::class_<DeviceArray>(m, "DeviceArray", R"(An array in CUDA device memory that facet allocated.

Hand it to PyTorch or CuPy without a copy: ``torch.from_dlpack(a)``, ``cupy.from_dlpack(a)``
(or ``cupy.asarray(a)`` through ``__cuda_array_interface__``). The memory is freed when this
object and every tensor made from it are gone. facet writes it on the legacy default stream.)")
      .def(
          "__dlpack__", [](const DeviceArray& a, py::object stream, py::kwargs) { return a.dlpack(stream); },
          py::arg("stream") = py::none())
      .def("__dlpack_device__", [](const DeviceArray& a) { return py::make_tuple((int)kDLCUDA, a.device()); })
      .def_property_readonly("__cuda_array_interface__", &DeviceArray::cuda_array_interface)
      .def_property_readonly("shape",
                             [](const DeviceArray& a) {
                               py::tuple t(a.shape().size());
                               for (size_t d = 0; d < a.shape().size(); ++d) t[d] = a.shape()[d];
                               return t;
                             })
      .def_property_readonly(
          "dtype",
          [](const DeviceArray& a) {
            return std::string(a.kind() == 'f' ? "float" : a.kind() == 'i' ? "int" : "uint") + std::to_string(a.bits());
          })
      .def_property_readonly("device", &DeviceArray::device)
      .def_property_readonly("data_ptr", [](const DeviceArray& a) { return reinterpret_cast<uintptr_t>(a.data()); })
      .def("__repr__", [](const DeviceArray& a) {
        std::string s = "facet.DeviceArray(shape=(";
        for (size_t d = 0; d < a.shape().size(); ++d) s += (d ? ", " : "") + std::to_string(a.shape()[d]);
        return s + (a.shape().size() == 1 ? ",)" : ")") + ", dtype=" +
               (a.kind() == 'f'   ? "float"
                : a.kind() == 'i' ? "int"
                                  : "uint") +
               std::to_string(a.bits()) + ", device=cuda:" + std::to_string(a.device()) + ")";
      });
}

}  // namespace facet_py
