// Host-side picking math in double, so a point picked on a large model (coordinates in the
// thousands) keeps its sub-unit digits for measuring.
#include "app/viewer/controls/pick.h"

#include <cmath>

namespace facet {

namespace {
glm::dvec3 to_d(Vec3 v) { return {v.x, v.y, v.z}; }
}  // namespace

PixelRay pixel_ray(const Camera& camera, double x, double y, int width, int height) {
  glm::dvec3 eye = camera.eye, target = camera.target, up = camera.up;
  glm::dvec3 f = glm::normalize(target - eye);
  glm::dvec3 r = glm::normalize(glm::cross(f, up));
  glm::dvec3 u = glm::cross(r, f);
  double t = std::tan(0.5 * (double)camera.fov_y);
  double aspect = (double)width / (double)height;
  double ndc_x = 2.0 * (x + 0.5) / width - 1.0;
  double ndc_y = 1.0 - 2.0 * (y + 0.5) / height;
  if (camera.orthographic()) {
    // Parallel rays: the pixel moves the origin across the eye's plane, not the direction.
    const double half_h = 0.5 * (double)camera.ortho_height;
    return {eye + (ndc_x * half_h * aspect) * r + (ndc_y * half_h) * u, f};
  }
  glm::dvec3 d = f + (ndc_x * t * aspect) * r + (ndc_y * t) * u;
  return {eye, glm::normalize(d)};
}

SurfacePick surface_from_hit(const Scene& scene, const Camera& camera, PixelHit hit, int x, int y, int width,
                             int height) {
  SurfacePick pick;
  if (!hit.hit() || hit.triangle >= scene.triangle_count()) return pick;
  const uint32_t* idx = &scene.indices[3 * (size_t)hit.triangle];
  glm::dvec3 a = to_d(scene.positions[idx[0]]), b = to_d(scene.positions[idx[1]]), c = to_d(scene.positions[idx[2]]);
  PixelRay ray = pixel_ray(camera, x, y, width, height);
  // The pixel centre is inside the triangle (it was rasterized there), so its plane is enough.
  glm::dvec3 n = glm::cross(b - a, c - a);
  double denom = glm::dot(n, ray.direction);
  if (denom == 0.0 || glm::dot(n, n) == 0.0) return pick;  // seen edge-on or degenerate
  double t = glm::dot(n, a - ray.origin) / denom;
  pick.hit = true;
  pick.triangle = scene.file_index(hit.triangle);
  pick.depth = hit.depth;
  pick.position = ray.origin + t * ray.direction;
  pick.distance = t;
  uint32_t m = hit.triangle < scene.tri_material.size() ? scene.tri_material[hit.triangle] : 0;
  if (m < scene.material_names.size()) pick.material = scene.material_names[m];
  return pick;
}

SurfacePick pick_surface(Renderer& renderer, const Scene& scene, const Camera& camera, int x, int y, int width,
                         int height) {
  return surface_from_hit(scene, camera, renderer.pick(x, y), x, y, width, height);
}

bool project_to_window(const Camera& camera, glm::dvec3 p, float viewport_w, float viewport_h, glm::vec2* out) {
  glm::dmat4 vp = glm::dmat4(camera.view_projection(viewport_w / viewport_h));
  glm::dvec4 clip = vp * glm::dvec4(p, 1.0);
  if (clip.w <= 0) return false;
  *out = {(float)((clip.x / clip.w * 0.5 + 0.5) * viewport_w), (float)((0.5 - clip.y / clip.w * 0.5) * viewport_h)};
  return true;
}

}  // namespace facet
