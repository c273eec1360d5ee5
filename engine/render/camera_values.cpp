// Camera value checks (camera_values.h): one wording for every entry point.
#include "engine/render/camera_values.h"

#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace facet {

namespace {

// A vector's length without overflow in the squares for coordinates past 1e19.
double length_of(const glm::dvec3& v) {
  const double m = std::fmax(std::fmax(std::fabs(v.x), std::fabs(v.y)), std::fabs(v.z));
  return m > 0.0 ? m * glm::length(v / m) : 0.0;
}

bool fits_float(double v) { return std::isfinite(v) && std::fabs(v) <= (double)FLT_MAX; }

// "must be WHAT, got V", and why V is not a usable number when it is not one.
std::string refused(const char* what, double v) {
  std::string text = std::string("must be ") + what + ", got " + number_text(v);
  if (std::isfinite(v) && !fits_float(v)) text += ", beyond single precision (" + number_text(FLT_MAX) + ")";
  return text;
}

}  // namespace

std::string number_text(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", v);
  return text;
}

std::string vector_text(const glm::dvec3& v) {
  return number_text(v.x) + "," + number_text(v.y) + "," + number_text(v.z);
}

std::optional<double> parse_number(const std::string& text) {
  if (text.empty() || std::isspace((unsigned char)text[0])) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  // ERANGE: an overflow is +-HUGE_VAL, reported as infinite by the checks; an underflow is a
  // number too small to matter, kept.
  if (end != text.c_str() + text.size()) return std::nullopt;
  return v;
}

std::string fov_y_problem(double degrees) {
  if (fits_float(degrees) && degrees >= kMinFovYDeg && degrees <= kMaxFovYDeg) return "";
  return refused("a number of degrees from 0.01 to 179", degrees);
}

std::string focal_px_problem(double f_px) {
  return fits_float(f_px) && f_px > 0.0 ? "" : refused("a positive number of pixels", f_px);
}

std::string ortho_height_problem(double h) {
  return fits_float(h) && h > 0.0 ? "" : refused("a positive view height in world units", h);
}

std::string near_problem(double near_plane) {
  return fits_float(near_plane) ? "" : refused("a finite distance", near_plane);
}

std::string far_problem(double far_plane) {
  return fits_float(far_plane) && far_plane > 0.0 ? "" : refused("a positive distance", far_plane);
}

std::string point_problem(const glm::dvec3& p) {
  if (fits_float(p.x) && fits_float(p.y) && fits_float(p.z)) return "";
  std::string text = "must be three finite numbers, got " + vector_text(p);
  if (std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z))
    text += ", beyond single precision (" + number_text(FLT_MAX) + ")";
  return text;
}

std::string direction_problem(const glm::dvec3& d) {
  if (std::string p = point_problem(d); !p.empty()) return p;
  if (length_of(d) <= 0.0) return "is the zero vector, which has no direction";
  return "";
}

std::string focal_fov_problem(double f_px, int height) {
  if (std::string p = focal_px_problem(f_px); !p.empty()) return p;
  const double degrees = glm::degrees(2.0 * std::atan(0.5 * (double)height / f_px));
  if (degrees >= kMinFovYDeg && degrees <= kMaxFovYDeg) return "";
  return "gives a field of view of " + number_text(degrees) + " degrees for a frame " + std::to_string(height) +
         " pixels tall; it must be 0.01 to 179";
}

std::string near_far_problem(double near_plane, double far_plane, bool orthographic) {
  if (!orthographic && !(near_plane > 0.0))
    return "the near plane (" + number_text(near_plane) +
           ") must be in front of the eye (> 0) in perspective; only an orthographic camera's may lie behind it";
  if (!(far_plane > near_plane))
    return "the far plane (" + number_text(far_plane) + ") must be beyond the near plane (" + number_text(near_plane) +
           ")";
  return "";
}

std::string look_problem(const glm::vec3& eye, const glm::vec3& target) {
  if (eye != target) return "";
  return "the eye and the target are the same point (" + vector_text(eye) + "): there is no view direction";
}

std::string up_problem(const glm::vec3& up, const glm::vec3& eye, const glm::vec3& target) {
  const glm::dvec3 u(up), d = glm::dvec3(target) - glm::dvec3(eye);
  if (std::string p = direction_problem(u); !p.empty()) return p;
  const double lu = length_of(u), ld = length_of(d);
  if (ld <= 0.0) return "";  // look_problem's to say
  if (glm::length(glm::cross(u / lu, d / ld)) < 1e-6)
    return vector_text(u) + " is parallel to the viewing direction (" + vector_text(d / ld) + ")";
  return "";
}

std::string camera_problem(const Camera& c) {
  if (std::string p = point_problem(c.eye); !p.empty()) return "eye: " + p;
  if (std::string p = point_problem(c.target); !p.empty()) return "target: " + p;
  if (std::string p = look_problem(c.eye, c.target); !p.empty()) return p;
  if (std::string p = up_problem(c.up, c.eye, c.target); !p.empty()) return "up: " + p;
  if (c.orthographic()) {
    if (std::string p = ortho_height_problem(c.ortho_height); !p.empty()) return "ortho_height: " + p;
  } else {
    // Degrees from float radians: 179 may come back a few ulps above it.
    double degrees = glm::degrees((double)c.fov_y);
    if (degrees > kMaxFovYDeg && degrees < kMaxFovYDeg * (1 + 1e-6)) degrees = kMaxFovYDeg;
    if (degrees < kMinFovYDeg && degrees > kMinFovYDeg * (1 - 1e-6)) degrees = kMinFovYDeg;
    if (std::string p = fov_y_problem(degrees); !p.empty()) return "fov_y: " + p;
  }
  if (std::string p = near_problem(c.near_plane); !p.empty()) return "near_plane: " + p;
  if (std::string p = far_problem(c.far_plane); !p.empty()) return "far_plane: " + p;
  return near_far_problem(c.near_plane, c.far_plane, c.orthographic());
}

}  // namespace facet
