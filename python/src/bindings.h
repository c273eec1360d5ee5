// The parts of the _facet extension module, each bound by its own file (module.cpp calls them).
#pragma once
#include <pybind11/pybind11.h>

namespace facet_py {

namespace py = pybind11;

void bind_project(py::module_& m);       // project_binding.cpp: _project
void bind_mesh(py::module_& m);          // mesh_binding.cpp: Mesh, load, write_png
void bind_render(py::module_& m);        // render_binding.cpp: Camera, Renderer
void bind_device_array(py::module_& m);  // dlpack_array.cpp: DeviceArray

}  // namespace facet_py
