// The _facet extension module: binds the parts (bindings.h) and maps the engine's exceptions
// to Python's: LoadError -> facet.LoadError (a RuntimeError), std::invalid_argument ->
// ValueError, any other std::exception -> RuntimeError with the C++ message. The public API is
// python/facet/__init__.py, which wraps this module.
#include <pybind11/pybind11.h>

#include "bindings.h"
#include "engine/load/load_model.h"
#include "engine/render/renderer.h"

namespace py = pybind11;

PYBIND11_MODULE(_facet, m) {
  m.doc() = "facet's engine, bound for Python (use the facet package, not this module)";
  py::register_exception<facet::LoadError>(m, "LoadError", PyExc_RuntimeError);
  facet_py::bind_device_array(m);
  facet_py::bind_project(m);
  facet_py::bind_mesh(m);
  facet_py::bind_render(m);
  m.def(
      "cuda_available",
      [] {
        std::string why;
        bool ok = facet::cuda_available(&why);
        return py::make_tuple(ok, why);
      },
      "(usable, why not): whether a CUDA device is usable by facet here");
#ifdef FACET_HAVE_CUDA
  m.attr("built_with_cuda") = true;
#else
  m.attr("built_with_cuda") = false;
#endif
}
