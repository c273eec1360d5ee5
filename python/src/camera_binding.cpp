// facet.Camera: built from eye/target/up, from the seed's R/shift/focus, or framing a mesh the
// way `facet render` does by default. Checked when built (ValueError), resolved per frame.
#include "camera_binding.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

#include "engine/render/camera_values.h"
#include "mesh_binding.h"

namespace facet_py {

namespace py = pybind11;

namespace {

// `name: problem` as a ValueError when the check finds one: the argument is named as Python
// calls it, the problem worded as for the command line (engine/render/camera_values.h).
void refuse(const char* name, const std::string& problem) {
  if (!problem.empty()) throw py::value_error(std::string(name) + ": " + problem);
}

// An optional number argument, checked by `problem` before it is narrowed to float.
std::optional<float> checked(std::optional<double> v, const char* name, std::string (*problem)(double)) {
  if (!v) return std::nullopt;
  refuse(name, problem(*v));
  return (float)*v;
}

// Three numbers; `direction`: checked as a direction (up: not zero), else as a point.
glm::vec3 vec3_arg(py::handle v, const char* name, bool direction = false) {
  auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(v);
  if (!a || a.size() != 3) throw py::value_error(std::string(name) + ": expected 3 numbers");
  const glm::dvec3 d{a.data()[0], a.data()[1], a.data()[2]};
  refuse(name, direction ? facet::direction_problem(d) : facet::point_problem(d));
  return glm::vec3(d);
}

// The values together, as the command line checks them before the model is known.
void check(const CameraSpec& c) {
  refuse("eye, target", facet::look_problem(c.eye, c.target));
  refuse("up", facet::up_problem(c.up, c.eye, c.target));
  if (c.fov_y_deg && c.focal_px) throw py::value_error("give fov_y or focal_px, not both");
  if (c.near_plane && !c.ortho_height && !(*c.near_plane > 0.0f))
    throw py::value_error(
        "near: must be positive in perspective (only an orthographic camera's near plane may lie "
        "behind the eye), got " +
        facet::number_text(*c.near_plane));
  if (c.near_plane && c.far_plane)
    refuse("near, far", facet::near_far_problem(*c.near_plane, *c.far_plane, c.ortho_height.has_value()));
}

CameraSpec from_seed(py::handle R, py::handle shift, double focus, std::optional<double> near_plane,
                     std::optional<double> far_plane) {
  auto r = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(R);
  if (!r || r.ndim() != 2 || r.shape(0) != 3 || r.shape(1) != 3) throw py::value_error("R: expected a 3x3 matrix");
  const double* m = r.data();
  const glm::vec3 row1{(float)m[3], (float)m[4], (float)m[5]}, row2{(float)m[6], (float)m[7], (float)m[8]};
  CameraSpec c;
  c.eye = vec3_arg(shift, "shift");
  c.target = c.eye - row2;  // view space looks down -Z: row 2 of R points backwards
  c.up = row1;
  for (int i = 0; i < 9; ++i)
    if (!std::isfinite(m[i])) throw py::value_error("R: must hold finite numbers, got " + facet::number_text(m[i]));
  c.focal_px = checked(focus, "focus", facet::focal_px_problem);
  c.near_plane = checked(near_plane, "near", facet::near_problem);
  c.far_plane = checked(far_plane, "far", facet::far_problem);
  check(c);
  return c;
}

}  // namespace

facet::Camera CameraSpec::resolve(const facet::Bounds& bounds, int height) const {
  facet::Camera cam;
  cam.eye = eye;
  cam.target = target;
  cam.up = up;
  cam.fov_y = glm::radians(fov_y_deg.value_or(45.0f));
  if (focal_px) {
    refuse("focal_px", facet::focal_fov_problem(*focal_px, height));
    cam.set_focal_px(*focal_px, height);
  }
  if (ortho_height) {
    cam.projection_mode = facet::Projection::Orthographic;
    cam.ortho_height = *ortho_height;
  }
  cam.fit_clip_planes(bounds);
  if (near_plane) cam.near_plane = *near_plane;
  if (far_plane) cam.far_plane = *far_plane;
  // The planes fitted to the mesh where not given: a given one may not suit this mesh.
  refuse("camera", facet::camera_problem(cam));
  return cam;
}

void bind_camera(py::module_& m) {
  py::class_<CameraSpec>(
      m, "Camera", R"(A perspective or orthographic camera (OpenGL conventions: right-handed, +Y up, looking down -Z).

Camera(eye, target, up=(0, 1, 0), fov_y=None, focal_px=None, near=None, far=None, ortho_height=None)
  fov_y     vertical field of view in degrees (default 45), or
  focal_px  focal length in pixels: f_px = (height / 2) / tan(fov_y / 2)
  near, far clip distances; default: fitted to the mesh's bounding sphere, as `facet render` does
  ortho_height  an orthographic camera instead, its frame spanning this many world units in height
Camera.from_seed(R, shift, focus): the seed's rotation (rows: camera right, up, backward),
  position and focal length in pixels, with the optical axis at the frame's centre.
Camera.framing(mesh, width, height): the camera `facet render` uses when given none.)")
      .def(py::init([](py::handle eye, py::handle target, py::handle up, std::optional<double> fov_y,
                       std::optional<double> focal_px, std::optional<double> near_plane,
                       std::optional<double> far_plane, std::optional<double> ortho_height) {
             CameraSpec c;
             c.eye = vec3_arg(eye, "eye");
             c.target = vec3_arg(target, "target");
             c.up = vec3_arg(up, "up", true);
             c.fov_y_deg = checked(fov_y, "fov_y", facet::fov_y_problem);
             c.focal_px = checked(focal_px, "focal_px", facet::focal_px_problem);
             c.near_plane = checked(near_plane, "near", facet::near_problem);
             c.far_plane = checked(far_plane, "far", facet::far_problem);
             c.ortho_height = checked(ortho_height, "ortho_height", facet::ortho_height_problem);
             check(c);
             return c;
           }),
           py::arg("eye"), py::arg("target"), py::arg("up") = py::make_tuple(0, 1, 0), py::arg("fov_y") = py::none(),
           py::arg("focal_px") = py::none(), py::arg("near") = py::none(), py::arg("far") = py::none(),
           py::arg("ortho_height") = py::none())
      .def_static("from_seed", &from_seed, py::arg("R"), py::arg("shift"), py::arg("focus"),
                  py::arg("near") = py::none(), py::arg("far") = py::none())
      .def_static(
          "framing",
          [](const Mesh& mesh, int width, int height, double fov_y) {
            if (width <= 0 || height <= 0) throw py::value_error("width, height: must be > 0");
            refuse("fov_y", facet::fov_y_problem(fov_y));
            facet::Camera f =
                facet::Camera::framing(mesh.scene->bounds, (float)width / (float)height, glm::radians((float)fov_y));
            CameraSpec c;
            c.eye = f.eye;
            c.target = f.target;
            c.up = f.up;
            c.fov_y_deg = (float)fov_y;
            refuse("mesh", facet::point_problem(c.eye));  // a mesh too large to frame in single precision
            return c;
          },
          py::arg("mesh"), py::arg("width"), py::arg("height"), py::arg("fov_y") = 45.0f)
      .def_property_readonly("eye", [](const CameraSpec& c) { return py::make_tuple(c.eye.x, c.eye.y, c.eye.z); })
      .def_property_readonly("target",
                             [](const CameraSpec& c) { return py::make_tuple(c.target.x, c.target.y, c.target.z); })
      .def_property_readonly("up", [](const CameraSpec& c) { return py::make_tuple(c.up.x, c.up.y, c.up.z); })
      .def_property_readonly("fov_y", [](const CameraSpec& c) { return c.fov_y_deg; })
      .def_property_readonly("focal_px", [](const CameraSpec& c) { return c.focal_px; })
      .def_property_readonly("ortho_height", [](const CameraSpec& c) { return c.ortho_height; })
      .def("__repr__", [](const CameraSpec& c) {
        return "facet.Camera(eye=(" + std::to_string(c.eye.x) + ", " + std::to_string(c.eye.y) + ", " +
               std::to_string(c.eye.z) + "), target=(" + std::to_string(c.target.x) + ", " +
               std::to_string(c.target.y) + ", " + std::to_string(c.target.z) + "))";
      });
}

}  // namespace facet_py
