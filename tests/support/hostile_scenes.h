// Hostile geometry for tests, shared by the CPU tests (tests/cpu/test_hostile_*.cpp) and
// the CUDA-against-CPU ones (tests/gpu/test_hostile_gpu.cpp): closed meshes to check
// watertightness on (a torus, a box made of many triangles), and the hostile scenes themselves
// (near plane, behind the camera, vertex at the eye, guard band, 1e30 / 1e-6 coordinates,
// degenerate, NaN/Inf, edge-on, screen-filling, a million triangles on one pixel, exact depth ties),
// each with the frame it is drawn in. Header only: every function is inline.
#pragma once
#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "engine/render/renderer.h"
#include "engine/scene/generate.h"
#include "tests/support/ray_cast.h"
#include "tests/support/test_scenes.h"

namespace facet::test {

// Albedo (linear) of every hostile scene's one material. With Lit shading a covered pixel is grey
// (r = g = b) between the encodings of kd * ambient and kd: anything else is garbage.
constexpr float kHostileKd = 0.8f;

// A scene from raw positions and triangles: computed normals (any that come out non-unit, as
// for NaN or overflowing positions, are replaced by +Z), one grey material, finite bounds.
inline Scene make_mesh(std::vector<Vec3> positions, std::vector<uint32_t> indices, const std::string& name) {
  Scene s;
  s.source = name;
  s.positions.assign(positions.begin(), positions.end());
  s.indices.assign(indices.begin(), indices.end());
  s.normals = compute_vertex_normals(s.positions, s.indices);
  for (Vec3& n : s.normals) {
    float l = std::sqrt(dot(n, n));
    if (!(std::fabs(l - 1.0f) < 1e-3f)) n = {0, 0, 1};
  }
  s.tri_material.assign(s.triangle_count(), 0);
  s.materials.push_back({{kHostileKd, kHostileKd, kHostileKd}, -1});
  s.material_names.push_back("hostile-grey");
  s.bounds = compute_bounds(s.positions);
  return s;
}

// A closed torus around the Y axis: major radius R, tube radius r, nu x nv quads (2 nu nv
// triangles), vertices shared across the seams.
inline Scene make_torus(uint32_t nu, uint32_t nv, float R, float r, Vec3 c = {0, 0, 0}) {
  std::vector<Vec3> p;
  std::vector<uint32_t> idx;
  const double pi = 3.14159265358979323846;
  for (uint32_t i = 0; i < nu; ++i)
    for (uint32_t j = 0; j < nv; ++j) {
      double u = 2 * pi * i / nu, v = 2 * pi * j / nv;
      double ring = R + r * std::cos(v);
      p.push_back(
          {c.x + (float)(ring * std::cos(u)), c.y + (float)(r * std::sin(v)), c.z + (float)(ring * std::sin(u))});
    }
  auto id = [&](uint32_t i, uint32_t j) { return (i % nu) * nv + (j % nv); };
  for (uint32_t i = 0; i < nu; ++i)
    for (uint32_t j = 0; j < nv; ++j) {
      uint32_t a = id(i, j), b = id(i + 1, j), cc = id(i + 1, j + 1), d = id(i, j + 1);
      idx.insert(idx.end(), {a, cc, b, a, d, cc});
    }
  return make_mesh(std::move(p), std::move(idx), "torus");
}

// A closed axis-aligned box with half extents h around c, each face an n x n grid of quads
// (12 n^2 triangles), vertices shared along the box's edges and corners, outward CCW winding.
inline Scene make_box(uint32_t n, Vec3 h, Vec3 c = {0, 0, 0}) {
  std::vector<Vec3> p;
  std::vector<uint32_t> idx;
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint32_t> ids;
  auto vertex = [&](uint32_t g[3]) {
    auto key = std::make_tuple(g[0], g[1], g[2]);
    auto it = ids.find(key);
    if (it != ids.end()) return it->second;
    float half[3] = {h.x, h.y, h.z}, ctr[3] = {c.x, c.y, c.z}, q[3];
    for (int k = 0; k < 3; ++k) q[k] = ctr[k] + half[k] * (2.0f * (float)g[k] / (float)n - 1.0f);
    p.push_back({q[0], q[1], q[2]});
    return ids[key] = (uint32_t)p.size() - 1;
  };
  for (int a = 0; a < 3; ++a)
    for (int side = 0; side < 2; ++side) {
      int u = (a + 1) % 3, v = (a + 2) % 3;  // e_u x e_v = e_a
      for (uint32_t i = 0; i < n; ++i)
        for (uint32_t j = 0; j < n; ++j) {
          uint32_t q[4];
          const uint32_t di[4] = {0, 1, 1, 0}, dj[4] = {0, 0, 1, 1};
          for (int k = 0; k < 4; ++k) {
            uint32_t g[3];
            g[a] = side ? n : 0;
            g[u] = i + di[k];
            g[v] = j + dj[k];
            q[k] = vertex(g);
          }
          if (side)
            idx.insert(idx.end(), {q[0], q[1], q[2], q[0], q[2], q[3]});
          else
            idx.insert(idx.end(), {q[0], q[2], q[1], q[0], q[3], q[2]});
        }
    }
  return make_mesh(std::move(p), std::move(idx), "box");
}

// An n x n grid of quads in the plane y = 0 spanning [-e, e]^2 (x, z), shared vertices.
inline Scene make_ground(uint32_t n, float e) {
  std::vector<Vec3> p;
  std::vector<uint32_t> idx;
  for (uint32_t i = 0; i <= n; ++i)
    for (uint32_t j = 0; j <= n; ++j) p.push_back({e * (2.0f * i / n - 1.0f), 0.0f, e * (2.0f * j / n - 1.0f)});
  for (uint32_t i = 0; i < n; ++i)
    for (uint32_t j = 0; j < n; ++j) {
      uint32_t a = i * (n + 1) + j, b = a + n + 1;
      idx.insert(idx.end(), {a, a + 1, b + 1, a, b + 1, b});
    }
  return make_mesh(std::move(p), std::move(idx), "ground");
}

// An n x n grid of quads in the plane z = 0 spanning [-1, 1]^2, with jittered interior vertices
// so that its triangles are not axis-aligned.
inline Scene make_flat_grid(uint32_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> jitter(-0.3f, 0.3f);
  std::vector<Vec3> p;
  std::vector<uint32_t> idx;
  for (uint32_t i = 0; i <= n; ++i)
    for (uint32_t j = 0; j <= n; ++j) {
      bool border = i == 0 || j == 0 || i == n || j == n;
      float jx = border ? 0 : jitter(rng) / n, jy = border ? 0 : jitter(rng) / n;
      p.push_back({2.0f * i / n - 1.0f + jx, 2.0f * j / n - 1.0f + jy, 0.0f});
    }
  for (uint32_t i = 0; i < n; ++i)
    for (uint32_t j = 0; j < n; ++j) {
      uint32_t a = i * (n + 1) + j, b = a + n + 1;
      idx.insert(idx.end(), {a, b, b + 1, a, b + 1, a + 1});
    }
  return make_mesh(std::move(p), std::move(idx), "flat-grid");
}

// `copies` copies of a mesh, one after the other (vertices duplicated, bit-identical).
inline Scene repeat_mesh(const Scene& m, uint32_t copies) {
  std::vector<Vec3> p;
  std::vector<uint32_t> idx;
  for (uint32_t k = 0; k < copies; ++k) {
    uint32_t base = (uint32_t)p.size();
    p.insert(p.end(), m.positions.begin(), m.positions.end());
    for (uint32_t i : m.indices) idx.push_back(base + i);
  }
  return make_mesh(std::move(p), std::move(idx), m.source + "-x" + std::to_string(copies));
}

// A camera with an explicit up vector.
inline Camera camera(glm::vec3 eye, glm::vec3 target, glm::vec3 up, float fov_y_deg, float near_plane,
                     float far_plane) {
  Camera c = look_at(eye, target, fov_y_deg, near_plane, far_plane);
  c.up = up;
  return c;
}

// The world point seen at window position (wx, wy) (pixels, y down) at view depth `depth`.
inline Vec3 world_at_window(const Camera& c, int width, int height, double wx, double wy, double depth) {
  const CameraBasis cb(c, width, height);
  glm::dvec3 q = cb.eye + cb.window_ray(wx, wy) * depth;
  return {(float)q.x, (float)q.y, (float)q.z};
}

// `count` triangles, all covering the centre of pixel (px, py) and no other pixel centre, at
// view depths that decrease with the index except for a tie group: the nearest depth is shared
// by triangles winner, winner + 1, ..., winner + 9 (facing the camera, so each has one window
// depth). The visible one must be `winner`. Every triangle has its own three vertices.
inline Scene make_pile_on_one_pixel(const Camera& c, int width, int height, int px, int py, uint32_t count,
                                    uint32_t winner) {
  std::vector<Vec3> p;
  std::vector<uint32_t> idx;
  p.reserve(3 * (size_t)count);
  idx.reserve(3 * (size_t)count);
  const double cx = px + 0.5, cy = py + 0.5;
  for (uint32_t t = 0; t < count; ++t) {
    double depth = 2.0 + 1e-6 * (count - t);          // later ones nearer...
    if (t >= winner && t < winner + 10) depth = 1.5;  // ... but the tie group is nearest of all
    // A small triangle around the pixel centre, its shape varying with t (within 0.4 px).
    double a = 0.15 + 0.2 * ((t * 7919u) % 101) / 100.0, b = 0.15 + 0.2 * ((t * 104729u) % 97) / 96.0;
    uint32_t base = (uint32_t)p.size();
    if (t >= winner && t < winner + 10) a = b = 0.3;  // the tie group is bit-identical
    p.push_back(world_at_window(c, width, height, cx - a, cy + b, depth));
    p.push_back(world_at_window(c, width, height, cx + a, cy + b, depth));
    p.push_back(world_at_window(c, width, height, cx, cy - b, depth));
    idx.insert(idx.end(), {base, base + 1, base + 2});
  }
  return make_mesh(std::move(p), std::move(idx), "pile-on-one-pixel");
}

// The million-triangle pile as the shared list and the tests draw it: frame, target pixel,
// triangle count and the index that must win (the first of the nearest tie group).
struct PileSetup {
  int width, height, px, py;
  uint32_t count, winner;
  Camera camera() const { return look_at({0, 0, 0}, {0, 0, -1}, 60.0f, 0.1f, 10.0f); }
  Scene scene() const { return make_pile_on_one_pixel(camera(), width, height, px, py, count, winner); }
};
constexpr PileSetup kPile{160, 120, 77, 55, 1000000, 654321};

// One hostile scene and the frame it is drawn in.
struct HostileCase {
  std::string name;
  std::shared_ptr<Scene> scene;
  FrameParams fp;
};

inline std::vector<HostileCase> hostile_cases() {
  std::vector<HostileCase> cases;
  const int W = 160, H = 120;
  auto add = [&](std::string name, Scene s, const Camera& c) {
    auto sp = std::make_shared<Scene>(std::move(s));
    cases.push_back({std::move(name), sp, frame_params(*sp, c, W, H)});
  };
  const Camera front = look_at({0, 0, 5}, {0, 0, 0}, 50.0f, 0.5f, 100.0f);
  const float big[] = {1e3f, 1e6f, 1e12f, 1e30f};

  // Crossing the near plane (eye at z = 5, near 0.5): one and two vertices behind the eye.
  add("near-plane",
      make_mesh({{-1, -1, 0}, {1.5f, -0.5f, 0}, {0.3f, 0.8f, 9}, {-2, 1, 1}, {0.5f, 1.2f, 7}, {1, 2, 6.5f}},
                {0, 1, 2, 3, 4, 5}, "near-plane"),
      front);
  // Entirely behind the camera, some huge (their mirror image would fill the frame).
  add("behind",
      make_mesh({{-1, -1, 7}, {1, -1, 7}, {0, 1, 7}, {-1e6f, -1e6f, 9}, {1e6f, -1e6f, 9}, {0, 1e6f, 9}},
                {0, 1, 2, 3, 4, 5}, "behind"),
      front);
  // A vertex exactly at the eye (one, two and three of them).
  add("vertex-at-eye",
      make_mesh({{0, 0, 5}, {1, 0.3f, 0}, {-0.5f, 1, -1}, {0.2f, -0.7f, 1}}, {0, 1, 2, 0, 0, 3, 0, 0, 0, 1, 2, 3},
                "vertex-at-eye"),
      front);
  // One triangle containing the whole view, at several scales; and one crossing the near plane.
  for (float s : big)
    add("fill-" + std::to_string((int)std::log10(s)),
        make_mesh({{-s, -s, 0}, {s, -s, 0}, {0, s, 0}}, {0, 1, 2}, "fill"), front);
  add("fill-through-near", make_mesh({{-100, -60, 17}, {100, -60, 17}, {0, 100, -31}}, {0, 1, 2}, "fill"), front);
  add("floor-30", make_mesh({{-1e30f, -1, -1e30f}, {1e30f, -1, -1e30f}, {0, -1, 1e30f}}, {0, 1, 2}, "floor"),
      look_at({0, 0, 5}, {0, -5, 0}, 50.0f, 0.5f, 100.0f));
  // Guard band: a vertex on screen, the others far out (huge ones lose the on-screen vertex's
  // bits if the clipper measures from them).
  for (float s : big)
    add("wedge-" + std::to_string((int)std::log10(s)),
        make_mesh({{0.3f, 0.2f, 0}, {-s, 0.1f * s, 0}, {-0.2f * s, -s, -0.3f * s}}, {0, 1, 2}, "wedge"), front);
  // Coordinates of 1e-6: a tiny triangle seen from up close, and one too small to cover a centre.
  add("tiny", make_mesh({{-1e-6f, -1e-6f, 0}, {1e-6f, -0.5e-6f, 0}, {0, 1e-6f, 0.2e-6f}}, {0, 1, 2}, "tiny"),
      look_at({0, 0, 3e-6f}, {0, 0, 0}, 60.0f, 1e-7f, 1e-5f));
  add("subpixel", make_mesh({{0, 0, 0}, {1e-6f, 0, 0}, {0, 1e-6f, 0}}, {0, 1, 2}, "subpixel"), front);
  // Degenerate: repeated vertices, a repeated position, collinear.
  add("degenerate",
      make_mesh({{-1, -1, 0}, {1, 1, 0}, {0, 0, 0}, {1, 1, 0}, {0.5f, -1, 0}},
                {0, 0, 0, 0, 0, 1, 0, 1, 3, 0, 1, 2, 0, 2, 1, 4, 4, 2}, "degenerate"),
      front);
  // NaN and infinities, and a finite position whose clip coordinates overflow.
  {
    const float nan = std::nanf(""), inf = INFINITY;
    Scene s = make_sphere(800);
    s.positions[3] = {nan, 0, 0};
    s.positions[40] = {0, inf, 0};
    s.positions[77] = {0, 0, -inf};
    s.positions[120] = {0.5f, 0.5f, nan};
    s.positions[200] = {3e38f, 3e38f, 3e38f};
    add("nan-inf", make_mesh({s.positions.begin(), s.positions.end()}, {s.indices.begin(), s.indices.end()}, "nan-inf"),
        front);
  }
  // A flat mesh seen exactly edge-on: aligned (nothing at all) and from a skew in-plane eye.
  add("edge-on-aligned", make_flat_grid(24, 1), look_at({-4, 0.2f, 0}, {0, 0.1f, 0}, 50.0f, 0.1f, 20.0f));
  add("edge-on-skew", make_flat_grid(24, 2),
      camera({3.1f, 1.7f, 0}, {-0.4f, -0.2f, 0}, {0.2f, 0.6f, 0.7f}, 55.0f, 0.1f, 20.0f));
  // A million triangles on one pixel.
  static_assert(kPile.width == W && kPile.height == H, "the pile is drawn in the list's frame");
  add("pile", kPile.scene(), kPile.camera());
  // Every triangle at the same depth: three copies of a sphere.
  add("copies", repeat_mesh(make_sphere(3000), 3), look_at({0.4f, 0.9f, 2.6f}, {0, 0, 0}, 50.0f, 0.1f, 10.0f));
  return cases;
}

// Random unit vector, uniform over directions.
inline glm::vec3 random_dir(std::mt19937& rng) {
  std::normal_distribution<float> n(0.0f, 1.0f);
  glm::vec3 v;
  do v = {n(rng), n(rng), n(rng)};
  while (glm::length(v) < 1e-3f);
  return glm::normalize(v);
}

}  // namespace facet::test
