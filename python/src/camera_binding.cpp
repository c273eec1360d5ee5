// facet.Camera: built from eye/target/up, from the seed's R/shift/focus, or framing a mesh the
// way `facet render` does by default. Checked when built (ValueError), resolved per frame.
#include "camera_binding.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

#include "mesh_binding.h"

namespace facet_py {

namespace py = pybind11;

namespace {

constexpr float kMinFovDeg = 0.01f, kMaxFovDeg = 179.0f;  // the CLI's --fov-y range

glm::vec3 vec3_arg(py::handle v, const char* name) {
  auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(v);
  if (!a || a.size() != 3) throw py::value_error(std::string(name) + ": expected 3 numbers");
  glm::vec3 r{(float)a.data()[0], (float)a.data()[1], (float)a.data()[2]};
  if (!std::isfinite(r.x) || !std::isfinite(r.y) || !std::isfinite(r.z))
    throw py::value_error(std::string(name) + ": not finite");
  return r;
}

void check(const CameraSpec& c) {
  glm::vec3 dir = c.target - c.eye;
  if (glm::length(dir) <= 0.0f) throw py::value_error("eye and target are the same point");
  if (glm::length(glm::cross(glm::normalize(dir), glm::normalize(c.up))) < 1e-6f)
    throw py::value_error("up is parallel to the viewing direction (or zero)");
  if (c.fov_y_deg && !(*c.fov_y_deg >= kMinFovDeg && *c.fov_y_deg <= kMaxFovDeg))
    throw py::value_error("fov_y: must be 0.01..179 degrees");
  if (c.focal_px && !(*c.focal_px > 0.0f && std::isfinite(*c.focal_px))) throw py::value_error("focal_px: must be > 0");
  if (c.fov_y_deg && c.focal_px) throw py::value_error("give fov_y or focal_px, not both");
  if (c.ortho_height && !(*c.ortho_height > 0.0f && std::isfinite(*c.ortho_height)))
    throw py::value_error("ortho_height: must be > 0");
  // An orthographic near plane may lie behind the eye (nothing is divided by the distance).
  if (c.near_plane && !(std::isfinite(*c.near_plane) && (c.ortho_height || *c.near_plane > 0.0f)))
    throw py::value_error("near: must be > 0 (finite when orthographic)");
  if (c.near_plane && c.far_plane && !(*c.far_plane > *c.near_plane)) throw py::value_error("far: must be beyond near");
}

CameraSpec from_seed(py::handle R, py::handle shift, float focus, std::optional<float> near_plane,
                     std::optional<float> far_plane) {
  auto r = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(R);
  if (!r || r.ndim() != 2 || r.shape(0) != 3 || r.shape(1) != 3) throw py::value_error("R: expected a 3x3 matrix");
  const double* m = r.data();
  const glm::vec3 row1{(float)m[3], (float)m[4], (float)m[5]}, row2{(float)m[6], (float)m[7], (float)m[8]};
  CameraSpec c;
  c.eye = vec3_arg(shift, "shift");
  c.target = c.eye - row2;  // view space looks down -Z: row 2 of R points backwards
  c.up = row1;
  c.focal_px = focus;
  c.near_plane = near_plane;
  c.far_plane = far_plane;
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
  if (focal_px) cam.set_focal_px(*focal_px, height);
  if (ortho_height) {
    cam.projection_mode = facet::Projection::Orthographic;
    cam.ortho_height = *ortho_height;
  }
  cam.fit_clip_planes(bounds);
  if (near_plane) cam.near_plane = *near_plane;
  if (far_plane) cam.far_plane = *far_plane;
  if (!(cam.far_plane > cam.near_plane))
    throw py::value_error("camera: the far plane (" + std::to_string(cam.far_plane) +
                          ") must be beyond the near plane (" + std::to_string(cam.near_plane) + ")");
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
      .def(py::init([](py::handle eye, py::handle target, py::handle up, std::optional<float> fov_y,
                       std::optional<float> focal_px, std::optional<float> near_plane, std::optional<float> far_plane,
                       std::optional<float> ortho_height) {
             CameraSpec c;
             c.eye = vec3_arg(eye, "eye");
             c.target = vec3_arg(target, "target");
             c.up = vec3_arg(up, "up");
             c.fov_y_deg = fov_y;
             c.focal_px = focal_px;
             c.near_plane = near_plane;
             c.far_plane = far_plane;
             c.ortho_height = ortho_height;
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
          [](const Mesh& mesh, int width, int height, float fov_y) {
            if (width <= 0 || height <= 0) throw py::value_error("width, height: must be > 0");
            facet::Camera f =
                facet::Camera::framing(mesh.scene->bounds, (float)width / (float)height, glm::radians(fov_y));
            CameraSpec c;
            c.eye = f.eye;
            c.target = f.target;
            c.up = f.up;
            c.fov_y_deg = fov_y;
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
