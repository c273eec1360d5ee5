// The host-side scene's helpers: sizes and views of its arrays, bounds, area-weighted vertex
// normals, and textures with their full mip chains (box filter). No file reading here (loader.cpp).
#include "engine/scene.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace facet {

template <class T>
static size_t bytes_of(const std::vector<T>& v) {
  return v.size() * sizeof(T);
}

size_t Scene::byte_size() const {
  return bytes_of(positions) + bytes_of(normals) + bytes_of(uvs) + bytes_of(indices) +
         bytes_of(tri_material) + bytes_of(materials) + bytes_of(textures) + bytes_of(texels);
}

int64_t Scene::single_material() const {
  if (tri_material.empty()) return -1;
  const uint32_t m = tri_material[0];
  for (uint32_t t : tri_material)
    if (t != m) return -1;
  return m;
}

SceneView Scene::view(const ShadeVertex* shade) const {
  SceneView v{};
  v.positions = positions.data();
  v.shade = shade;
  v.has_uvs = !uvs.empty();
  v.indices = indices.data();
  v.tri_material = tri_material.data();
  v.materials = materials.data();
  v.textures = textures.empty() ? nullptr : textures.data();
  v.texels = texels.empty() ? nullptr : texels.data();
  v.vertex_count = vertex_count();
  v.triangle_count = triangle_count();
  return v;
}

std::vector<ShadeVertex> interleave_shade_vertices(const Scene& s) {
  std::vector<ShadeVertex> out(s.positions.size());
  for (size_t i = 0; i < out.size(); ++i) {
    out[i].p = s.positions[i];
    out[i].n = i < s.normals.size() ? s.normals[i] : Vec3{0, 0, 0};
    out[i].uv = i < s.uvs.size() ? s.uvs[i] : Vec2{0, 0};
  }
  return out;
}

Bounds compute_bounds(const std::vector<Vec3>& positions) {
  Bounds b;
  const float inf = std::numeric_limits<float>::infinity();
  Vec3 lo{inf, inf, inf}, hi{-inf, -inf, -inf};
  bool any = false;
  for (const Vec3& p : positions) {
    if (!finite3(p)) continue;
    any = true;
    lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
    hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
  }
  if (!any) {  // nothing to frame: a unit sphere at the origin keeps cameras sane
    b.radius = 1.0f;
    return b;
  }
  b.min = lo;
  b.max = hi;
  // Box centre computed in double: (lo + hi) / 2 overflows float for coordinates near 3e38.
  double cx = 0.5 * ((double)lo.x + hi.x), cy = 0.5 * ((double)lo.y + hi.y),
         cz = 0.5 * ((double)lo.z + hi.z);
  b.center = {(float)cx, (float)cy, (float)cz};
  // The sphere around the box centre through the farthest point: tighter than the half diagonal.
  double r2 = 0, scale = 1;
  for (const Vec3& p : positions) {
    if (!finite3(p)) continue;
    double dx = p.x - (double)b.center.x, dy = p.y - (double)b.center.y,
           dz = p.z - (double)b.center.z;
    r2 = std::max(r2, dx * dx + dy * dy + dz * dz);
    scale = std::max({scale, std::fabs((double)p.x), std::fabs((double)p.y), std::fabs((double)p.z)});
  }
  // Rounded up past float error of the centre, and never 0 (a single point still gets framed).
  double r = std::sqrt(r2) * (1.0 + 1e-6);
  r = std::max(r, 1e-6 * scale);
  b.radius = (float)std::min(r, (double)std::numeric_limits<float>::max());
  return b;
}

std::vector<Vec3> compute_vertex_normals(const std::vector<Vec3>& positions,
                                         const std::vector<uint32_t>& indices) {
  std::vector<Vec3> acc(positions.size(), Vec3{0, 0, 0});
  const size_t n = positions.size();
  for (size_t t = 0; t + 2 < indices.size(); t += 3) {
    uint32_t i0 = indices[t], i1 = indices[t + 1], i2 = indices[t + 2];
    if (i0 >= n || i1 >= n || i2 >= n) continue;
    Vec3 p0 = positions[i0], p1 = positions[i1], p2 = positions[i2];
    // The unnormalised cross product is twice the area times the unit normal: summing it
    // weights each face by its area, so slivers from triangulation barely count.
    Vec3 c = cross(p1 - p0, p2 - p0);
    if (!finite3(c)) continue;
    acc[i0] = acc[i0] + c;
    acc[i1] = acc[i1] + c;
    acc[i2] = acc[i2] + c;
  }
  for (Vec3& a : acc) {
    // Normalised in double: for tiny scanned triangles (dragon, areas near 1e-8 m^2) the
    // float length squared would underflow.
    double l = std::sqrt((double)a.x * a.x + (double)a.y * a.y + (double)a.z * a.z);
    if (l > 0 && std::isfinite(l)) {
      a = {(float)(a.x / l), (float)(a.y / l), (float)(a.z / l)};
    } else {
      a = {0, 0, 1};  // only degenerate faces touch it: any unit vector keeps shading defined
    }
  }
  return acc;
}

// One level down: each destination texel averages the source area it covers (scale w/nw by
// h/nh), with fractional weights at the borders, so odd sizes lose no row or column.
static void downsample_box(const Rgba8* src, int w, int h, Rgba8* dst, int nw, int nh) {
  const double sx = (double)w / nw, sy = (double)h / nh;
  for (int y = 0; y < nh; ++y) {
    double y0 = y * sy, y1 = (y + 1) * sy;
    int ya = (int)std::floor(y0), yb = std::min(h, (int)std::ceil(y1));
    for (int x = 0; x < nw; ++x) {
      double x0 = x * sx, x1 = (x + 1) * sx;
      int xa = (int)std::floor(x0), xb = std::min(w, (int)std::ceil(x1));
      double sum[4] = {0, 0, 0, 0}, wsum = 0;
      for (int j = ya; j < yb; ++j) {
        double wy = std::min(y1, (double)j + 1) - std::max(y0, (double)j);
        for (int i = xa; i < xb; ++i) {
          double wx = std::min(x1, (double)i + 1) - std::max(x0, (double)i);
          double wgt = wx * wy;
          const Rgba8& c = src[(size_t)j * w + i];
          sum[0] += wgt * c.r;
          sum[1] += wgt * c.g;
          sum[2] += wgt * c.b;
          sum[3] += wgt * c.a;
          wsum += wgt;
        }
      }
      auto q = [&](double v) { return (uint8_t)std::clamp(std::lround(v / wsum), 0L, 255L); };
      dst[(size_t)y * nw + x] = {q(sum[0]), q(sum[1]), q(sum[2]), q(sum[3])};
    }
  }
}

int32_t add_texture(Scene& scene, const std::string& path, int width, int height,
                    const std::vector<Rgba8>& level0) {
  if (width <= 0 || height <= 0 || level0.size() != (size_t)width * (size_t)height)
    throw std::invalid_argument(path + ": texture size " + std::to_string(width) + "x" +
                                std::to_string(height) + " does not match its " +
                                std::to_string(level0.size()) + " texels");
  // Levels: halve (floor, at least 1) until both sides are 1, as kernels/texture.h expects.
  int levels = 1;
  size_t total = (size_t)width * height;
  for (int w = width, h = height; w > 1 || h > 1; ++levels) {
    w = std::max(w / 2, 1);
    h = std::max(h / 2, 1);
    total += (size_t)w * h;
  }
  // TextureDesc::offset is 32-bit: the whole texel array must stay addressable.
  if (scene.texels.size() + total > std::numeric_limits<uint32_t>::max())
    throw std::length_error(path + ": texture does not fit in the scene's 32-bit texel index");

  TextureDesc d{};
  d.offset = (uint32_t)scene.texels.size();
  d.width = width;
  d.height = height;
  d.levels = levels;
  scene.texels.resize(scene.texels.size() + total);
  Rgba8* out = scene.texels.data() + d.offset;
  std::copy(level0.begin(), level0.end(), out);
  int w = width, h = height;
  for (int l = 1; l < levels; ++l) {
    int nw = std::max(w / 2, 1), nh = std::max(h / 2, 1);
    Rgba8* next = out + (size_t)w * h;
    downsample_box(out, w, h, next, nw, nh);
    out = next;
    w = nw;
    h = nh;
  }
  scene.textures.push_back(d);
  scene.texture_paths.push_back(path);
  return (int32_t)scene.textures.size() - 1;
}

int32_t add_checker_texture(Scene& scene) {
  // 8 x 8 squares of 8 texels, magenta and black: the colours everyone reads as "texture missing".
  constexpr int kSquares = 8, kSquareTexels = 8, kSide = kSquares * kSquareTexels;
  std::vector<Rgba8> img((size_t)kSide * kSide);
  for (int y = 0; y < kSide; ++y)
    for (int x = 0; x < kSide; ++x) {
      bool on = ((x / kSquareTexels) + (y / kSquareTexels)) % 2 == 0;
      img[(size_t)y * kSide + x] = on ? Rgba8{255, 0, 255, 255} : Rgba8{0, 0, 0, 255};
    }
  return add_texture(scene, "<checker>", kSide, kSide, img);
}

}  // namespace facet
