// facet._project: the seed's projection (engine/points/point_projection.h) over host or device arrays.
// Host: NumPy in, NumPy out, all cores, the GIL released. Device: arrays on the current CUDA
// device in, DeviceArray out (or the caller's out= arrays), no host copy.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <string>

#include "arrays.h"
#include "bindings.h"
#include "dlpack_array.h"
#include "engine/points/point_projection.h"
#include "engine/render/camera_values.h"

namespace facet_py {

namespace {

// point_problem's check of (cx, cy, 0), said of the two numbers given.
std::string center_problem(double cx, double cy) {
  const std::string p = facet::point_problem({cx, cy, 0.0});
  if (p.empty()) return "";
  const size_t beyond = p.find(", beyond");  // single precision's range, where that is the problem
  return "must be two finite numbers, got " + facet::number_text(cx) + "," + facet::number_text(cy) +
         (beyond == std::string::npos ? "" : p.substr(beyond));
}

facet::PointProjectionParams camera_params(py::handle R, py::handle shift, double focus, py::handle center,
                                           double near_plane) {
  using Arr = py::array_t<double, py::array::c_style | py::array::forcecast>;
  Arr r = Arr::ensure(R), s = Arr::ensure(shift), c = Arr::ensure(center);
  if (!r || r.ndim() != 2 || r.shape(0) != 3 || r.shape(1) != 3)
    throw py::value_error("R: expected a 3x3 rotation matrix");
  if (!s || s.size() != 3) throw py::value_error("shift: expected 3 numbers (the camera position)");
  if (!c || c.size() != 2) throw py::value_error("center: expected 2 numbers (cx, cy)");
  // The same checks as facet.Camera's and the command line's (engine/render/camera_values.h); the
  // projection's near plane may also be 0 (every point in front of the eye).
  if (std::string p = facet::focal_px_problem(focus); !p.empty()) throw py::value_error("focus: " + p);
  if (std::string p = facet::near_problem(near_plane); !p.empty()) throw py::value_error("near: " + p);
  if (near_plane < 0) throw py::value_error("near: must be 0 or more, got " + facet::number_text(near_plane));
  // R row by row, and the centre as a point on the image plane: every number finite in single
  // precision (1e39 would become inf as a float).
  const double* m = r.data();
  for (int row = 0; row < 3; ++row)
    if (std::string p = facet::point_problem({m[3 * row], m[3 * row + 1], m[3 * row + 2]}); !p.empty())
      throw py::value_error("R: row " + std::to_string(row) + " " + p);
  if (std::string p = facet::point_problem({s.data()[0], s.data()[1], s.data()[2]}); !p.empty())
    throw py::value_error("shift: " + p);
  if (std::string p = center_problem(c.data()[0], c.data()[1]); !p.empty()) throw py::value_error("center: " + p);
  facet::PointProjectionParams p{};
  for (int i = 0; i < 9; ++i) p.r[i] = (float)r.data()[i];
  p.shift = {(float)s.data()[0], (float)s.data()[1], (float)s.data()[2]};
  p.focus = (float)focus;
  p.center = {(float)c.data()[0], (float)c.data()[1]};
  p.near_plane = (float)near_plane;
  return p;
}

// The three outputs: the caller's (checked) or new ones where the points live.
struct Outputs {
  py::object xy, depth, valid;
  ArrayRef xy_ref, depth_ref, valid_ref;
};

Outputs make_outputs(const ArrayRef& points, int64_t n, py::object out) {
  Outputs o;
  if (!out.is_none()) {
    py::tuple t = out.cast<py::tuple>();
    if (t.size() != 3) throw py::value_error("out: expected a tuple (xy, depth, valid)");
    o.xy = t[0];
    o.depth = t[1];
    o.valid = t[2];
  } else if (points.device) {
    o.xy = py::cast(DeviceArray({n, 2}, 'f', 32));
    o.depth = py::cast(DeviceArray({n}, 'f', 32));
    o.valid = py::cast(DeviceArray({n}, 'u', 8));
  } else {
    o.xy = py::array_t<float>({n, (int64_t)2});
    o.depth = py::array_t<float>({n});
    o.valid = py::array_t<bool>({n});
  }
  o.xy_ref = array_ref(o.xy, "out[0] (xy)");
  o.depth_ref = array_ref(o.depth, "out[1] (depth)");
  o.valid_ref = array_ref(o.valid, "out[2] (valid)");
  require(o.xy_ref, "out[0] (xy)", 'f', 32, "float32", {n, 2});
  require(o.depth_ref, "out[1] (depth)", 'f', 32, "float32", {n});
  const char valid_kind = o.valid_ref.kind == 'b' ? 'b' : 'u';
  require(o.valid_ref, "out[2] (valid)", valid_kind, 8, "bool or uint8", {n});
  for (const ArrayRef* a : {&o.xy_ref, &o.depth_ref, &o.valid_ref}) {
    if (a->device != points.device)
      throw py::value_error(std::string("out: every output must live where the points do (") +
                            (points.device ? "a CUDA device" : "the host") + ")");
    if (!a->writable) throw py::value_error("out: an output array is read-only");
  }
  return o;
}

py::tuple project(py::object points, py::object R, py::object shift, double focus, py::object center, double near_plane,
                  py::object out) {
  facet::PointProjectionParams p = camera_params(R, shift, focus, center, near_plane);
  ArrayRef in = array_ref(points, "points");
  require(in, "points", 'f', 32, "float32", {-1, 3});
  const int64_t n = in.shape[0];
  Outputs o = make_outputs(in, n, out);
  p.points = static_cast<const float*>(in.data);
  p.xy = static_cast<float*>(o.xy_ref.data);
  p.depth = static_cast<float*>(o.depth_ref.data);
  p.valid = static_cast<uint8_t*>(o.valid_ref.data);
  p.count = (uint64_t)n;
  {
    py::gil_scoped_release release;
    if (in.device)
      facet::project_points_device(p);
    else
      facet::project_points_host(p);
  }
  return py::make_tuple(o.xy, o.depth, o.valid);
}

}  // namespace

void bind_project(py::module_& m) {
  m.def("_project", &project, py::arg("points"), py::arg("R"), py::arg("shift"), py::arg("focus"), py::arg("center"),
        py::arg("near"), py::arg("out"));
}

}  // namespace facet_py
