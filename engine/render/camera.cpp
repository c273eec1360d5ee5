// Camera math on the host (GLM). The kernels receive only the combined view-projection matrix.
#include "engine/render/camera.h"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace facet {

namespace {
constexpr float kFilmHeightMm = 24.0f;  // 35 mm film is 36 x 24 mm
}

float Camera::focal_px(int height) const { return 0.5f * (float)height / std::tan(0.5f * fov_y); }

void Camera::set_focal_px(float f_px, int height) { fov_y = 2.0f * std::atan(0.5f * (float)height / f_px); }

float Camera::focal_35mm() const { return 0.5f * kFilmHeightMm / std::tan(0.5f * fov_y); }

void Camera::set_focal_35mm(float mm) { fov_y = 2.0f * std::atan(0.5f * kFilmHeightMm / mm); }

glm::mat4 Camera::view() const { return glm::lookAt(eye, target, up); }

glm::mat4 Camera::projection(float aspect) const {
  if (orthographic()) {
    // Clip w = 1 for every vertex; clip z in [-1, 1] from near to far, as glm::perspective's.
    const float half_h = 0.5f * ortho_height, half_w = half_h * aspect;
    return glm::ortho(-half_w, half_w, -half_h, half_h, near_plane, far_plane);
  }
  return glm::perspective(fov_y, aspect, near_plane, far_plane);
}

glm::vec3 Camera::forward() const { return glm::normalize(target - eye); }

float Camera::height_at_target() const { return 2.0f * glm::length(target - eye) * std::tan(0.5f * fov_y); }

void Camera::set_projection(Projection p) {
  if (p == projection_mode) return;
  if (p == Projection::Orthographic) {
    ortho_height = height_at_target();
  } else {
    const float d = 0.5f * ortho_height / std::tan(0.5f * fov_y);
    eye = target - forward() * d;
  }
  projection_mode = p;
}

namespace {
// |v| without overflow in the squares for coordinates past 1e19.
float length_of(const glm::vec3& v) {
  const float m = std::max(std::max(std::fabs(v.x), std::fabs(v.y)), std::fabs(v.z));
  return m > 0.0f ? m * glm::length(v / m) : 0.0f;
}
}  // namespace

void Camera::fit_clip_planes(const Bounds& b) {
  glm::vec3 c{b.center.x, b.center.y, b.center.z};
  float d = length_of(eye - c);
  float r = std::max(b.radius, 1e-6f);
  // Far: just past the sphere. Near: just before it, but never so close to the eye that depth
  // precision collapses (1/1000 of the far distance), and never behind the eye.
  if (orthographic()) {
    // The sphere spans its centre's distance along the view direction, +- r.
    const glm::vec3 f = target - eye;
    const float fl = length_of(f);
    if (fl > 0.0f) d = glm::dot(c - eye, f / fl);
    far_plane = d + 1.05f * r;
    near_plane = d - 1.05f * r;
    return;
  }
  far_plane = d + 1.05f * r;
  near_plane = std::max(d - 1.05f * r, far_plane * 1e-3f);
}

Camera Camera::framing(const Bounds& b, float aspect, float fov_y_rad, float fill) {
  Camera cam;
  cam.fov_y = fov_y_rad;
  float r = std::max(b.radius, 1e-6f);
  // The sphere must fit the narrower of the two fields of view.
  float half_fov = 0.5f * fov_y_rad;
  if (aspect < 1.0f) half_fov = std::atan(std::tan(half_fov) * aspect);
  float d = r / (fill * std::sin(half_fov));
  glm::vec3 c{b.center.x, b.center.y, b.center.z};
  glm::vec3 dir = glm::normalize(glm::vec3(0.8f, 0.45f, 1.0f));  // three-quarter view, a little above
  cam.target = c;
  cam.eye = c + dir * d;
  cam.up = {0, 1, 0};
  cam.fit_clip_planes(b);
  return cam;
}

}  // namespace facet
