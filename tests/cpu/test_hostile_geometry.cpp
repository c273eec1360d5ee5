// Hostile geometry on the CPU backend (issue 5): triangles crossing the near plane, behind the
// camera, with a vertex at the eye, spanning the guard band, with coordinates from 1e-6 to 1e30,
// degenerate, NaN/Inf, flat meshes seen exactly edge-on, one triangle filling the screen, a
// million triangles on one pixel, exact depth ties; watertightness of dense closed meshes (torus,
// box of many triangles, thin slab, huge and tiny spheres, a huge ground plane) from random,
// grazing and very close cameras. Every frame is also checked for garbage: covered pixels hold
// real triangle ids with sane colours, background elsewhere.
//
// Oracles: a double-precision ray caster through the pixel centres (ids may differ only on
// pixels next to an edge), per-pixel hit counts through the shared front end (process_triangle
// + raster_rect, no depth test), and the image line of a plane through the eye.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <random>
#include <set>

#include "engine/cpu_renderer.h"
#include "engine/generate.h"
#include "kernels/project.h"
#include "kernels/raster.h"
#include "kernels/shade.h"
#include "kernels/triangle.h"
#include "kernels/vertex.h"
#include "tests/support/hostile_scenes.h"
#include "tests/support/image_compare.h"
#include "tests/support/test_scenes.h"

using namespace facet;
using test::HostileCase;

namespace {

// Every triangle drawn, back faces of closed meshes too: these tests count the layers the
// rasterizer covers, which skipping hidden back faces (make_frame_params) would halve.
RenderSettings two_sided() {
  RenderSettings s;
  s.two_sided = true;
  return s;
}

using test::random_dir;

constexpr uint32_t kNone = ~0u;

struct Frame {
  std::vector<uint32_t> ids;
  std::vector<Rgba8> rgba;
  TriCounters tris{};
};

Frame render(const std::shared_ptr<Scene>& scene, const FrameParams& fp) {
  CpuRenderer r;
  r.set_scene(scene);
  r.render(fp);
  Frame f;
  r.read_triangle_ids(f.ids);
  r.read_rgba(f.rgba);
  f.tris = r.stats().tris;
  return f;
}
Frame render(const Scene& scene, const FrameParams& fp) { return render(std::make_shared<Scene>(scene), fp); }

// No garbage: a covered pixel holds a triangle of the scene that `allowed` accepts and, with Lit
// shading of the hostile grey material, a grey between kd * ambient and kd; an empty pixel holds
// exactly the background colour. Returns the number of covered pixels.
size_t expect_clean(const Frame& f, const Scene& s, const FrameParams& fp, const std::string& label,
                    const std::function<bool(uint32_t)>& allowed = nullptr) {
  const int lo = (int)(test::kHostileKd * kAmbient * 255.0f) - 1, hi = (int)(test::kHostileKd * 255.0f) + 1;
  size_t covered = 0, bad_id = 0, bad_colour = 0, bad_background = 0;
  for (size_t i = 0; i < f.ids.size(); ++i) {
    const Rgba8 c = f.rgba[i];
    if (f.ids[i] == kNone) {
      bad_background += c.r != fp.background.r || c.g != fp.background.g || c.b != fp.background.b ||
                        c.a != fp.background.a;
      continue;
    }
    ++covered;
    if (f.ids[i] >= s.triangle_count() || (allowed && !allowed(f.ids[i]))) ++bad_id;
    if (fp.shading == Shading::Lit)
      bad_colour += c.r != c.g || c.g != c.b || c.r < lo || c.r > hi || c.a != 255;
  }
  EXPECT_EQ(bad_id, 0u) << label << ": pixels hold ids that cannot be there";
  EXPECT_EQ(bad_colour, 0u) << label << ": covered pixels with colours outside the material's range";
  EXPECT_EQ(bad_background, 0u) << label << ": empty pixels that are not the background";
  return covered;
}

// Hits per pixel of every triangle through the shared front end, without a depth test, the
// lowest id covering each pixel, and the pixels of all raster boxes handed out (the raster work).
struct Hits {
  std::vector<int> count;
  std::vector<uint32_t> min_id;
  TriCounters tris{};
  uint64_t box_pixels = 0;
};

Hits hit_counts(const Scene& s, const FrameParams& fp) {
  const ClipPlanes planes = make_clip_planes(fp.width, fp.height);
  std::vector<ProjectedVertex> pv(s.vertex_count());
  for (uint32_t v = 0; v < s.vertex_count(); ++v)
    pv[v] = project_and_snap(fp.view_proj, s.positions[v], planes, fp.width, fp.height);
  Hits h;
  h.count.assign((size_t)fp.width * fp.height, 0);
  h.min_id.assign(h.count.size(), kNone);
  for (uint32_t t = 0; t < s.triangle_count(); ++t)
    process_triangle(pv.data(), s.positions.data(), s.indices.data(), t, fp, planes, h.tris, [&](const RasterTri& r) {
      h.box_pixels += (uint64_t)(r.px1 - r.px0 + 1) * (r.py1 - r.py0 + 1);
      const uint32_t id = r.tri;
      raster_rect(r, r.px0, r.py0, r.px1, r.py1, [&](int x, int y, uint64_t) {
        size_t i = (size_t)y * fp.width + x;
        ++h.count[i];
        h.min_id[i] = std::min(h.min_id[i], id);
      });
    });
  return h;
}

// The camera's frame in double precision, as glm::lookAt and glm::perspective build it.
struct CameraBasis {
  glm::dvec3 eye, f, r, u;
  double tx, ty;  // tangents of the half fields of view
  int width, height;
  CameraBasis(const Camera& c, int w, int h) : width(w), height(h) {
    eye = c.eye;
    f = glm::normalize(glm::dvec3(c.target) - eye);
    r = glm::normalize(glm::cross(f, glm::dvec3(c.up)));
    u = glm::cross(r, f);
    ty = std::tan(0.5 * (double)c.fov_y);
    tx = ty * w / h;
  }
  // Direction through the centre of pixel (x, y), scaled so that its view depth is 1.
  glm::dvec3 ray(int x, int y) const {
    double nx = (x + 0.5) / width * 2.0 - 1.0, ny = 1.0 - (y + 0.5) / height * 2.0;
    return f + r * (nx * tx) + u * (ny * ty);
  }
};

// Double-precision ray casting through every pixel centre: the nearest triangle whose hit lies
// between the near and far planes (view depth), ties to the lower index; kNone where none.
std::vector<uint32_t> ray_cast(const Scene& s, const Camera& c, int w, int h) {
  CameraBasis cb(c, w, h);
  std::vector<uint32_t> ids((size_t)w * h, kNone);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      glm::dvec3 d = cb.ray(x, y);
      double best = INFINITY;
      for (uint32_t t = 0; t < s.triangle_count(); ++t) {
        glm::dvec3 v[3];
        bool finite = true;
        for (int k = 0; k < 3; ++k) {
          Vec3 p = s.positions[s.indices[3 * t + k]];
          v[k] = glm::dvec3(p.x, p.y, p.z) - cb.eye;  // relative to the eye: no cancellation
          finite = finite && std::isfinite(v[k].x) && std::isfinite(v[k].y) && std::isfinite(v[k].z);
        }
        if (!finite) continue;
        double e0 = glm::dot(d, glm::cross(v[0], v[1])), e1 = glm::dot(d, glm::cross(v[1], v[2])),
               e2 = glm::dot(d, glm::cross(v[2], v[0]));
        bool inside = (e0 > 0 && e1 > 0 && e2 > 0) || (e0 < 0 && e1 < 0 && e2 < 0);
        if (!inside) continue;
        glm::dvec3 n = glm::cross(v[1] - v[0], v[2] - v[0]);
        double depth = glm::dot(n, v[0]) / glm::dot(n, d);
        if (!(depth >= c.near_plane && depth <= c.far_plane) || depth >= best) continue;
        best = depth;
        ids[(size_t)y * w + x] = t;
      }
    }
  return ids;
}

// Renders and compares against the ray caster: only pixels next to an edge may differ.
void expect_matches_ray_cast(const Scene& s, const Camera& c, int w, int h, const std::string& label) {
  FrameParams fp = test::frame_params(s, c, w, h, two_sided());
  Frame f = render(s, fp);
  expect_clean(f, s, fp, label);
  std::vector<uint32_t> ref = ray_cast(s, c, w, h);
  test::IdComparison cmp = test::compare_ids(ref, f.ids, w, h, 1);
  if (cmp.interior_differing) test::write_id_diff("hostile-" + label, ref, f.ids, w, h);
  EXPECT_EQ(cmp.interior_differing, 0u) << label << ": " << cmp.differing << " pixels differ from the ray caster";
  EXPECT_LE(cmp.differing, cmp.covered / 20 + 8) << label;
  EXPECT_GT(cmp.covered, 0u) << label << ": the reference sees nothing, the comparison proves little";
}

// Largest distance, in pixels, from a covered pixel centre to the image of the plane through
// the eye with normal n (a line; such a plane is seen exactly edge-on). 0 when nothing is covered.
double max_distance_from_plane_line(const std::vector<uint32_t>& ids, const CameraBasis& cb, glm::dvec3 n) {
  // d(x, y) . n is linear in the window position: g(x, y) = g0 + gx * x + gy * y.
  double a = glm::dot(n, cb.f), b = glm::dot(n, cb.r) * cb.tx, c = glm::dot(n, cb.u) * cb.ty;
  double gx = 2.0 * b / cb.width, gy = -2.0 * c / cb.height, g0 = a - b + c;
  double len = std::sqrt(gx * gx + gy * gy), worst = 0;
  for (int y = 0; y < cb.height; ++y)
    for (int x = 0; x < cb.width; ++x)
      if (ids[(size_t)y * cb.width + x] != kNone)
        worst = std::max(worst, std::fabs(g0 + gx * (x + 0.5) + gy * (y + 0.5)) / len);
  return worst;
}

// Checks every camera's hit counts with `ok(count)`; `what` names the expectation.
void expect_hits(const Scene& s, const std::vector<Camera>& cams, int w, int h, const char* what,
                 const std::function<bool(int)>& ok, size_t min_covered = 50) {
  for (size_t k = 0; k < cams.size(); ++k) {
    FrameParams fp = test::frame_params(s, cams[k], w, h, two_sided());
    Hits hits = hit_counts(s, fp);
    size_t covered = 0, bad = 0, first_bad = 0;
    for (size_t i = 0; i < hits.count.size(); ++i) {
      covered += hits.count[i] != 0;
      if (!ok(hits.count[i]) && bad++ == 0) first_bad = i;
    }
    EXPECT_EQ(bad, 0u) << s.source << " camera " << k << ": " << bad << " pixels not hit " << what
                       << ", first at (" << first_bad % w << ", " << first_bad / w << ") hit "
                       << hits.count[first_bad] << " times";
    EXPECT_GE(covered, min_covered) << s.source << " camera " << k << ": the mesh is barely in view";
  }
}
const auto kEven = [](int n) { return n % 2 == 0; };
const auto kOnce = [](int n) { return n == 1; };
const auto kOdd = [](int n) { return n % 2 == 1; };

const Camera kFront = test::look_at({0, 0, 5}, {0, 0, 0}, 50.0f, 0.5f, 100.0f);

}  // namespace

// ---------------------------------------------------------------------------------------------
// Near plane, behind the camera, vertex at the eye.

TEST(HostileGeometry, TrianglesCrossingTheNearPlaneShowOnlyTheirPartInFront) {
  // One vertex behind the eye; two behind; and a "floor" that runs under and behind the camera.
  Scene s = test::make_mesh({{-1, -1, 0}, {1.5f, -0.5f, 0}, {0.3f, 0.8f, 9},
                             {-2, 1, 1}, {0.5f, 1.2f, 7}, {1, 2, 6.5f},
                             {-3, -1.5f, -4}, {3, -1.5f, -4}, {0, -1.0f, 30}},
                            {0, 1, 2, 3, 4, 5, 6, 7, 8}, "near-plane");
  expect_matches_ray_cast(s, kFront, 160, 120, "near-plane");
  EXPECT_EQ(hit_counts(s, test::frame_params(s, kFront, 160, 120, two_sided())).tris.clipped, 3u);
  // A near plane close to the eye and a wide field of view: the cut pieces reach the guard band.
  expect_matches_ray_cast(s, test::look_at({0, 0, 5}, {0, 0, 0}, 120.0f, 1e-3f, 100.0f), 160, 120, "near-plane-wide");
}

TEST(HostileGeometry, TrianglesEntirelyBehindTheCameraDrawNothing) {
  // Mirrored (the divide-by-|z| mistake) several of these would fill the frame.
  std::vector<Vec3> p;
  std::vector<uint32_t> idx;
  for (float s : {1.0f, 1e3f, 1e6f, 1e30f}) {
    uint32_t b = (uint32_t)p.size();
    p.insert(p.end(), {{-s, -s, 5.5f}, {s, -s, 5.5f}, {0, s, 5.0001f + s}});
    idx.insert(idx.end(), {b, b + 1, b + 2});
  }
  Scene s = test::make_mesh(p, idx, "behind");
  FrameParams fp = test::frame_params(s, kFront, 160, 120, two_sided());
  Frame f = render(s, fp);
  EXPECT_EQ(expect_clean(f, s, fp, "behind"), 0u) << "something behind the camera was drawn";
  EXPECT_EQ(f.tris.culled, s.triangle_count());
  EXPECT_EQ(f.tris.drawn, 0u);
}

TEST(HostileGeometry, VertexExactlyAtTheEyeDrawsAtMostTheLineOfItsPlane) {
  // A triangle with a vertex at the eye lies in a plane through the eye: it is seen edge-on.
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int k = 0; k < 12; ++k) {
    glm::vec3 eye{u(rng) * 3, u(rng) * 3, 4 + u(rng)};
    Camera c = test::camera(eye, {u(rng) * 0.2f, u(rng) * 0.2f, 0}, glm::normalize(glm::vec3(u(rng) * 0.3f, 1, 0)), 60.0f, 0.05f, 50.0f);
    Vec3 e{eye.x, eye.y, eye.z};
    Vec3 a{u(rng), u(rng), u(rng)}, b{u(rng), u(rng), u(rng)};
    // One vertex at the eye, in each position; then two.
    Scene s = test::make_mesh({e, a, b}, {0, 1, 2, 1, 0, 2, 1, 2, 0, 0, 0, 1}, "vertex-at-eye");
    FrameParams fp = test::frame_params(s, c, 160, 120, two_sided());
    Frame f = render(s, fp);
    expect_clean(f, s, fp, "vertex-at-eye");
    EXPECT_EQ(f.tris.nan, 0u) << "w = 0 at the eye is finite: clipped, not dropped as NaN";
    CameraBasis cb(c, 160, 120);
    glm::dvec3 n = glm::cross(glm::dvec3(a.x, a.y, a.z) - cb.eye, glm::dvec3(b.x, b.y, b.z) - cb.eye);
    EXPECT_LE(max_distance_from_plane_line(f.ids, cb, n), 1.0) << "camera " << k;
  }
}

// ---------------------------------------------------------------------------------------------
// Guard band and extreme coordinates.

TEST(HostileGeometry, SingleTriangleFillingTheScreenCoversEveryPixelExactlyOnce) {
  const int W = 160, H = 120;
  struct Fill { std::string name; std::vector<Vec3> p; Camera cam; };
  std::vector<Fill> fills;
  for (float s : {10.0f, 1e6f, 1e12f, 1e30f})
    fills.push_back({"facing-1e" + std::to_string((int)std::log10(s)), {{-s, -s, 0}, {s, -s, 0}, {0, s, 0}}, kFront});
  // On the tilted plane z = -0.3 y - 1, its lower corners behind the eye: cut by the near plane.
  fills.push_back({"through-near", {{-100, -60, 17}, {100, -60, 17}, {0, 100, -31}}, kFront});
  // A floor under a camera looking down, reaching 1e30 in front of and behind the eye.
  // (Not further: at 1e8 the float world-to-clip transform itself rounds the floor's height by
  // several units, more than its distance to the eye; the shared list renders 1e30 for garbage.)
  for (float s : {1e3f, 1e6f})
    fills.push_back({"floor-1e" + std::to_string((int)std::log10(s)), {{-s, -1, -s}, {s, -1, -s}, {0, -1, s}},
                     test::look_at({0, 0, 5}, {0, -5, 0}, 50.0f, 0.5f, 100.0f)});
  for (const Fill& fl : fills) {
    Scene s = test::make_mesh(fl.p, {0, 1, 2}, fl.name);
    FrameParams fp = test::frame_params(s, fl.cam, W, H, two_sided());
    Hits h = hit_counts(s, fp);  // the clipped pieces together, no depth test
    size_t not_once = 0;
    for (int n : h.count) not_once += n != 1;
    EXPECT_EQ(not_once, 0u) << fl.name << ": pixels not covered exactly once by the pieces";
    Frame f = render(s, fp);
    expect_clean(f, s, fp, fl.name);
    EXPECT_EQ(std::count(f.ids.begin(), f.ids.end(), 0u), (long)f.ids.size()) << fl.name;
    EXPECT_GE(f.tris.drawn, 1u) << fl.name;
  }
}

TEST(HostileGeometry, HugeCoordinatesWithAVertexOnScreenMatchTheRayCaster) {
  // One vertex on screen, two far out: the two edges through the screen are defined by the
  // on-screen vertex and a direction. Clipping at the guard band must not lose that vertex's bits.
  for (float s : {1e3f, 1e6f, 1e12f, 1e30f}) {
    Scene wedge = test::make_mesh({{0.3f, 0.2f, 0}, {-s, 0.1f * s, 0}, {-0.2f * s, -s, 0}}, {0, 1, 2}, "wedge");
    expect_matches_ray_cast(wedge, kFront, 160, 120, "wedge-" + std::to_string((int)std::log10(s)));
    // The same with the far vertices also deep behind the far plane.
    Scene deep = test::make_mesh({{-0.4f, 0.1f, 0}, {s, 0.1f * s, -0.3f * s}, {0.3f * s, -s, -s}}, {0, 1, 2}, "deep");
    expect_matches_ray_cast(deep, kFront, 160, 120, "deep-" + std::to_string((int)std::log10(s)));
  }
}

TEST(HostileGeometry, TrianglesSpanningTheGuardBandMatchTheRayCaster) {
  // Vertices on the guard band's edge (16384 px beyond the frame), just beyond it, and far out,
  // placed through window coordinates; each triangle also crosses the frame.
  const int W = 160, H = 120;
  Camera c = test::look_at({0, 0, 0}, {0, 0, -1}, 50.0f, 0.1f, 1e4f);
  std::mt19937 rng(19);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<Vec3> p;
  std::vector<uint32_t> idx;
  const double g = kGuardBandPx;
  for (int t = 0; t < 12; ++t) {
    double far_out = t < 4 ? g : (t < 8 ? g + 0.5 : 1e7);  // on the band, just past it, far past
    double wx[3] = {-far_out, W + far_out, W * u(rng)}, wy[3] = {H * u(rng), H * u(rng), t % 2 ? -far_out : H + far_out};
    double depth = 2.0 + 0.5 * t;
    uint32_t b = (uint32_t)p.size();
    for (int k = 0; k < 3; ++k) p.push_back(test::world_at_window(c, W, H, wx[k], wy[k], depth * (1 + 0.3 * k)));
    idx.insert(idx.end(), {b, b + 1, b + 2});
  }
  Scene s = test::make_mesh(p, idx, "guard-band");
  expect_matches_ray_cast(s, c, W, H, "guard-band");
}

TEST(HostileGeometry, TinyCoordinatesMatchTheRayCaster) {
  // A 1e-6-sized triangle seen from 3e-6 with a near plane of 1e-7.
  Scene s = test::make_mesh({{-1e-6f, -1e-6f, 0}, {1e-6f, -0.5e-6f, 0}, {0, 1e-6f, 0.2e-6f},
                             {-0.3e-6f, 0.4e-6f, -0.5e-6f}, {0.8e-6f, 0.9e-6f, 0.3e-6f}, {0.2e-6f, -0.9e-6f, 0.1e-6f}},
                            {0, 1, 2, 3, 4, 5}, "tiny");
  expect_matches_ray_cast(s, test::look_at({0, 0, 3e-6f}, {0, 0, 0}, 60.0f, 1e-7f, 1e-5f), 160, 120, "tiny");
  // The same triangle from 1 unit away covers no pixel centre: culled, nothing drawn.
  FrameParams fp = test::frame_params(s, kFront, 160, 120, two_sided());
  Frame f = render(s, fp);
  EXPECT_EQ(expect_clean(f, s, fp, "tiny-far"), 0u);
  EXPECT_EQ(f.tris.culled, s.triangle_count());
}

TEST(HostileGeometry, HugeTrianglesDoBoundedWork) {
  // Random triangles with coordinates up to 1e30 in every direction (in front, behind, crossing
  // the eye plane): the work handed to the rasterizer is bounded by the frame, whatever the size.
  const int W = 160, H = 120;
  std::mt19937 rng(23);
  std::uniform_real_distribution<float> e(-30.0f, 30.0f);
  std::vector<Vec3> p;
  std::vector<uint32_t> idx;
  for (uint32_t t = 0; t < 600; ++t) {
    for (int k = 0; k < 3; ++k) {
      glm::vec3 d = random_dir(rng) * std::pow(10.0f, std::fabs(e(rng)));
      p.push_back({d.x, d.y, d.z});
      idx.push_back((uint32_t)p.size() - 1);
    }
  }
  Scene s = test::make_mesh(p, idx, "huge-random");
  FrameParams fp = test::frame_params(s, kFront, W, H, two_sided());
  Hits h = hit_counts(s, fp);
  EXPECT_EQ(h.tris.nan, 0u);
  EXPECT_EQ(h.tris.culled + h.tris.clipped <= s.triangle_count(), true);
  EXPECT_LE(h.tris.drawn, 7u * s.triangle_count()) << "a triangle clipped by 6 planes has at most 7 pieces";
  EXPECT_LE(h.box_pixels, (uint64_t)h.tris.drawn * W * H) << "raster boxes reach outside the frame";
  Frame f = render(s, fp);
  EXPECT_GT(expect_clean(f, s, fp, "huge-random"), 0u);
  EXPECT_EQ(f.tris.drawn, h.tris.drawn);
}

// ---------------------------------------------------------------------------------------------
// Degenerate, NaN/Inf, edge-on.

TEST(HostileGeometry, DegenerateTrianglesAreCulledAndDrawNothing) {
  // Repeated vertex indices, a repeated position under another index, exactly collinear points.
  Scene s = test::make_mesh({{-1, -1, 0}, {1, 1, 0}, {0, 0, 0}, {1, 1, 0}, {0.5f, -1, 0}, {-1, 0.5f, 0}, {0.25f, 0.5f, 0}, {1.5f, 0.5f, 0}},
                            {0, 0, 0, 0, 0, 1, 0, 1, 3, 0, 1, 2, 0, 2, 1, 4, 4, 2, 5, 6, 7, 6, 7, 5}, "degenerate");
  // Facing the camera the projection keeps exact zeros: every triangle has zero snapped area.
  FrameParams fp = test::frame_params(s, kFront, 160, 120, two_sided());
  Frame f = render(s, fp);
  EXPECT_EQ(expect_clean(f, s, fp, "degenerate"), 0u);
  EXPECT_EQ(f.tris.culled, s.triangle_count());
  // Oblique, rounding may leave slivers of nonzero area, but none covers a pixel centre.
  fp = test::frame_params(s, test::look_at({0.7f, -0.4f, 3}, {0, 0, 0}, 70.0f, 0.1f, 10.0f), 160, 120, two_sided());
  f = render(s, fp);
  EXPECT_EQ(expect_clean(f, s, fp, "degenerate-oblique"), 0u);
  EXPECT_EQ(f.tris.culled + f.tris.drawn, s.triangle_count());
}

TEST(HostileGeometry, RandomCollinearTrianglesDrawAtMostTheirLine) {
  // Collinear in 3D is not exactly collinear after projection and snapping: slivers may touch
  // pixel centres on the line, nothing else.
  std::mt19937 rng(29);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int k = 0; k < 20; ++k) {
    glm::vec3 a{u(rng), u(rng), u(rng)}, b{u(rng), u(rng), u(rng)};
    float t = u(rng) * 2.0f;
    glm::vec3 m = a + (b - a) * t;
    Scene s = test::make_mesh({{a.x, a.y, a.z}, {b.x, b.y, b.z}, {m.x, m.y, m.z}}, {0, 1, 2, 1, 2, 0, 2, 0, 1, 0, 2, 1}, "collinear");
    Camera c = test::look_at(random_dir(rng) * (2.0f + 2.0f * std::fabs(u(rng))), {0, 0, 0}, 60.0f, 0.1f, 20.0f);
    FrameParams fp = test::frame_params(s, c, 160, 120, two_sided());
    Frame f = render(s, fp);
    expect_clean(f, s, fp, "collinear");
    CameraBasis cb(c, 160, 120);
    glm::dvec3 n = glm::cross(glm::dvec3(a) - cb.eye, glm::dvec3(b) - cb.eye);
    EXPECT_LE(max_distance_from_plane_line(f.ids, cb, n), 1.0) << "case " << k;
  }
}

TEST(HostileGeometry, NanAndInfPositionsAreDroppedAndCountedExactly) {
  Scene base = make_sphere(4000);
  Scene bad = base;
  const float nan = std::nanf("");
  const std::vector<std::pair<uint32_t, Vec3>> poison = {
      {3, {nan, 0, 0}}, {40, {0, INFINITY, 0}}, {77, {0, 0, -INFINITY}}, {120, {0.5f, 0.5f, nan}},
      {500, {nan, nan, nan}}, {901, {-INFINITY, INFINITY, 0}},
      {1200, {3e38f, 3e38f, 3e38f}}};  // finite, but its clip coordinates overflow to infinity
  std::set<uint32_t> poisoned;
  for (auto [v, p] : poison) { bad.positions[v] = p; poisoned.insert(v); }
  // The reference: the same scene with the poisoned triangles made degenerate (indices 0, 0, 0).
  Scene ref = base;
  std::vector<bool> dropped(base.triangle_count(), false);
  uint32_t expected = 0;
  for (uint32_t t = 0; t < base.triangle_count(); ++t) {
    for (int k = 0; k < 3; ++k) dropped[t] = dropped[t] || poisoned.count(base.indices[3 * t + k]);
    if (!dropped[t]) continue;
    ++expected;
    for (int k = 0; k < 3; ++k) ref.indices[3 * t + k] = 0;
  }
  Scene bad_mesh = test::make_mesh(bad.positions, bad.indices, "nan-inf");
  for (const Camera& c : {test::look_at({0.2f, 0.5f, 3}, {0, 0, 0}, 50.0f, 0.1f, 10.0f),
                          test::look_at({0, 0.3f, 0.6f}, {0, 0, -1}, 90.0f, 0.05f, 10.0f)}) {  // inside: clipping
    FrameParams fp = test::frame_params(bad_mesh, c, 160, 120, two_sided());
    Frame f = render(bad_mesh, fp);
    EXPECT_EQ(f.tris.nan, expected) << "each triangle with a NaN/Inf vertex is counted once";
    expect_clean(f, bad_mesh, fp, "nan-inf", [&](uint32_t id) { return !dropped[id]; });
    Frame r = render(ref, fp);
    EXPECT_EQ(f.ids, r.ids) << "dropping the NaN triangles changed other pixels";
    EXPECT_EQ(f.tris.drawn, r.tris.drawn);
  }
  // Nothing but NaN: nothing drawn, every triangle counted.
  Scene all_nan = test::make_mesh(std::vector<Vec3>(base.vertex_count(), Vec3{nan, nan, nan}), base.indices, "all-nan");
  Frame f = render(all_nan, test::frame_params(all_nan, kFront, 64, 48, two_sided()));
  EXPECT_EQ(f.tris.nan, all_nan.triangle_count());
  EXPECT_EQ(std::count(f.ids.begin(), f.ids.end(), kNone), 64 * 48);
}

TEST(HostileGeometry, FlatMeshSeenExactlyEdgeOnDrawsNothingOrALine) {
  Scene grid = test::make_flat_grid(24, 5);  // z = 0
  // Eye in the plane, looking along it with the plane vertical on screen through the frame's
  // middle (a pixel boundary): every triangle snaps to zero area.
  {
    Camera c = test::look_at({-4, 0.2f, 0}, {0, 0.1f, 0}, 50.0f, 0.1f, 20.0f);
    FrameParams fp = test::frame_params(grid, c, 160, 120, two_sided());
    Frame f = render(grid, fp);
    EXPECT_EQ(expect_clean(f, grid, fp, "edge-on-aligned"), 0u);
    EXPECT_EQ(f.tris.culled, grid.triangle_count());
  }
  // Skew eyes in the plane (rounding leaves slivers): at most pixels on the plane's image line.
  std::mt19937 rng(31);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int k = 0; k < 16; ++k) {
    float ang = 3.14159265f * u(rng);
    glm::vec3 eye{3.0f * std::cos(ang), 3.0f * std::sin(ang), 0};
    glm::vec3 target{u(rng) * 0.5f, u(rng) * 0.5f, k % 4 == 0 ? u(rng) : 0.0f};
    Camera c = test::camera(eye, target, random_dir(rng), 40.0f + 40.0f * std::fabs(u(rng)), 0.1f, 20.0f);
    if (std::fabs(glm::dot(glm::normalize(c.up), glm::normalize(target - eye))) > 0.95f) c.up = {0, 0, 1};
    FrameParams fp = test::frame_params(grid, c, 160, 120, two_sided());
    Frame f = render(grid, fp);
    expect_clean(f, grid, fp, "edge-on-skew");
    EXPECT_LE(max_distance_from_plane_line(f.ids, CameraBasis(c, 160, 120), {0, 0, 1}), 1.0) << "camera " << k;
  }
}

// ---------------------------------------------------------------------------------------------
// Overdraw and depth ties.

TEST(HostileGeometry, AMillionTrianglesOnOnePixelFinishAndTheNearestLowestIndexWins) {
  const int W = 160, H = 120, PX = 77, PY = 55;
  const uint32_t N = 1000000, winner = 654321;
  Camera c = test::look_at({0, 0, 0}, {0, 0, -1}, 60.0f, 0.1f, 10.0f);
  auto s = std::make_shared<Scene>(test::make_pile_on_one_pixel(c, W, H, PX, PY, N, winner));
  FrameParams fp = test::frame_params(*s, c, W, H, two_sided());
  Frame f = render(s, fp);
  EXPECT_EQ(f.ids[(size_t)PY * W + PX], winner);
  EXPECT_EQ(expect_clean(f, *s, fp, "pile"), 1u) << "pixels other than the target were covered";
  EXPECT_EQ(f.tris.drawn, N);
}

TEST(HostileGeometry, CoplanarOverlappingTrianglesTieToTheLowestIndexAtEveryPixel) {
  // 300 random overlapping triangles in the plane z = 0 facing the camera: one window depth for
  // all, so every overlap is an exact tie; each pixel must show the lowest index covering it.
  std::mt19937 rng(37);
  std::uniform_real_distribution<float> u(-1.3f, 1.3f);
  std::vector<Vec3> p;
  std::vector<uint32_t> idx;
  for (uint32_t t = 0; t < 300; ++t)
    for (int k = 0; k < 3; ++k) {
      p.push_back({u(rng), u(rng), 0});
      idx.push_back((uint32_t)p.size() - 1);
    }
  Scene s = test::make_mesh(p, idx, "coplanar");
  Camera c = test::look_at({0, 0, 3}, {0, 0, 0}, 50.0f, 0.1f, 10.0f);
  FrameParams fp = test::frame_params(s, c, 160, 120, two_sided());
  Hits h = hit_counts(s, fp);
  size_t overlapped = 0;
  for (int n : h.count) overlapped += n > 1;
  ASSERT_GT(overlapped, 5000u) << "the scene should overlap a lot";
  Frame f = render(s, fp);
  expect_clean(f, s, fp, "coplanar");
  size_t wrong = 0;
  for (size_t i = 0; i < f.ids.size(); ++i) wrong += f.ids[i] != h.min_id[i];
  EXPECT_EQ(wrong, 0u) << "pixels where a tie did not go to the lowest index";
}

TEST(HostileGeometry, CopiesOfAMeshShowOnlyTheFirstCopy) {
  Scene one = make_sphere(3000);
  Scene four = test::repeat_mesh(one, 4);
  std::mt19937 rng(41);
  for (int k = 0; k < 6; ++k) {
    // Outside, and (k >= 4) inside the sphere so that the near plane cuts the copies too.
    Camera c = k < 4 ? test::look_at(random_dir(rng) * 2.8f, {0, 0, 0}, 50.0f, 0.1f, 10.0f)
                     : test::look_at(random_dir(rng) * 0.5f, random_dir(rng), 90.0f, 0.3f, 10.0f);
    FrameParams fp = test::frame_params(four, c, 160, 120, two_sided());
    Frame f4 = render(four, fp);
    size_t covered = expect_clean(f4, four, fp, "copies", [&](uint32_t id) { return id < one.triangle_count(); });
    EXPECT_GT(covered, 1000u);
    EXPECT_EQ(f4.ids, render(one, fp).ids) << "camera " << k;
  }
}

// ---------------------------------------------------------------------------------------------
// Watertightness of dense closed meshes (hit counts, no depth test): from outside every pixel
// centre is crossed an even number of times, from inside an odd number (once for convex meshes).

TEST(HostileWatertight, TorusFromRandomAndGrazingCamerasIsHitAnEvenNumberOfTimes) {
  Scene torus = test::make_torus(160, 48, 1.0f, 0.35f);
  std::mt19937 rng(43);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<Camera> cams;
  for (int k = 0; k < 8; ++k)
    cams.push_back(test::look_at(random_dir(rng) * (1.6f + 3.0f * u(rng)), {0.3f * u(rng), 0, 0}, 50.0f, 0.01f, 20.0f));
  // Exactly in the torus' plane (seen edge-on), just above it, and down through the hole.
  cams.push_back(test::look_at({3.0f, 0, 1.0f}, {0, 0, 0}, 50.0f, 0.01f, 20.0f));
  cams.push_back(test::look_at({-2.5f, 0.36f, 0.2f}, {0.5f, 0.34f, 0}, 70.0f, 0.01f, 20.0f));
  cams.push_back(test::camera({0, 3.0f, 0}, {0, 0, 0}, {1, 0, 0}, 60.0f, 0.01f, 20.0f));
  expect_hits(torus, cams, 160, 120, "an even number of times", kEven);
}

TEST(HostileWatertight, InsideTheTorusTubeEveryPixelIsHitAnOddNumberOfTimes) {
  Scene torus = test::make_torus(160, 48, 1.0f, 0.35f);
  std::mt19937 rng(47);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<Camera> cams;
  for (int k = 0; k < 6; ++k) {
    float a = 3.14159265f * u(rng);
    glm::vec3 eye = glm::vec3(std::cos(a), 0, std::sin(a)) * (1.0f + 0.1f * u(rng)) + glm::vec3(0, 0.1f * u(rng), 0);
    cams.push_back(test::look_at(eye, eye + random_dir(rng), 90.0f, 0.01f, 20.0f));
  }
  expect_hits(torus, cams, 128, 96, "an odd number of times", kOdd);
}

TEST(HostileWatertight, BoxOfManyTrianglesFromGrazingCamerasIsHitAnEvenNumberOfTimes) {
  Scene box = test::make_box(24, {1, 1, 1});
  std::mt19937 rng(53);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<Camera> cams;
  for (float eps : {0.0f, 1e-6f, 1e-4f, 1e-2f}) {
    // Beside the box, a hair above the plane of its top face, looking along that face.
    cams.push_back(test::look_at({-1.5f, 1.0f + eps, 0.3f * u(rng)}, {1.0f, 1.0f, 0.4f * u(rng)}, 60.0f, 0.01f, 20.0f));
    // Looking along an edge, and from a corner diagonal.
    cams.push_back(test::look_at({-3.0f, 1.0f + eps, 1.0f + eps}, {1.0f, 1.0f, 1.0f}, 40.0f, 0.01f, 20.0f));
  }
  for (int k = 0; k < 4; ++k) cams.push_back(test::look_at(random_dir(rng) * 3.5f, {0, 0, 0}, 50.0f, 0.01f, 20.0f));
  expect_hits(box, cams, 160, 120, "an even number of times", kEven, 20);
}

TEST(HostileWatertight, InsideTheBoxEveryPixelIsHitOnce) {
  Scene box = test::make_box(24, {1, 1, 1});
  std::mt19937 rng(59);
  std::uniform_real_distribution<float> u(-0.8f, 0.8f);
  std::vector<Camera> cams;
  for (int k = 0; k < 6; ++k) {
    glm::vec3 eye{u(rng), u(rng), u(rng)};
    cams.push_back(test::look_at(eye, eye + random_dir(rng), 100.0f, 0.01f, 20.0f));
  }
  expect_hits(box, cams, 128, 96, "exactly once", kOnce);
}

TEST(HostileWatertight, ThinSlabSeenAtGrazingAnglesIsHitAnEvenNumberOfTimes) {
  Scene slab = test::make_box(16, {1.0f, 1e-3f, 1.0f});
  std::mt19937 rng(61);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  std::vector<Camera> cams;
  for (float elev_deg : {0.0f, 0.005f, 0.05f, 0.5f, 3.0f}) {
    float a = 6.2831853f * u(rng), e = glm::radians(elev_deg);
    glm::vec3 eye = glm::vec3(std::cos(e) * std::cos(a), std::sin(e), std::cos(e) * std::sin(a)) * 3.0f;
    cams.push_back(test::look_at(eye, {0, 0, 0}, 50.0f, 0.01f, 20.0f));
  }
  expect_hits(slab, cams, 160, 120, "an even number of times", kEven, 0);
}

TEST(HostileWatertight, VeryCloseCamerasOutsideASphereSeeNoCracks) {
  Scene sphere = make_sphere(20000);
  std::mt19937 rng(67);
  std::vector<Camera> cams;
  for (int k = 0; k < 8; ++k) {
    glm::vec3 n = random_dir(rng);
    float gap = k < 4 ? 1e-3f : 1e-2f;
    glm::vec3 eye = n * (1.0f + gap);
    glm::vec3 tangent = glm::normalize(glm::cross(n, random_dir(rng)));
    // Straight at the surface, along it (grazing), and in between.
    glm::vec3 dir = k % 3 == 0 ? -n : (k % 3 == 1 ? tangent : glm::normalize(tangent - n));
    cams.push_back(test::look_at(eye, eye + dir, 90.0f, gap * 0.1f, 10.0f));
  }
  expect_hits(sphere, cams, 160, 120, "an even number of times", kEven);
}

TEST(HostileWatertight, HugeAndTinySpheresAreWatertightFromOutsideAndInside) {
  std::mt19937 rng(71);
  for (float scale : {1e6f, 1e-6f}) {
    Vec3 centre{2.0f * scale, -1.0f * scale, 0.5f * scale};
    Scene sphere = make_sphere(20000, scale, centre);
    sphere.source = "sphere-r" + std::to_string(scale);
    glm::vec3 c{centre.x, centre.y, centre.z};
    std::vector<Camera> outside, inside;
    for (int k = 0; k < 5; ++k) {
      outside.push_back(test::look_at(c + random_dir(rng) * (1.5f + k) * scale, c + random_dir(rng) * 0.2f * scale, 50.0f,
                                      0.01f * scale, 20.0f * scale));
      glm::vec3 eye = c + random_dir(rng) * 0.3f * scale;
      inside.push_back(test::look_at(eye, eye + random_dir(rng) * scale, 90.0f, 0.05f * scale, 20.0f * scale));
    }
    expect_hits(sphere, outside, 160, 120, "an even number of times", kEven);
    expect_hits(sphere, inside, 128, 96, "exactly once", kOnce);
  }
}

TEST(HostileWatertight, HugeGroundPlaneAtGrazingAnglesIsHitOnceBelowTheHorizon) {
  // A 2e6-wide plane of 8192 triangles under cameras 1e-3 to 100 units above it: triangles
  // cross the near plane, the guard band and the far plane at once. No pixel is hit twice, and
  // every pixel whose ray meets the plane (away from the horizon and the plane's far border) is hit.
  Scene ground = test::make_ground(64, 1e6f);
  std::mt19937 rng(73);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const int W = 160, H = 120;
  for (float height : {1e-3f, 1.0f, 100.0f}) {
    for (int k = 0; k < 3; ++k) {
      glm::vec3 eye{u(rng) * 1e3f, height, u(rng) * 1e3f};
      glm::vec3 dir = glm::normalize(glm::vec3(u(rng), -0.05f - 0.2f * std::fabs(u(rng)) * k, u(rng)));
      Camera c = test::look_at(eye, eye + dir, 70.0f, 0.2f * height, 1e7f);
      FrameParams fp = test::frame_params(ground, c, W, H, two_sided());
      Hits h = hit_counts(ground, fp);
      CameraBasis cb(c, W, H);
      std::vector<uint32_t> want((size_t)W * H, kNone), got((size_t)W * H, kNone);
      size_t twice = 0;
      for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
          size_t i = (size_t)y * W + x;
          glm::dvec3 d = cb.ray(x, y);
          double t = d.y < 0 ? -cb.eye.y / d.y : -1;
          glm::dvec3 q = cb.eye + d * t;
          if (t >= c.near_plane && t <= c.far_plane && std::fabs(q.x) < 1e6 && std::fabs(q.z) < 1e6) want[i] = 0;
          if (h.count[i] > 0) got[i] = 0;
          twice += h.count[i] > 1;
        }
      EXPECT_EQ(twice, 0u) << "height " << height << " camera " << k;
      test::IdComparison cmp = test::compare_ids(want, got, W, H, 1);
      EXPECT_EQ(cmp.interior_differing, 0u) << "height " << height << " camera " << k;
      EXPECT_GT(cmp.covered, 1000u);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The shared hostile scene list (also what the CUDA backend is compared on): each renders clean.

TEST(HostileGeometry, EverySharedHostileSceneRendersWithoutGarbage) {
  for (const HostileCase& hc : test::hostile_cases()) {
    Frame f = render(hc.scene, hc.fp);
    expect_clean(f, *hc.scene, hc.fp, hc.name);
    const TriCounters& t = f.tris;
    EXPECT_LE(t.culled + t.nan + (t.clipped ? 1u : 0u), hc.scene->triangle_count()) << hc.name;
  }
}
