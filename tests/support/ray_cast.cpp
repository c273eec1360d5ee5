// Double-precision oracles for tests (ray_cast.h).
#include "tests/support/ray_cast.h"

#include <algorithm>
#include <cmath>

namespace facet::test {

CameraBasis::CameraBasis(const Camera& c, int w, int h) : width(w), height(h) {
  eye = c.eye;
  f = glm::normalize(glm::dvec3(c.target) - eye);
  r = glm::normalize(glm::cross(f, glm::dvec3(c.up)));
  u = glm::cross(r, f);
  ty = std::tan(0.5 * (double)c.fov_y);
  tx = ty * w / h;
}

glm::dvec3 CameraBasis::window_ray(double wx, double wy) const {
  double nx = wx / width * 2.0 - 1.0, ny = 1.0 - wy / height * 2.0;
  return f + r * (nx * tx) + u * (ny * ty);
}

double plane_distance(glm::dvec3 origin, glm::dvec3 dir, glm::dvec3 a, glm::dvec3 b, glm::dvec3 c) {
  const glm::dvec3 n = glm::cross(b - a, c - a);
  return glm::dot(a - origin, n) / glm::dot(dir, n);
}

std::vector<uint32_t> ray_cast(const Scene& s, const Camera& c, int w, int h) {
  CameraBasis cb(c, w, h);
  std::vector<uint32_t> ids((size_t)w * h, kNoTriangle);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      glm::dvec3 d = cb.ray(x, y);
      double best = INFINITY;
      for (uint32_t t = 0; t < s.triangle_count(); ++t) {
        glm::dvec3 v[3];
        bool finite = true;
        for (int k = 0; k < 3; ++k) {
          v[k] = to_dvec3(s.positions[s.indices[3 * t + k]]) - cb.eye;  // relative to the eye: no cancellation
          finite = finite && std::isfinite(v[k].x) && std::isfinite(v[k].y) && std::isfinite(v[k].z);
        }
        if (!finite) continue;
        double e0 = glm::dot(d, glm::cross(v[0], v[1])), e1 = glm::dot(d, glm::cross(v[1], v[2])),
               e2 = glm::dot(d, glm::cross(v[2], v[0]));
        bool inside = (e0 > 0 && e1 > 0 && e2 > 0) || (e0 < 0 && e1 < 0 && e2 < 0);
        if (!inside) continue;
        double depth = plane_distance({0, 0, 0}, d, v[0], v[1], v[2]);  // d has view depth 1
        if (!(depth >= c.near_plane && depth <= c.far_plane) || depth >= best) continue;
        best = depth;
        ids[(size_t)y * w + x] = t;
      }
    }
  return ids;
}

double max_distance_from_plane_line(const std::vector<uint32_t>& ids, const CameraBasis& cb, glm::dvec3 n) {
  // d(x, y) . n is linear in the window position: g(x, y) = g0 + gx * x + gy * y.
  double a = glm::dot(n, cb.f), b = glm::dot(n, cb.r) * cb.tx, c = glm::dot(n, cb.u) * cb.ty;
  double gx = 2.0 * b / cb.width, gy = -2.0 * c / cb.height, g0 = a - b + c;
  double len = std::sqrt(gx * gx + gy * gy), worst = 0;
  for (int y = 0; y < cb.height; ++y)
    for (int x = 0; x < cb.width; ++x)
      if (ids[(size_t)y * cb.width + x] != kNoTriangle)
        worst = std::max(worst, std::fabs(g0 + gx * (x + 0.5) + gy * (y + 0.5)) / len);
  return worst;
}

}  // namespace facet::test
