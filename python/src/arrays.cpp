// array_ref and require: reading NumPy arrays, __cuda_array_interface__ dictionaries and
// DLPack capsules (dlpack 0.6's DLManagedTensor) into one ArrayRef, and the common checks.
#include "arrays.h"

#include <dlpack/dlpack.h>
#include <pybind11/numpy.h>

#include <stdexcept>

namespace facet_py {

int64_t ArrayRef::count() const {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return n;
}

namespace {

std::string dtype_text(char kind, int bits) {
  if (kind == 'b') return "bool";
  std::string k = kind == 'f' ? "float" : kind == 'i' ? "int" : kind == 'u' ? "uint" : "?";
  return k + std::to_string(bits);
}

// `strides` in units of `item` (bytes for __cuda_array_interface__, 1 element for DLPack).
bool c_contiguous(const std::vector<int64_t>& shape, const int64_t* strides, int64_t item) {
  if (!strides) return true;
  int64_t expect = item;
  for (size_t d = shape.size(); d-- > 0;) {
    if (shape[d] != 1 && strides[d] != expect) return false;
    expect *= shape[d];
  }
  return true;
}

ArrayRef from_numpy(py::array a) {
  ArrayRef r;
  r.data = const_cast<void*>(a.data());
  for (py::ssize_t d = 0; d < a.ndim(); ++d) r.shape.push_back(a.shape(d));
  r.kind = a.dtype().kind();
  r.bits = (int)a.itemsize() * 8;
  r.contiguous = (a.flags() & py::array::c_style) != 0;
  r.writable = a.writeable();
  r.keepalive = a;
  return r;
}

// typestr like "<f4", "|u1", "|b1".
ArrayRef from_cuda_array_interface(py::handle obj, const char* name) {
  py::dict cai = obj.attr("__cuda_array_interface__");
  ArrayRef r;
  r.device = true;
  py::tuple data = cai["data"];
  r.data = reinterpret_cast<void*>(data[0].cast<uintptr_t>());
  r.writable = !data[1].cast<bool>();
  for (auto s : cai["shape"].cast<py::tuple>()) r.shape.push_back(s.cast<int64_t>());
  std::string ts = cai["typestr"].cast<std::string>();
  if (ts.size() < 3 || ts[0] == '>') throw py::type_error(std::string(name) + ": unsupported typestr " + ts);
  r.kind = ts[1];
  r.bits = std::stoi(ts.substr(2)) * 8;
  if (cai.contains("strides") && !cai["strides"].is_none()) {
    std::vector<int64_t> st;
    for (auto s : cai["strides"].cast<py::tuple>()) st.push_back(s.cast<int64_t>());
    r.contiguous = c_contiguous(r.shape, st.data(), r.bits / 8);
  }
  r.keepalive = py::reinterpret_borrow<py::object>(obj);
  return r;
}

ArrayRef from_dlpack(py::handle obj, const char* name) {
  py::object capsule = obj.attr("__dlpack__")();
  auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule.ptr(), "dltensor"));
  if (!m) {
    PyErr_Clear();
    throw py::type_error(std::string(name) + ": __dlpack__ did not return a DLPack capsule");
  }
  const DLTensor& t = m->dl_tensor;
  ArrayRef r;
  if (t.device.device_type == kDLCUDA)
    r.device = true;
  else if (t.device.device_type != kDLCPU && t.device.device_type != kDLCUDAHost)
    throw py::type_error(std::string(name) + ": DLPack device type " + std::to_string(t.device.device_type) +
                         " is neither the CPU nor CUDA");
  r.device_id = t.device.device_id;
  r.data = static_cast<char*>(t.data) + t.byte_offset;
  r.shape.assign(t.shape, t.shape + t.ndim);
  r.kind = t.dtype.code == kDLFloat ? 'f' : t.dtype.code == kDLInt ? 'i' : t.dtype.code == kDLUInt ? 'u' : '?';
  r.bits = t.dtype.bits;
  r.contiguous = c_contiguous(r.shape, t.strides, 1);  // DLPack strides count elements
  // The capsule keeps the producer's tensor alive; its destructor calls the deleter (it is
  // never renamed "used_dltensor", so ownership stays with it).
  r.keepalive = capsule;
  return r;
}

}  // namespace

std::string ArrayRef::describe() const {
  return dtype_text(kind, bits) + (device ? " device" : "") + " array of shape " + shape_text(shape);
}

std::string shape_text(const std::vector<int64_t>& shape, const char* any) {
  std::string s = "(";
  for (size_t d = 0; d < shape.size(); ++d) {
    if (d) s += ", ";
    s += shape[d] < 0 ? std::string(any) : std::to_string(shape[d]);
  }
  return s + (shape.size() == 1 ? ",)" : ")");
}

ArrayRef array_ref(py::handle obj, const char* name) {
  if (py::isinstance<py::array>(obj)) return from_numpy(py::reinterpret_borrow<py::array>(obj));
  if (py::hasattr(obj, "__cuda_array_interface__")) return from_cuda_array_interface(obj, name);
  if (py::hasattr(obj, "__dlpack__")) return from_dlpack(obj, name);
  throw py::type_error(std::string(name) +
                       ": expected a NumPy array or an array offering __dlpack__ or "
                       "__cuda_array_interface__, got " +
                       std::string(py::str(py::type::of(obj).attr("__name__"))));
}

void require(const ArrayRef& a, const char* name, char kind, int bits, const char* dtype,
             const std::vector<int64_t>& shape) {
  if (a.kind != kind || a.bits != bits)
    throw py::type_error(std::string(name) + ": expected " + dtype + ", got " + a.describe());
  bool ok = a.shape.size() == shape.size();
  for (size_t d = 0; ok && d < shape.size(); ++d) ok = shape[d] < 0 || shape[d] == a.shape[d];
  if (!ok) throw py::value_error(std::string(name) + ": expected shape " + shape_text(shape) + ", got " + a.describe());
  if (!a.contiguous)
    throw py::value_error(std::string(name) +
                          ": the array is not C-contiguous (use numpy.ascontiguousarray, or .contiguous() in PyTorch)");
}

}  // namespace facet_py
