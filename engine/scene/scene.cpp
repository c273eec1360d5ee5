// The host-side scene's helpers: sizes and views of its arrays, bounds, and textures with their
// full mip chains (box filter in linear light), the big loops on every core with results that do
// not depend on the number of threads. Vertex normals: vertex_normals.cpp; no file reading here
// (load_model.cpp).
#include "engine/scene/scene.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <utility>

#include "engine/base/big_array.h"
#include "engine/base/parallel.h"
#include "engine/base/platform.h"
#include "kernels/frame/resolve/normal_code.h"
#include "kernels/frame/resolve/srgb.h"

namespace facet {

// Triangles per parallel_for chunk of the material scan: 256 KB, enough that handing out chunks
// costs nothing.
constexpr uint64_t kMaterialChunk = 1 << 16;

template <class T, class A>
static size_t bytes_of(const std::vector<T, A>& v) {
  return v.size() * sizeof(T);
}

void add_source_file(std::vector<SourceFile>& files, const std::string& path) {
  const platform::FileStatus status = platform::file_status(path);
  SourceFile f;
  f.path = platform::real_path(path);
  if (f.path.empty()) {  // not there: made absolute, so that another working directory finds it too
    const size_t slash = path.rfind('/');
    const std::string dir = platform::real_path(slash == std::string::npos ? "." : path.substr(0, slash + 1));
    if (!dir.empty())
      f.path = dir + "/" + path.substr(slash + 1);
    else  // its folder is missing too: the path as given, from the working directory
      f.path = path[0] == '/' ? path : platform::real_path(".") + "/" + path;
  }
  if (status.exists) f.size = status.size, f.mtime_ns = status.mtime_ns;
  for (const SourceFile& had : files)
    if (had.path == f.path) return;
  files.push_back(std::move(f));
}

size_t Scene::byte_size() const {
  return bytes_of(positions) + bytes_of(normals) + bytes_of(uvs) + bytes_of(colors) + bytes_of(indices) +
         bytes_of(tri_material) + bytes_of(file_triangle) + bytes_of(materials) + bytes_of(textures) + bytes_of(texels);
}

int64_t Scene::single_material() const {
  if (tri_material.empty()) return -1;
  const uint32_t m = tri_material[0];
  // On every core: the upload asks on its critical path, and a 300 M-triangle scene's 1.2 GB is
  // a long pass for one core.
  std::atomic<bool> differs{false};
  parallel_for(tri_material.size(), kMaterialChunk, [&](uint64_t begin, uint64_t end, unsigned) {
    if (differs.load(std::memory_order_relaxed)) return;
    for (uint64_t t = begin; t < end; ++t)
      if (tri_material[t] != m) {
        differs.store(true, std::memory_order_relaxed);
        return;
      }
  });
  return differs.load() ? -1 : (int64_t)m;
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
  v.colors = colors.empty() ? nullptr : colors.data();
  v.has_cutouts = scene_has_cutouts(*this);
  return v;
}

static bool is_black(Vec3 c) { return c.x == 0 && c.y == 0 && c.z == 0; }

bool plain_lit_scene(const Scene& s) {
  if (!s.colors.empty()) return false;
  const bool uvs = !s.uvs.empty();
  for (const Material& m : s.materials) {
    const bool textured = m.texture >= 0 || m.specular_texture >= 0 || m.emission_texture >= 0;
    const bool white_ambient = m.ka.x == 1 && m.ka.y == 1 && m.ka.z == 1;
    if ((uvs && textured) || !white_ambient || !is_black(m.ks) || !is_black(m.ke)) return false;
  }
  return true;
}

bool scene_has_cutouts(const Scene& s) {
  for (const Material& m : s.materials)
    if (m.alpha < 0.5f || !(m.alpha == m.alpha) || (m.alpha_texture >= 0 && !s.uvs.empty())) return true;
  return false;
}

void interleave_shade_range(const Scene& s, uint64_t begin, uint64_t end, ShadeVertex* out) {
  for (uint64_t i = begin; i < end; ++i, ++out) {
    out->p = s.positions[i];
    // What both backends shade with: the device holds normals as codes (kernels/frame/resolve/normal_code.h).
    out->n = quantize_normal(i < s.normals.size() ? s.normals[i] : Vec3{0, 0, 0});
    out->uv = i < s.uvs.size() ? s.uvs[i] : Vec2{0, 0};
  }
}

std::vector<ShadeVertex> interleave_shade_vertices(const Scene& s) {
  std::vector<ShadeVertex> out;
  // Its pages faulted in on every core: a zero-fill on one thread took longer than the
  // interleaving itself (1.4 GB for 44 M vertices).
  resize_on_every_core(out, s.positions.size());
  parallel_for(out.size(), 1 << 15, [&](uint64_t begin, uint64_t end, unsigned) {
    interleave_shade_range(s, begin, end, out.data() + begin);
  });
  return out;
}

namespace {

// Positions per parallel_for chunk in the scans below: enough work that handing out chunks costs
// nothing, small enough to spread a 100 K-vertex model over the cores.
constexpr uint64_t kVertexChunk = 1 << 15;

struct Box {
  Vec3 lo, hi;
  bool any = false;
};

// The box of the finite positions in [begin, end). std::min and std::max keep the earlier of
// two equal values (-0 and +0), so boxes merged in order give exactly the one-pass result.
Box finite_box(const BigVector<Vec3>& positions, size_t begin, size_t end) {
  const float inf = std::numeric_limits<float>::infinity();
  Box b{{inf, inf, inf}, {-inf, -inf, -inf}, false};
  for (size_t i = begin; i < end; ++i) {
    const Vec3& p = positions[i];
    if (!finite3(p)) continue;
    b.any = true;
    b.lo = {std::min(b.lo.x, p.x), std::min(b.lo.y, p.y), std::min(b.lo.z, p.z)};
    b.hi = {std::max(b.hi.x, p.x), std::max(b.hi.y, p.y), std::max(b.hi.z, p.z)};
  }
  return b;
}

}  // namespace

Bounds compute_bounds(const BigVector<Vec3>& positions) {
  Bounds b;
  const size_t chunks = (positions.size() + kVertexChunk - 1) / kVertexChunk;
  std::vector<Box> boxes(chunks);
  parallel_for(chunks, 1, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t c = begin; c < end; ++c)
      boxes[c] = finite_box(positions, c * kVertexChunk, std::min(positions.size(), (c + 1) * kVertexChunk));
  });
  Box all = finite_box(positions, 0, 0);
  for (const Box& box : boxes) {  // in order: the same ties as one pass
    if (!box.any) continue;
    all.any = true;
    all.lo = {std::min(all.lo.x, box.lo.x), std::min(all.lo.y, box.lo.y), std::min(all.lo.z, box.lo.z)};
    all.hi = {std::max(all.hi.x, box.hi.x), std::max(all.hi.y, box.hi.y), std::max(all.hi.z, box.hi.z)};
  }
  if (!all.any) {  // nothing to frame: a unit sphere at the origin keeps cameras sane
    b.radius = 1.0f;
    return b;
  }
  const Vec3 lo = all.lo, hi = all.hi;
  b.min = lo;
  b.max = hi;
  // Box centre computed in double: (lo + hi) / 2 overflows float for coordinates near 3e38.
  double cx = 0.5 * ((double)lo.x + hi.x), cy = 0.5 * ((double)lo.y + hi.y), cz = 0.5 * ((double)lo.z + hi.z);
  b.center = {(float)cx, (float)cy, (float)cz};
  // The sphere around the box centre through the farthest point: tighter than the half diagonal.
  // Maxima are exact in any order.
  std::vector<std::pair<double, double>> far(chunks, {0.0, 1.0});  // (r2, scale) per chunk
  parallel_for(chunks, 1, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t c = begin; c < end; ++c) {
      double r2 = 0, scale = 1;
      for (size_t i = c * kVertexChunk; i < std::min(positions.size(), (c + 1) * kVertexChunk); ++i) {
        const Vec3& p = positions[i];
        if (!finite3(p)) continue;
        double dx = p.x - (double)b.center.x, dy = p.y - (double)b.center.y, dz = p.z - (double)b.center.z;
        r2 = std::max(r2, dx * dx + dy * dy + dz * dz);
        scale = std::max({scale, std::fabs((double)p.x), std::fabs((double)p.y), std::fabs((double)p.z)});
      }
      far[c] = {r2, scale};
    }
  });
  double r2 = 0, scale = 1;
  for (const auto& f : far) {
    r2 = std::max(r2, f.first);
    scale = std::max(scale, f.second);
  }
  // Rounded up past float error of the centre, and never 0 (a single point still gets framed).
  double r = std::sqrt(r2) * (1.0 + 1e-6);
  r = std::max(r, 1e-6 * scale);
  b.radius = (float)std::min(r, (double)std::numeric_limits<float>::max());
  return b;
}

// One level down: each destination texel averages the source area it covers (scale w/nw by
// h/nh), with fractional weights at the borders, so odd sizes lose no row or column. Colour is
// averaged in linear light (texels decoded from sRGB, the mean encoded back; alpha is linear), so
// a level is as bright as the one above it. Our own box filter rather than stb_image_resize's
// sRGB resampling: that resizes a whole image in one call (one core; the rows here go to all of
// them) with a wider default kernel, and our decode and encode are the shaders' own tables.
static void downsample_rows(const Rgba8* src, int w, int h, Rgba8* dst, int nw, int nh, int y_begin, int y_end) {
  const double sx = (double)w / nw, sy = (double)h / nh;
  for (int y = y_begin; y < y_end; ++y) {
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
          sum[0] += wgt * srgb_to_linear(c.r);
          sum[1] += wgt * srgb_to_linear(c.g);
          sum[2] += wgt * srgb_to_linear(c.b);
          sum[3] += wgt * c.a;
          wsum += wgt;
        }
      }
      auto q = [&](double v) { return (uint8_t)std::clamp(std::lround(v / wsum), 0L, 255L); };
      auto encode = [&](double v) { return srgb_encode8((float)(v / wsum)); };
      dst[(size_t)y * nw + x] = {encode(sum[0]), encode(sum[1]), encode(sum[2]), q(sum[3])};
    }
  }
}

// Rows of a level are independent: they go to all cores.
static void downsample_box(const Rgba8* src, int w, int h, Rgba8* dst, int nw, int nh) {
  constexpr uint64_t kRowChunk = 16;  // rows per chunk: a 4 K level has 128 of them
  parallel_for((uint64_t)nh, kRowChunk, [&](uint64_t begin, uint64_t end, unsigned) {
    downsample_rows(src, w, h, dst, nw, nh, (int)begin, (int)end);
  });
}

int32_t add_texture(Scene& scene, const std::string& path, int width, int height, const std::vector<Rgba8>& level0) {
  if (width <= 0 || height <= 0 || level0.size() != (size_t)width * (size_t)height)
    throw std::invalid_argument(path + ": texture size " + std::to_string(width) + "x" + std::to_string(height) +
                                " does not match its " + std::to_string(level0.size()) + " texels");
  // Levels: halve (floor, at least 1) until both sides are 1, as kernels/frame/resolve/texture.h expects.
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
