// The ground grid's host side (ground_grid.h).
#include "engine/render/ground_grid.h"

#include <algorithm>
#include <cmath>

#include "engine/base/parallel.h"

namespace facet {

namespace {
constexpr float kGridFadeRadii = 4.0f;            // the grid ends this many model radii out
constexpr float kCellsAcrossModel = 10.0f;        // at least this many cells span the model
constexpr Rgba8 kGridColour{170, 175, 185, 150};  // light grey, mostly opaque: reads on any
                                                  //   background colour without hiding it
constexpr Rgba8 kXAxisColour{235, 80, 80, 255};   // red and blue, as the gizmo's X and Z
constexpr Rgba8 kZAxisColour{90, 140, 245, 255};
constexpr uint64_t kRowsPerChunk = 16;  // rows a CPU worker takes at a time
}  // namespace

GridParams make_grid_params(const Camera& camera, const FrameParams& fp, const Bounds& bounds) {
  GridParams g{};
  const glm::vec3 f = glm::normalize(camera.target - camera.eye);
  const glm::vec3 r = glm::normalize(glm::cross(f, camera.up));
  const glm::vec3 u = glm::cross(r, f);
  // Perspective: the ray's slope per NDC unit; orthographic: its origin's offset (ground_grid.h).
  const float t = camera.orthographic() ? 0.5f * camera.ortho_height : std::tan(0.5f * camera.fov_y);
  const float aspect = (float)fp.width / (float)fp.height;
  g.orthographic = camera.orthographic();
  g.near_plane = camera.near_plane;
  auto v3 = [](glm::vec3 v) { return Vec3{v.x, v.y, v.z}; };
  g.eye = v3(camera.eye);
  g.forward = v3(f);
  g.right_step = v3(r * (t * aspect));
  g.up_step = v3(u * t);
  g.view_proj = fp.view_proj;
  g.plane_y = bounds.min.y;
  const float size = std::max({bounds.max.x - bounds.min.x, bounds.max.z - bounds.min.z, bounds.radius, 1e-6f});
  const float spacing = std::pow(10.0f, std::floor(std::log10(size / kCellsAcrossModel)));
  g.inv_spacing = 1.0f / spacing;
  g.centre_x = bounds.center.x;
  g.centre_z = bounds.center.z;
  g.inv_fade_radius = 1.0f / (kGridFadeRadii * std::max(bounds.radius, 1e-6f));
  g.colour = kGridColour;
  g.x_axis_colour = kXAxisColour;
  g.z_axis_colour = kZAxisColour;
  g.width = fp.width;
  g.height = fp.height;
  g.vis_tag = fp.vis_tag;
  g.samples = fp.samples;
  return g;
}

void draw_ground_grid_cpu(const GridParams& g, const uint64_t* vis, Rgba8* rgba) {
  parallel_for((uint64_t)g.height, kRowsPerChunk, [&](uint64_t y0, uint64_t y1, unsigned) {
    for (int y = (int)y0; y < (int)y1; ++y)
      for (int x = 0; x < g.width; ++x) {
        const size_t i = (size_t)y * g.width + x;
        rgba[i] = ground_grid_pixel(g, x, y, nearest_key(vis + i * g.samples, g.samples), rgba[i]);
      }
  });
}

}  // namespace facet
