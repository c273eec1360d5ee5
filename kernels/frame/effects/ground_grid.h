// The ground grid: an overlay drawn over a resolved frame, per pixel, shared by the CUDA kernel
// (ground_grid.cu) and the CPU backend (engine/render/ground_grid.cpp). Each pixel's view ray meets the plane
// y = plane_y under the model; where that point is nearer than the surface the visibility buffer
// holds (or there is none), an anti-aliased line of the grid is blended over the pixel. Line
// width comes from the grid's change between neighbouring pixels (finite differences of the same
// ray math), so lines stay about a pixel wide at any distance and fade where cells get smaller
// than a few pixels; the lines through the world origin are coloured as the X (red) and Z (blue)
// axes. Float math only, in a fixed order: both backends produce the same bytes.
// It does not draw the corner axes gizmo (the viewer's overlay does).
#pragma once
#include "kernels/base/hd.h"
#include "kernels/frame/geometry/project.h"
#include "kernels/frame/params.h"
#include "kernels/frame/raster/raster.h"

namespace facet {

constexpr float kGridLineHalfPx = 0.75f;  // half the line width, pixels: thin but never aliased
constexpr float kGridDenseCells = 0.25f;  // cells per pixel where lines start fading (moire)
constexpr float kGridFarCells = 0.5f;     //   and where they are gone

struct GridParams {
  Vec3 eye;                  // camera position, world
  Vec3 forward;              // unit view direction, world
  Vec3 right_step;           // camera right * tan(fov_y / 2) * aspect: the ray's change per NDC x
  Vec3 up_step;              // camera up * tan(fov_y / 2): the ray's change per NDC y
                             //   (orthographic: right * height / 2 * aspect and up * height / 2, the
                             //   change of the ray's origin; every ray then runs along forward)
  bool orthographic;         // parallel rays from the plane through eye, meeting the plane at any
  float near_plane;          //   distance along forward past near_plane (the camera's; may be < 0)
  Mat4 view_proj;            // the frame's view-projection, for the plane point's window depth
  float plane_y;             // the ground plane, world y (the model's bounding box bottom)
  float inv_spacing;         // grid cells per world unit
  float centre_x, centre_z;  // the grid's centre on the plane (under the model's centre)
  float inv_fade_radius;     // 1 / distance from the centre where the grid has faded out
  Rgba8 colour;              // line colour; alpha is the opacity of a fully covered pixel
  Rgba8 x_axis_colour;       // the line z = 0 (along world X), same opacity
  Rgba8 z_axis_colour;       // the line x = 0 (along world Z)
  int32_t width, height;     // frame size, pixels
  uint32_t vis_tag;          // the frame's visibility tag (raster.h)
  int32_t samples = 1;       // keys a pixel in the visibility buffer (FrameParams::samples); the grid
                             //   is tested against the pixel's nearest sample (nearest_key)
};

// The view ray through the centre of pixel (x, y): its origin o and direction d, not normalized
// (perspective: from the eye; orthographic: from the eye's plane, along forward).
FACET_HD void grid_ray(const GridParams& g, int x, int y, Vec3& o, Vec3& d) {
  const float nx = 2.0f * ((float)x + 0.5f) / (float)g.width - 1.0f;
  const float ny = 1.0f - 2.0f * ((float)y + 0.5f) / (float)g.height;
  o = g.orthographic ? g.eye + g.right_step * nx + g.up_step * ny : g.eye;
  d = g.orthographic ? g.forward : g.forward + g.right_step * nx + g.up_step * ny;
}

// Grid coordinates (cells) where the ray of pixel (x, y) meets the plane in front of the eye (in
// orthographic: past the near plane); false when it does not (parallel, or the plane is behind).
FACET_HD bool grid_hit(const GridParams& g, int x, int y, float& u, float& v, Vec3& p) {
  Vec3 o, d;
  grid_ray(g, x, y, o, d);
  const float h = g.plane_y - o.y;
  if (d.y == 0.0f) return false;
  if (g.orthographic ? !(h / d.y >= g.near_plane) : (h < 0.0f) != (d.y < 0.0f)) return false;
  const float t = h / d.y;
  p = {o.x + d.x * t, g.plane_y, o.z + d.z * t};
  u = p.x * g.inv_spacing;
  v = p.z * g.inv_spacing;
  return true;
}

// Coverage of the nearest line of one family: u in cells, du its change per pixel (cells).
FACET_HD float grid_line_coverage(float u, float du) {
  const float cells_from_line = fabsf(u - floorf(u + 0.5f));
  const float px_from_line = cells_from_line / du;
  const float line = clampf(kGridLineHalfPx + 0.5f - px_from_line, 0.0f, 1.0f);
  const float density = clampf((kGridFarCells - du) / (kGridFarCells - kGridDenseCells), 0.0f, 1.0f);
  return line * density;
}

FACET_HD uint8_t blend_channel(uint8_t under, uint8_t over, float a) {
  return (uint8_t)((float)under + ((float)over - (float)under) * a + 0.5f);
}

// Pixel (x, y) with the grid blended over `c` where the plane is in front of the surface `key`.
FACET_HD Rgba8 ground_grid_pixel(const GridParams& g, int x, int y, uint64_t key, Rgba8 c) {
  float u, v, ux, vx, uy, vy;
  Vec3 p, px, py;
  if (!grid_hit(g, x, y, u, v, p) || !grid_hit(g, x + 1, y, ux, vx, px) || !grid_hit(g, x, y + 1, uy, vy, py)) return c;
  if (key_current(key, g.vis_tag)) {
    const uint32_t bits = (uint32_t)(key >> 32) & 0x3fffffffu;  // the key's depth (vis_key)
    union {
      uint32_t u;
      float f;
    } surface;
    surface.u = bits;
    if (surface.f <= clip_to_depth(mul_point(g.view_proj, p))) return c;  // the surface is nearer
  }
  const float du = fabsf(ux - u) + fabsf(uy - u), dv = fabsf(vx - v) + fabsf(vy - v);
  if (!(du > 0.0f) || !(dv > 0.0f)) return c;
  // The nearer family's line; the lines through the world origin show the X and Z axes.
  const float cover_u = grid_line_coverage(u, du), cover_v = grid_line_coverage(v, dv);
  const bool along_z = cover_u >= cover_v;
  const float cover = along_z ? cover_u : cover_v;
  Rgba8 line = g.colour;
  if (along_z && floorf(u + 0.5f) == 0.0f) line = g.z_axis_colour;
  if (!along_z && floorf(v + 0.5f) == 0.0f) line = g.x_axis_colour;
  const float dx = p.x - g.centre_x, dz = p.z - g.centre_z;
  const float fade = clampf(1.0f - sqrtf(dx * dx + dz * dz) * g.inv_fade_radius, 0.0f, 1.0f);
  const float a = cover * fade * ((float)g.colour.a * (1.0f / 255.0f));
  if (!(a > 0.0f)) return c;
  return {blend_channel(c.r, line.r, a), blend_channel(c.g, line.g, a), blend_channel(c.b, line.b, a), c.a};
}

}  // namespace facet
