// Generated scenes: spheres of any triangle count and a textured quad.
#include "engine/scene/generate.h"

#include <algorithm>
#include <cmath>

#include "engine/scene/closed_surface.h"
#include "engine/scene/colour_space.h"

namespace facet {

Scene make_sphere(uint64_t triangles, float radius, Vec3 center) {
  // A UV sphere with `rings` latitude bands and `segs` longitude segments has
  // 2 * segs * (rings - 1) triangles; take segs = 2 * rings.
  uint64_t want = std::max<uint64_t>(triangles, 8);
  uint32_t rings = std::max<uint32_t>(2, (uint32_t)std::lround(std::sqrt((double)want / 4.0)));
  uint32_t segs = 2 * rings;
  Scene s;
  s.source = "sphere:" + std::to_string(triangles);
  const double pi = 3.14159265358979323846;
  for (uint32_t i = 0; i <= rings; ++i) {
    double theta = pi * i / rings;  // 0 at +Y
    // The poles and the seam (j = segs) land exactly where they close the surface: sin(pi) and
    // sin(2 pi) are not 0 in floating point, and a closed surface may skip its back faces
    // (closed_surface.h).
    const double ring = (i == 0 || i == rings) ? 0.0 : std::sin(theta);
    const double height = i == 0 ? 1.0 : i == rings ? -1.0 : std::cos(theta);
    for (uint32_t j = 0; j <= segs; ++j) {
      double phi = j == segs ? 0.0 : 2.0 * pi * j / segs;
      Vec3 n{(float)(ring * std::cos(phi)), (float)height, (float)(-ring * std::sin(phi))};
      s.positions.push_back({center.x + radius * n.x, center.y + radius * n.y, center.z + radius * n.z});
      s.normals.push_back(n);
      s.uvs.push_back({(float)j / segs, 1.0f - (float)i / rings});
    }
  }
  auto vid = [&](uint32_t i, uint32_t j) { return i * (segs + 1) + j; };
  for (uint32_t i = 0; i < rings; ++i) {
    for (uint32_t j = 0; j < segs; ++j) {
      uint32_t a = vid(i, j), b = vid(i + 1, j), c = vid(i + 1, j + 1), d = vid(i, j + 1);
      // Counter-clockwise seen from outside. The pole rows keep one triangle per quad.
      if (i != 0) {
        s.indices.insert(s.indices.end(), {a, b, d});
      }
      if (i != rings - 1) {
        s.indices.insert(s.indices.end(), {b, c, d});
      }
    }
  }
  s.tri_material.assign(s.triangle_count(), 0);
  s.materials.push_back({{kDefaultGreyLinear, kDefaultGreyLinear, kDefaultGreyLinear}, -1});
  s.material_names.push_back("default");
  s.bounds = compute_bounds(s.positions);
  s.bounds.closed = closed_outward(s.positions, s.indices);
  return s;
}

Scene make_quad(const std::vector<Rgba8>& image, int width, int height) {
  Scene s;
  s.source = "quad";
  s.positions = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
  s.normals.assign(4, Vec3{0, 0, 1});
  s.uvs = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  s.indices = {0, 1, 2, 0, 2, 3};
  s.tri_material = {0, 0};
  int32_t tex = -1;
  if (!image.empty()) tex = add_texture(s, "quad-texture", width, height, image);
  s.materials.push_back({{1, 1, 1}, tex});
  s.material_names.push_back("quad");
  s.bounds = compute_bounds(s.positions);
  return s;
}

float distance_for_coverage(float r, float fraction, int width, int height, float fov_y) {
  // Projected disc area (small-angle exact for a sphere: radius_px = f * r / sqrt(d^2 - r^2)).
  float f = 0.5f * (float)height / std::tan(0.5f * fov_y);
  float area = fraction * (float)width * (float)height;
  float rad_px = std::sqrt(area / 3.14159265f);
  // rad_px = f r / sqrt(d^2 - r^2)  =>  d^2 = r^2 (1 + f^2 / rad_px^2)
  return r * std::sqrt(1.0f + f * f / (rad_px * rad_px));
}

Camera bench_camera(const Bounds& b, bool sphere, int width, int height, bool ortho) {
  const float fov = glm::radians(45.0f);
  const glm::vec3 c{b.center.x, b.center.y, b.center.z};
  float d;
  if (sphere) {
    d = distance_for_coverage(b.radius, 0.28f, width, height, fov);
  } else {
    // The bounding sphere spans 80 % of the frame height.
    const float alpha = std::atan(0.8f * std::tan(0.5f * fov));
    d = b.radius / std::sin(alpha);
  }
  Camera cam;
  cam.fov_y = fov;
  cam.target = c;
  cam.eye = c + glm::vec3(0, 0, d);
  if (ortho) cam.set_projection(Projection::Orthographic);
  cam.fit_clip_planes(b);
  return cam;
}

}  // namespace facet
