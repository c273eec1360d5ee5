// Polygons to triangles (engine/formats/obj/obj_triangulate.h): thousands of random simple
// polygons (stars, combs, L, E and dart shapes, with corners in line and repeated), turned and
// moved anywhere in space, each checked for n - 2 triangles of its own corners whose areas add up
// to the polygon's, whose centres lie inside it and which cover every sampled point of it once;
// outlines that cross or touch themselves (against an exact pairwise check in the test), warped,
// degenerate and huge polygons; and what the OBJ loader makes of them, its one warning included.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "engine/formats/obj/obj_triangulate.h"
#include "engine/load/load_model.h"
#include "tests/support/scene_edits.h"
#include "tests/support/scratch_dir.h"
#include "tests/support/test_scenes.h"

using namespace facet;

namespace {

struct V2 {
  double x, y;
};
using Outline = std::vector<V2>;

double uniform(std::mt19937& rng, double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }
int uniform_int(std::mt19937& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

// ---- Shapes in the plane ----

// Corners at increasing angles around the origin, at random distances: star-shaped, so simple.
Outline star(std::mt19937& rng, int n) {
  Outline o;
  for (int i = 0; i < n; ++i) {
    const double a = 2 * M_PI * (i + uniform(rng, -0.4, 0.4)) / n, r = uniform(rng, 0.15, 1.0);
    o.push_back({r * std::cos(a), r * std::sin(a)});
  }
  return o;
}

// A base along x with `teeth` teeth of random widths and heights on top: 4 teeth + 4 corners.
Outline comb(std::mt19937& rng, int teeth) {
  const double base = uniform(rng, 0.1, 0.4);
  Outline o = {{0, 0}, {(double)teeth, 0}, {(double)teeth, base}};
  for (int t = teeth - 1; t >= 0; --t) {
    const double w = uniform(rng, 0.2, 0.9), g = (1 - w) / 2, h = base + uniform(rng, 0.3, 3.0);
    o.insert(o.end(), {{t + g + w, base}, {t + g + w, h}, {t + g, h}, {t + g, base}});
  }
  o.push_back({0, base});
  return o;
}

Outline l_shape(std::mt19937& rng) {
  const double a = uniform(rng, 1, 3), b = uniform(rng, 0.1, 0.9), c = uniform(rng, 0.1, 0.9) * a,
               d = b + uniform(rng, 0.5, 3);
  return {{0, 0}, {a, 0}, {a, b}, {c, b}, {c, d}, {0, d}};
}

Outline e_shape(std::mt19937& rng) {
  const double h = uniform(rng, 2, 4), s = uniform(rng, 0.2, 0.6), w = s + uniform(rng, 0.5, 2),
               w2 = s + uniform(rng, 0.3, 2), t1 = uniform(rng, 0.1, 0.5), t3 = uniform(rng, 0.1, 0.5);
  const double m0 = t1 + uniform(rng, 0.2, 0.4) * (h - t1 - t3), m1 = m0 + uniform(rng, 0.2, 0.6) * (h - t3 - m0);
  return {{0, 0},   {w, 0},  {w, t1},     {s, t1},     {s, m0}, {w2, m0},
          {w2, m1}, {s, m1}, {s, h - t3}, {w, h - t3}, {w, h},  {0, h}};
}

// An arrowhead: tip, wing, the reflex corner (index 2), wing. Its outside diagonal (between the
// wings) is the shorter one when the wings are close.
Outline dart(std::mt19937& rng) {
  const double length = uniform(rng, 1, 3), wing = uniform(rng, 0.1, 0.45) * length, notch = uniform(rng, 0.2, 0.8);
  return {{length, 0}, {0, wing}, {notch * length, 0}, {0, -wing}};
}

// `count` corners more, each on an edge (in line with its neighbours).
Outline with_corners_in_line(std::mt19937& rng, Outline o, int count) {
  for (int k = 0; k < count; ++k) {
    const size_t i = (size_t)uniform_int(rng, 0, (int)o.size() - 1);
    const V2 a = o[i], b = o[(i + 1) % o.size()];
    const double t = k % 2 ? 0.5 : uniform(rng, 0.05, 0.95);
    o.insert(o.begin() + (long)i + 1, V2{a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)});
  }
  return o;
}

// `count` corners repeated (the copy next to the original).
Outline with_repeats(std::mt19937& rng, Outline o, int count) {
  for (int k = 0; k < count; ++k) {
    const size_t i = (size_t)uniform_int(rng, 0, (int)o.size() - 1);
    o.insert(o.begin() + (long)i, o[i]);
  }
  return o;
}

// ---- Placed in space ----

struct Placed {
  std::vector<float> positions;  // 3 per corner
  std::vector<int32_t> v;        // corner i uses position v[i]
  double origin[3], u[3], w[3];  // the outline's plane: origin + scale (x u + y w)
  double scale;
  // The corners in that plane, from the floats (what the triangles are made of).
  Outline projected() const {
    Outline o;
    for (int32_t i : v) {
      const float* p = &positions[3 * (size_t)i];
      double d[3] = {p[0] - origin[0], p[1] - origin[1], p[2] - origin[2]};
      o.push_back({d[0] * u[0] + d[1] * u[1] + d[2] * u[2], d[0] * w[0] + d[1] * w[1] + d[2] * w[2]});
    }
    return o;
  }
  // How far rounding to float may have moved a corner.
  double rounding() const {
    float largest = 0;
    for (float x : positions) largest = std::max(largest, std::fabs(x));
    return std::nextafter(largest, INFINITY) - largest;
  }
};

// The outline scaled, turned by a random rotation and moved up to `far` from the origin, its
// corners stored in a shuffled order of positions. Far away it is made large enough that writing
// it as floats (steps of 1/1024 at 10^4) keeps it simple.
Placed place(std::mt19937& rng, const Outline& o, double far) {
  Placed p;
  std::normal_distribution<double> normal;
  double q[4], l = 0;
  for (double& c : q) c = normal(rng), l += c * c;
  for (double& c : q) c /= std::sqrt(l);
  const double a = q[0], b = q[1], c = q[2], d = q[3];
  const double r[3][3] = {{a * a + b * b - c * c - d * d, 2 * (b * c - a * d), 2 * (b * d + a * c)},
                          {2 * (b * c + a * d), a * a - b * b + c * c - d * d, 2 * (c * d - a * b)},
                          {2 * (b * d - a * c), 2 * (c * d + a * b), a * a - b * b - c * c + d * d}};
  const double scale = far >= 1e3 ? std::pow(10.0, uniform(rng, 1.5, 2.5)) : std::pow(10.0, uniform(rng, -0.5, 2));
  p.scale = scale;
  for (int k = 0; k < 3; ++k) p.u[k] = r[k][0], p.w[k] = r[k][1], p.origin[k] = uniform(rng, -far, far);
  const size_t n = o.size();
  std::vector<int32_t> slot(n);
  for (size_t i = 0; i < n; ++i) slot[i] = (int32_t)i;
  std::shuffle(slot.begin(), slot.end(), rng);
  p.positions.resize(3 * n);
  for (size_t i = 0; i < n; ++i) {
    p.v.push_back(slot[i]);
    for (int k = 0; k < 3; ++k)
      p.positions[3 * (size_t)slot[i] + (size_t)k] = (float)(p.origin[k] + scale * (o[i].x * p.u[k] + o[i].y * p.w[k]));
  }
  return p;
}

// The outline in the plane across axis `axis` (its coordinates whole numbers, exact in float),
// moved by a whole-number offset: nothing rounds.
Placed place_exactly(std::mt19937& rng, const Outline& o, int axis) {
  Placed p;
  for (int k = 0; k < 3; ++k) p.origin[k] = uniform_int(rng, -5000, 5000), p.u[k] = p.w[k] = 0;
  p.u[(axis + 1) % 3] = p.w[(axis + 2) % 3] = 1;
  p.scale = 1;
  for (size_t i = 0; i < o.size(); ++i) {
    p.v.push_back((int32_t)i);
    for (int k = 0; k < 3; ++k) p.positions.push_back((float)(p.origin[k] + o[i].x * p.u[k] + o[i].y * p.w[k]));
  }
  return p;
}

// The corners seen along the axis their Newell normal points along most (as the triangulation
// sees them), for polygons that are not flat.
Outline along_dominant_axis(const Placed& p) {
  double n[3] = {0, 0, 0};
  const float* o = &p.positions[3 * (size_t)p.v[0]];
  for (size_t i = 1; i + 1 < p.v.size(); ++i) {
    const float* a = &p.positions[3 * (size_t)p.v[i]];
    const float* b = &p.positions[3 * (size_t)p.v[i + 1]];
    const double u[3] = {(double)a[0] - o[0], (double)a[1] - o[1], (double)a[2] - o[2]};
    const double w[3] = {(double)b[0] - o[0], (double)b[1] - o[1], (double)b[2] - o[2]};
    n[0] += u[1] * w[2] - u[2] * w[1], n[1] += u[2] * w[0] - u[0] * w[2], n[2] += u[0] * w[1] - u[1] * w[0];
  }
  const int k = std::fabs(n[2]) >= std::fabs(n[0]) && std::fabs(n[2]) >= std::fabs(n[1])
                    ? 2
                    : (std::fabs(n[1]) >= std::fabs(n[0]) ? 1 : 0);
  Outline out;
  for (int32_t i : p.v)
    out.push_back({p.positions[3 * (size_t)i + (size_t)(k + 1) % 3], p.positions[3 * (size_t)i + (size_t)(k + 2) % 3]});
  return out;
}

double far_for(int i) { return i % 3 == 0 ? 0.0 : (i % 3 == 1 ? 10.0 : 1e4); }

// ---- Checks ----

double cross(V2 o, V2 a, V2 b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

double signed_area(const Outline& o) {
  double s = 0;
  for (size_t i = 1; i + 1 < o.size(); ++i) s += cross(o[0], o[i], o[i + 1]);
  return s / 2;
}

bool inside(const Outline& o, V2 p) {
  bool in = false;
  for (size_t i = 0, j = o.size() - 1; i < o.size(); j = i++)
    if ((o[i].y > p.y) != (o[j].y > p.y) && p.x < (o[j].x - o[i].x) * (p.y - o[i].y) / (o[j].y - o[i].y) + o[i].x)
      in = !in;
  return in;
}

double segment_distance(V2 a, V2 b, V2 p) {
  const double dx = b.x - a.x, dy = b.y - a.y, l2 = dx * dx + dy * dy;
  const double t = l2 > 0 ? std::clamp(((p.x - a.x) * dx + (p.y - a.y) * dy) / l2, 0.0, 1.0) : 0.0;
  return std::hypot(a.x + t * dx - p.x, a.y + t * dy - p.y);
}

// n - 2 triangles of the polygon's corners covering its outline `o` (the corners in its plane)
// exactly: their areas add up to its area (to what rounding the corners to float can account
// for), the centre of every triangle with an area lies inside it, and of `samples` random points
// every one inside is in exactly one triangle and every one outside in none.
testing::AssertionResult covers(const Outline& o, const std::vector<uint32_t>& tris, double rounding, std::mt19937& rng,
                                int samples = 24, bool centres = true) {
  const size_t n = o.size();
  if (tris.size() != 3 * (n - 2))
    return testing::AssertionFailure() << tris.size() / 3 << " triangles for " << n << " corners";
  for (uint32_t c : tris)
    if (c >= n) return testing::AssertionFailure() << "corner " << c << " of " << n;
  const double area = std::fabs(signed_area(o));
  double perimeter = 0, lo[2] = {o[0].x, o[0].y}, hi[2] = {o[0].x, o[0].y};
  for (size_t i = 0; i < n; ++i) {
    perimeter += std::hypot(o[(i + 1) % n].x - o[i].x, o[(i + 1) % n].y - o[i].y);
    lo[0] = std::min(lo[0], o[i].x), lo[1] = std::min(lo[1], o[i].y);
    hi[0] = std::max(hi[0], o[i].x), hi[1] = std::max(hi[1], o[i].y);
  }
  const double size = std::hypot(hi[0] - lo[0], hi[1] - lo[1]);
  double sum = 0;
  for (size_t t = 0; t < tris.size(); t += 3) sum += std::fabs(cross(o[tris[t]], o[tris[t + 1]], o[tris[t + 2]])) / 2;
  const double slack = 1e-9 * area + 2 * perimeter * rounding;
  if (!(std::fabs(sum - area) <= slack))
    return testing::AssertionFailure() << "triangles' areas add up to " << sum << ", the polygon's is " << area;
  for (size_t t = 0; t < tris.size() && centres; t += 3) {
    const V2 a = o[tris[t]], b = o[tris[t + 1]], c = o[tris[t + 2]];
    if (std::fabs(cross(a, b, c)) / 2 <= 1e-6 * area + perimeter * rounding) continue;
    const V2 centre = {(a.x + b.x + c.x) / 3, (a.y + b.y + c.y) / 3};
    if (!inside(o, centre))
      return testing::AssertionFailure() << "triangle " << t / 3 << " (" << tris[t] << " " << tris[t + 1] << " "
                                         << tris[t + 2] << ") lies outside";
  }
  const double margin = 1e-7 * size + 4 * rounding;
  for (int k = 0; k < samples; ++k) {
    const V2 p = {uniform(rng, lo[0], hi[0]), uniform(rng, lo[1], hi[1])};
    bool near_edge = false;
    for (size_t t = 0; t < tris.size() && !near_edge; t += 3)
      for (int e = 0; e < 3 && !near_edge; ++e)
        near_edge = segment_distance(o[tris[t + (size_t)e]], o[tris[t + (size_t)(e + 1) % 3]], p) < margin;
    for (size_t i = 0; i < n && !near_edge; ++i) near_edge = segment_distance(o[i], o[(i + 1) % n], p) < margin;
    if (near_edge) continue;
    int hits = 0;
    for (size_t t = 0; t < tris.size(); t += 3) {
      const V2 a = o[tris[t]], b = o[tris[t + 1]], c = o[tris[t + 2]];
      const double s = cross(a, b, c);
      if (s == 0) continue;
      hits += s * cross(a, b, p) > 0 && s * cross(b, c, p) > 0 && s * cross(c, a, p) > 0;
    }
    if (hits != (inside(o, p) ? 1 : 0))
      return testing::AssertionFailure() << "point (" << p.x << ", " << p.y << ") is in " << hits << " triangles, "
                                         << (inside(o, p) ? "inside" : "outside") << " the polygon";
  }
  return testing::AssertionSuccess();
}

// Triangulates the placed outline, expecting `want`, and checks the cover.
testing::AssertionResult cut_and_check(const Outline& shape, std::mt19937& rng, double far,
                                       PolygonShape want = PolygonShape::kSimple) {
  const Placed p = place(rng, shape, far);
  std::vector<uint32_t> tris;
  const PolygonShape got = triangulate_polygon(p.v.data(), (uint32_t)p.v.size(), p.positions.data(), tris);
  if (got != want) return testing::AssertionFailure() << "shape " << (int)got << ", expected " << (int)want;
  return covers(p.projected(), tris, p.rounding(), rng);
}

Outline maybe_reversed(std::mt19937& rng, Outline o) {
  if (rng() % 2) std::reverse(o.begin(), o.end());
  return o;
}

// ---- An exact simplicity check, for outlines the tests make ----
// In double, exact for whole numbers up to 2^24 and for floats of one magnitude: every difference
// is exact, every product of two of them too, so each orientation has its true sign.

int orient_sign(V2 a, V2 b, V2 c) {
  const double l = (b.x - a.x) * (c.y - a.y), r = (b.y - a.y) * (c.x - a.x);
  return (l > r) - (l < r);
}
bool within(V2 a, V2 b, V2 p) {
  return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y &&
         p.y <= std::max(a.y, b.y);
}
bool meet(V2 a, V2 b, V2 c, V2 d) {
  const int o1 = orient_sign(a, b, c), o2 = orient_sign(a, b, d), o3 = orient_sign(c, d, a), o4 = orient_sign(c, d, b);
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  return (o1 == 0 && within(a, b, c)) || (o2 == 0 && within(a, b, d)) || (o3 == 0 && within(c, d, a)) ||
         (o4 == 0 && within(c, d, b));
}
bool same(V2 a, V2 b) { return a.x == b.x && a.y == b.y; }

// Simple, by the definition the triangulation uses: repeated neighbours merged, no corner turning
// back along its edge, no two edges that are not neighbours sharing a point.
bool simple_outline(const Outline& o) {
  Outline r;
  for (const V2& p : o)
    if (r.empty() || !same(r.back(), p)) r.push_back(p);
  while (r.size() > 1 && same(r.back(), r.front())) r.pop_back();
  const size_t m = r.size();
  if (m < 3) return false;
  for (size_t i = 0; i < m; ++i) {
    const V2 a = r[(i + m - 1) % m], b = r[i], c = r[(i + 1) % m];
    if (orient_sign(a, b, c) == 0 && (b.x - a.x) * (c.x - b.x) + (b.y - a.y) * (c.y - b.y) < 0) return false;
  }
  for (size_t i = 0; i < m; ++i)
    for (size_t j = i + 2; j < m; ++j)
      if (!(i == 0 && j == m - 1) && meet(r[i], r[i + 1], r[j], r[(j + 1) % m])) return false;
  return true;
}

// Integer outlines of many kinds: stars rounded to a grid (sometimes with a corner moved onto
// an edge that is not its own, or two corners swapped), corners in random order, and combs whose
// teeth may touch, share a side or have no height (edges along the axes, corners in line).
Outline integer_outline(std::mt19937& rng, int kind, int n) {
  Outline o;
  if (kind == 4) {
    const double base = uniform_int(rng, 1, 3);
    std::vector<std::array<double, 3>> teeth;  // left, right, top
    double x = 0;
    for (int t = 0; t < std::max(1, n / 4); ++t) {
      const double left = x + uniform_int(rng, 0, 2), right = left + uniform_int(rng, 1, 3);
      teeth.push_back({left, right, base + uniform_int(rng, 0, 5)});
      x = right;
    }
    const double end = x + uniform_int(rng, 0, 2);
    o = {{0, 0}, {end, 0}, {end, base}};
    for (size_t t = teeth.size(); t-- > 0;)
      o.insert(o.end(),
               {{teeth[t][1], base}, {teeth[t][1], teeth[t][2]}, {teeth[t][0], teeth[t][2]}, {teeth[t][0], base}});
    o.push_back({0, base});
    return o;
  }
  if (kind == 3) {
    for (int i = 0; i < n; ++i)
      o.push_back({(double)uniform_int(rng, -1000, 1000), (double)uniform_int(rng, -1000, 1000)});
    return o;
  }
  for (const V2& p : star(rng, n)) o.push_back({std::round(p.x * 1000), std::round(p.y * 1000)});
  const size_t m = o.size(), i = (size_t)uniform_int(rng, 0, n - 1), j = (i + (size_t)uniform_int(rng, 2, n - 2)) % m;
  if (kind == 1) {  // corner i onto the edge j, j + 1 (at a point of the grid)
    const V2 a = o[j], b = o[(j + 1) % m];
    const bool even = std::fmod(a.x + b.x, 2) == 0 && std::fmod(a.y + b.y, 2) == 0;
    o[i] = even ? V2{(a.x + b.x) / 2, (a.y + b.y) / 2} : a;
  } else if (kind == 2) {
    std::swap(o[i], o[j]);
  }
  return o;
}

std::string obj_text(const std::vector<float>& positions, const std::vector<std::vector<int32_t>>& faces) {
  std::string text;
  char line[128];
  for (size_t i = 0; i < positions.size(); i += 3) {
    std::snprintf(line, sizeof line, "v %.9g %.9g %.9g\n", positions[i], positions[i + 1], positions[i + 2]);
    text += line;
  }
  for (const std::vector<int32_t>& f : faces) {
    text += "f";
    for (int32_t v : f) text += " " + std::to_string(v + 1);
    text += "\n";
  }
  return text;
}

double triangle_area(const Scene& s, size_t t) {
  const Vec3 a = s.positions[s.indices[3 * t]], b = s.positions[s.indices[3 * t + 1]],
             c = s.positions[s.indices[3 * t + 2]];
  const double u[3] = {(double)b.x - a.x, (double)b.y - a.y, (double)b.z - a.z},
               w[3] = {(double)c.x - a.x, (double)c.y - a.y, (double)c.z - a.z};
  return std::hypot(u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]) / 2;
}

size_t polygon_warnings(const Scene& s) {
  size_t count = 0;
  for (const std::string& w : s.warnings) count += w.find(" polygons") != std::string::npos;
  return count;
}

}  // namespace

TEST(ObjTriangulate, RandomStarsAreCoveredExactlyAnywhereInSpace) {
  std::mt19937 rng(52);
  for (int i = 0; i < 1500; ++i) {
    Outline o = star(rng, uniform_int(rng, 5, i % 10 == 0 ? 200 : 40));
    if (i % 4 == 1) o = with_corners_in_line(rng, o, uniform_int(rng, 1, 6));
    if (i % 4 == 2) o = with_repeats(rng, o, uniform_int(rng, 1, 3));
    ASSERT_TRUE(cut_and_check(maybe_reversed(rng, o), rng, far_for(i))) << "star " << i;
  }
}

TEST(ObjTriangulate, RandomCombsAreCoveredExactlyAnywhereInSpace) {
  std::mt19937 rng(7);
  for (int i = 0; i < 600; ++i) {
    Outline o = comb(rng, uniform_int(rng, 1, i % 10 == 0 ? 60 : 12));
    if (i % 3 == 1) o = with_corners_in_line(rng, o, uniform_int(rng, 1, 8));
    if (i % 5 == 2) o = with_repeats(rng, o, 2);
    ASSERT_TRUE(cut_and_check(maybe_reversed(rng, o), rng, far_for(i))) << "comb " << i;
  }
}

TEST(ObjTriangulate, LAndEShapesAreCoveredExactlyAnywhereInSpace) {
  std::mt19937 rng(3);
  for (int i = 0; i < 1000; ++i) {
    Outline o = i % 2 ? e_shape(rng) : l_shape(rng);
    if (i % 6 == 1) o = with_corners_in_line(rng, o, 3);
    if (i % 6 == 3) o = with_repeats(rng, o, 1);
    std::rotate(o.begin(), o.begin() + uniform_int(rng, 0, (int)o.size() - 1), o.end());
    ASSERT_TRUE(cut_and_check(maybe_reversed(rng, o), rng, far_for(i))) << (i % 2 ? "E " : "L ") << i;
  }
}

TEST(ObjTriangulate, ConcaveQuadIsCutThroughItsReflexCorner) {
  std::mt19937 rng(11);
  for (int i = 0; i < 500; ++i) {
    const Outline o = dart(rng);
    const int turn = uniform_int(rng, 0, 3);  // which corner comes first
    Outline turned = o;
    std::rotate(turned.begin(), turned.begin() + turn, turned.end());
    const Placed p = place(rng, turned, far_for(i));
    std::vector<uint32_t> tris;
    ASSERT_EQ(triangulate_polygon(p.v.data(), 4, p.positions.data(), tris), PolygonShape::kSimple) << i;
    ASSERT_TRUE(covers(p.projected(), tris, p.rounding(), rng)) << "dart " << i;
    const uint32_t reflex = (uint32_t)((2 - turn + 4) % 4);
    for (size_t t = 0; t < 2; ++t)
      EXPECT_TRUE(tris[3 * t] == reflex || tris[3 * t + 1] == reflex || tris[3 * t + 2] == reflex) << "dart " << i;
  }
}

TEST(ObjTriangulate, ConvexQuadsKeepTheShorterDiagonal) {
  // Quad meshes keep their triangles: 0 1 2 + 0 2 3 when the 0-2 diagonal is shorter (in float).
  std::mt19937 rng(5);
  for (int i = 0; i < 500; ++i) {
    Outline o;  // on a circle: convex
    for (int k = 0; k < 4; ++k) {
      const double a = M_PI / 2 * (k + uniform(rng, -0.3, 0.3));
      o.push_back({std::cos(a), std::sin(a)});
    }
    if (i % 7 == 0) o[3] = o[2];  // a triangle written as a quad
    const Placed p = place(rng, o, far_for(i));
    std::vector<uint32_t> tris;
    ASSERT_EQ(triangulate_polygon(p.v.data(), 4, p.positions.data(), tris), PolygonShape::kSimple) << i;
    float d[2] = {0, 0};
    for (int k = 0; k < 3; ++k) {
      const float e02 = p.positions[3 * (size_t)p.v[2] + k] - p.positions[3 * (size_t)p.v[0] + k];
      const float e13 = p.positions[3 * (size_t)p.v[3] + k] - p.positions[3 * (size_t)p.v[1] + k];
      d[0] += e02 * e02, d[1] += e13 * e13;
    }
    const std::vector<uint32_t> want =
        d[0] < d[1] ? std::vector<uint32_t>{0, 1, 2, 0, 2, 3} : std::vector<uint32_t>{0, 1, 3, 1, 2, 3};
    EXPECT_EQ(tris, want) << "quad " << i;
  }
}

TEST(ObjTriangulate, CornersInLineAndRepeatedKeepNMinus2Triangles) {
  std::mt19937 rng(1);
  // A square with a corner in the middle of every side, every corner repeated, and an L whose
  // first corner is repeated at the end (as some writers close a polygon).
  Outline square = {{0, 0}, {1, 0}, {2, 0}, {2, 1}, {2, 2}, {1, 2}, {0, 2}, {0, 1}};
  ASSERT_TRUE(cut_and_check(square, rng, 0));
  Outline doubled;
  for (const V2& c : square) doubled.insert(doubled.end(), {c, c});
  ASSERT_TRUE(cut_and_check(doubled, rng, 1e4));
  Outline l = {{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}, {0, 0}};
  ASSERT_TRUE(cut_and_check(l, rng, 10));
  // A comb whose every tooth has corners in line along all four sides.
  Outline c = comb(rng, 8);
  ASSERT_TRUE(cut_and_check(with_corners_in_line(rng, c, 40), rng, 1e4));
}

TEST(ObjTriangulate, OutlinesThatCrossOrTouchThemselvesAreFannedAndReported) {
  // Turned anywhere (crossings, and corners shared exactly, survive rounding to float) and, for
  // contacts that rounding would undo, in a plane along the axes at whole-number coordinates.
  const std::vector<Outline> crossing = {
      {{0, 0}, {2, 2}, {2, 0}, {0, 1}},                                              // a bow-tie
      {{0, 0}, {1, 1}, {1, 0}, {0, 1}},                                              // a bow-tie of no area
      {{1, 0}, {-0.809, -0.588}, {0.309, 0.951}, {0.309, -0.951}, {-0.809, 0.588}},  // a pentagram
      {{0, 0}, {4, 0}, {4, 4}, {0, 4}, {0, 2}, {1, 2}, {1, 3}, {3, 3}, {3, 1}, {1, 1}, {1, 2}, {0, 2}},  // keyhole
      {{0, 0}, {4, 0}, {4, 4}, {2, 0}, {0, 4}},                  // a corner on another edge
      {{0, 0}, {3, 0}, {3, 1}, {1, 1}, {4, 1}, {4, 2}, {0, 2}},  // an edge doubling back (spike)
  };
  std::mt19937 rng(2);
  for (size_t i = 0; i < crossing.size(); ++i) {
    for (int k = 0; k < 20; ++k) {
      const Placed p = i < 4 ? place(rng, crossing[i], far_for(k)) : place_exactly(rng, crossing[i], k % 3);
      std::vector<uint32_t> tris, fan;
      const uint32_t n = (uint32_t)p.v.size();
      EXPECT_EQ(triangulate_polygon(p.v.data(), n, p.positions.data(), tris), PolygonShape::kNotSimple) << i;
      fan_polygon(n, 0, fan);
      EXPECT_EQ(tris, fan) << i;
    }
  }
}

TEST(ObjTriangulate, RandomOutlinesAreReportedExactlyWhenTheyCrossOrTouchThemselves) {
  // Whole-number outlines (exact in float and in the test's own check) of five kinds, of sizes on
  // both sides of kPairwiseSimplicityCorners, in planes along the axes at whole-number offsets.
  std::mt19937 rng(9);
  int simple = 0, not_simple = 0;
  for (int i = 0; i < 3000; ++i) {
    const int kind = i % 5, n = uniform_int(rng, 4, i % 2 ? 24 : 120);
    const Outline o = integer_outline(rng, kind, n);
    const Placed p = place_exactly(rng, o, i % 3);
    std::vector<uint32_t> tris;
    const PolygonShape got = triangulate_polygon(p.v.data(), (uint32_t)p.v.size(), p.positions.data(), tris);
    if (simple_outline(o)) {
      ++simple;
      ASSERT_EQ(got, PolygonShape::kSimple) << "outline " << i << " (kind " << kind << ", " << n << " corners)";
      ASSERT_TRUE(covers(o, tris, 0, rng)) << "outline " << i;
    } else {
      ++not_simple;
      ASSERT_TRUE(got == PolygonShape::kNotSimple || got == PolygonShape::kNoArea)
          << "outline " << i << " (kind " << kind << ", " << n << " corners): shape " << (int)got;
    }
  }
  EXPECT_GT(simple, 500);
  EXPECT_GT(not_simple, 500);
}

TEST(ObjTriangulate, PolygonsOnOneLineHaveNoAreaAndNoReport) {
  // Exactly on a line; and turned, where rounding to float leaves a sliver that may be cut as it
  // is or seen as a line (never reported).
  std::mt19937 rng(4);
  const Outline line = {{0, 0}, {1, 0}, {3, 0}, {2, 0}, {5, 0}, {4, 0}};
  for (int k = 0; k < 50; ++k) {
    const Placed exact = place_exactly(rng, line, k % 3), turned = place(rng, line, far_for(k));
    std::vector<uint32_t> tris;
    EXPECT_EQ(triangulate_polygon(exact.v.data(), 6, exact.positions.data(), tris), PolygonShape::kNoArea) << k;
    const PolygonShape got = triangulate_polygon(turned.v.data(), 6, turned.positions.data(), tris);
    EXPECT_TRUE(got == PolygonShape::kNoArea || got == PolygonShape::kSimple) << k << ": " << (int)got;
    EXPECT_EQ(tris.size(), 24u);
  }
  const int32_t v[5] = {0, 0, 0, 0, 0};
  const float one_point[3] = {1, 2, 3};
  std::vector<uint32_t> tris;
  EXPECT_EQ(triangulate_polygon(v, 5, one_point, tris), PolygonShape::kNoArea);
  EXPECT_EQ(tris.size(), 9u);
}

TEST(ObjTriangulate, WarpedPolygonsAreCutOnTheirPlaneAndReported) {
  // Stars and combs bent into a bowl by 1 % of their size (reported) or by 10^-5 (not). Seen
  // along the axis of their normal most stay simple (a long straight edge may not: it does not
  // follow the bowl) and are cut there; the others are fanned and reported as not simple.
  std::mt19937 rng(6);
  int warped = 0;
  for (int i = 0; i < 300; ++i) {
    const Outline o = i % 2 ? star(rng, uniform_int(rng, 5, 40)) : comb(rng, uniform_int(rng, 2, 8));
    Placed p = place(rng, o, far_for(i));
    V2 centre = {0, 0}, lo = o[0], hi = o[0];
    for (const V2& c : o) {
      centre.x += c.x / (double)o.size(), centre.y += c.y / (double)o.size();
      lo = {std::min(lo.x, c.x), std::min(lo.y, c.y)}, hi = {std::max(hi.x, c.x), std::max(hi.y, c.y)};
    }
    double reach = 0;
    for (const V2& c : o) reach = std::max(reach, std::hypot(c.x - centre.x, c.y - centre.y));
    const double depth = (i % 3 == 0 ? 1e-5 : 0.01) * std::hypot(hi.x - lo.x, hi.y - lo.y);
    const double normal[3] = {p.u[1] * p.w[2] - p.u[2] * p.w[1], p.u[2] * p.w[0] - p.u[0] * p.w[2],
                              p.u[0] * p.w[1] - p.u[1] * p.w[0]};
    for (size_t c = 0; c < o.size(); ++c) {
      const double r = std::hypot(o[c].x - centre.x, o[c].y - centre.y) / reach;
      for (int k = 0; k < 3; ++k)
        p.positions[3 * (size_t)p.v[c] + (size_t)k] += (float)(depth * r * r * p.scale * normal[k]);
    }
    std::vector<uint32_t> tris;
    const PolygonShape got = triangulate_polygon(p.v.data(), (uint32_t)o.size(), p.positions.data(), tris);
    const Outline seen = along_dominant_axis(p);
    if (!simple_outline(seen)) {
      EXPECT_EQ(got, PolygonShape::kNotSimple) << i;
      continue;
    }
    warped += i % 3 != 0;
    EXPECT_EQ(got, i % 3 == 0 ? PolygonShape::kSimple : PolygonShape::kNotFlat) << i;
    ASSERT_TRUE(covers(seen, tris, p.rounding(), rng)) << i;
  }
  EXPECT_GT(warped, 150);
}

TEST(ObjTriangulate, ANonFiniteCornerFansFromThatCorner) {
  const float positions[] = {0, 0, 0, 2, 0, 0, 2, 1, 0, 1, 1, NAN, 1, 2, 0, 0, 2, 0};
  const int32_t v[6] = {0, 1, 2, 3, 4, 5};
  std::vector<uint32_t> tris, fan;
  EXPECT_EQ(triangulate_polygon(v, 6, positions, tris), PolygonShape::kNotFinite);
  fan_polygon(6, 3, fan);
  EXPECT_EQ(tris, fan);
  for (size_t t = 0; t < tris.size(); t += 3)
    EXPECT_TRUE(tris[t] == 3 || tris[t + 1] == 3 || tris[t + 2] == 3) << "every triangle touches the NaN corner";
}

TEST(ObjTriangulate, HugePolygonsTakeLittleTime) {
  // 200,000 corners on a circle (not quite convex once written as floats), a comb of 50,000 teeth,
  // a wavy circle of 200,000 corners, and a star of 20,000 long spikes (the costly kind for ear
  // clipping): each must take a fraction of a second.
  std::mt19937 rng(8);
  std::vector<Outline> shapes;
  Outline circle;
  for (int i = 0; i < 200000; ++i) circle.push_back({std::cos(2 * M_PI * i / 200000), std::sin(2 * M_PI * i / 200000)});
  shapes.push_back(circle);
  shapes.push_back(comb(rng, 50000));
  Outline wavy;
  for (int i = 0; i < 200000; ++i) {
    const double a = 2 * M_PI * i / 200000, r = 1 + 0.05 * std::sin(1000 * a);
    wavy.push_back({r * std::cos(a), r * std::sin(a)});
  }
  shapes.push_back(wavy);
  shapes.push_back(star(rng, 20000));
  for (const Outline& o : shapes) {
    std::vector<int32_t> v;
    std::vector<float> positions;
    for (size_t i = 0; i < o.size(); ++i) {
      v.push_back((int32_t)i);
      positions.insert(positions.end(), {(float)o[i].x, (float)o[i].y, 1.0f});
    }
    Outline plane;
    for (size_t i = 0; i < o.size(); ++i) plane.push_back({positions[3 * i], positions[3 * i + 1]});
    std::vector<uint32_t> tris;
    EXPECT_EQ(triangulate_polygon(v.data(), (uint32_t)v.size(), positions.data(), tris), PolygonShape::kSimple);
    ASSERT_TRUE(covers(plane, tris, 0, rng, 2, false)) << o.size() << " corners";
  }
}

TEST(ObjTriangulate, LoaderCutsConcaveFacesFarFromTheOriginWhole) {
  // An L, an E, a comb of 12 teeth (52 corners) and a dart, turned and 10 km away, in one file:
  // n - 2 triangles each, whose areas add up to each outline's.
  std::mt19937 rng(12);
  const std::vector<Outline> shapes = {l_shape(rng), e_shape(rng), comb(rng, 12), dart(rng)};
  std::vector<float> positions;
  std::vector<std::vector<int32_t>> faces;
  std::vector<double> areas, slack;
  std::vector<size_t> corners;
  for (const Outline& o : shapes) {
    Placed p = place(rng, o, 1e4);
    std::vector<int32_t> face;
    for (int32_t i : p.v) face.push_back(i + (int32_t)(positions.size() / 3));
    positions.insert(positions.end(), p.positions.begin(), p.positions.end());
    faces.push_back(face);
    const Outline plane = p.projected();
    double perimeter = 0;
    for (size_t i = 0; i < plane.size(); ++i)
      perimeter +=
          std::hypot(plane[(i + 1) % plane.size()].x - plane[i].x, plane[(i + 1) % plane.size()].y - plane[i].y);
    areas.push_back(std::fabs(signed_area(plane)));
    slack.push_back(1e-6 * areas.back() + 2 * perimeter * p.rounding());
    corners.push_back(o.size());
  }
  test::ScratchDir dir;
  const Scene s = test::in_file_order(load_model(dir.write("concave.obj", obj_text(positions, faces))));
  EXPECT_EQ(polygon_warnings(s), 0u);
  size_t t = 0;
  for (size_t f = 0; f < shapes.size(); ++f) {
    double area = 0;
    for (size_t k = 0; k + 2 < corners[f]; ++k) area += triangle_area(s, t++);
    EXPECT_NEAR(area, areas[f], slack[f]) << "face " << f;
  }
  EXPECT_EQ(t, s.triangle_count());
}

TEST(ObjTriangulate, LoaderWarnsOncePerFileWithTheCounts) {
  test::ScratchDir dir;
  const std::string v =
      "v 0 0 0\nv 2 0 0\nv 2 1 0\nv 1 1 0\nv 1 2 0\nv 0 2 0\n"                                // 1-6: an L
      "v 0 0 1\nv 2 2 1\nv 2 0 1\nv 0 2 1\nv 1 3 1\n"                                         // 7-11: crossing
      "v 1 0 5\nv 0.5 0.866 4\nv -0.5 0.866 5\nv -1 0 4\nv -0.5 -0.866 5\nv 0.5 -0.866 4\n";  // 12-17: a crown
  const std::string good = "f 1 2 3 4 5 6\nf 1 2 3 4\n";
  const std::string path = dir.write("bad.obj", v + good + "f 7 8 9 10\nf 7 8 9 10 11\nf 12 13 14 15 16 17\n");
  const Scene s = load_model(path);
  ASSERT_EQ(polygon_warnings(s), 1u);
  const std::string want = path +
                           ": of 5 polygons, 2 cross or touch themselves (not simple) and were cut as fans from "
                           "their first corner, 1 is not flat (a corner lies off its best-fit plane by more than "
                           "0.1 % of its size) and was cut on that plane";
  EXPECT_NE(std::find(s.warnings.begin(), s.warnings.end(), want), s.warnings.end()) << s.warnings.back();
  EXPECT_EQ(s.triangle_count(), 4u + 2u + 2u + 3u + 4u);

  const Scene fine = load_model(dir.write("good.obj", v + good));
  EXPECT_EQ(polygon_warnings(fine), 0u);
  const Scene one = load_model(dir.write("one.obj", v + good + "f 7 8 9 10\n"));
  EXPECT_NE(std::find(one.warnings.begin(), one.warnings.end(),
                      dir.path("one.obj") +
                          ": of 3 polygons, 1 crosses or touches itself (not simple) and was cut as a fan from its "
                          "first corner"),
            one.warnings.end());
}

TEST(ObjTriangulate, LoaderDropsAPolygonWithAnUnusableCornerWhole) {
  test::ScratchDir dir;
  const std::string path = dir.write("nan.obj",
                                     "v 0 0 0\nv 2 0 0\nv 2 1 0\nv 1 1 nan\nv 1 2 0\nv 0 2 0\n"
                                     "f 1 2 3 4 5 6\nf 1 2 3\n");
  const Scene s = load_model(path);
  EXPECT_EQ(s.triangle_count(), 1u) << "the hexagon's four triangles all go";
  EXPECT_NE(
      std::find(s.warnings.begin(), s.warnings.end(), path + ": dropped 4 faces with NaN or infinite vertex positions"),
      s.warnings.end());
}

TEST(ObjTriangulate, SharedFilesWithPolygonsAreCutWholeWithoutWarnings) {
  // Real polygons: Meshlab n-gons 8 km from the origin (concave, corners in line and repeated)
  // and an octagon. Every polygon: n - 2 triangles whose areas add up to its own.
  struct File {
    const char* path;
    std::vector<std::vector<int>> faces;  // 1-based, as written
  };
  const File files[] = {
      {"edge-cases/tinyobjloader/models/issue-319-002.obj",
       {{2, 1, 11, 10, 9, 8, 6}, {5, 7, 12, 15, 13, 14, 4, 3}, {18, 19, 20, 16, 17}}},
      {"edge-cases/tinyobjloader/models/issue-319-003.obj", {{6, 7, 2, 1, 5, 4, 8, 9, 10, 3}}},
      {"formats/obj/octagon.obj", {{1, 2, 3, 4, 5, 6, 7, 8}}},
  };
  for (const File& file : files) {
    SCOPED_TRACE(file.path);
    const std::string path = test::shared_asset(file.path);
    const Scene s = test::in_file_order(load_model(path));
    EXPECT_EQ(polygon_warnings(s), 0u);
    // The file's own positions, to measure each polygon by Newell's vector area.
    std::vector<std::array<double, 3>> v;
    {
      FILE* f = std::fopen(path.c_str(), "r");
      ASSERT_NE(f, nullptr);
      char line[512];
      while (std::fgets(line, sizeof line, f)) {
        double x, y, z;
        if (std::sscanf(line, "v %lf %lf %lf", &x, &y, &z) == 3) v.push_back({(float)x, (float)y, (float)z});
      }
      std::fclose(f);
    }
    size_t t = 0;
    for (const std::vector<int>& face : file.faces) {
      double n[3] = {0, 0, 0};
      const std::array<double, 3> o = v[(size_t)face[0] - 1];
      for (size_t i = 1; i + 1 < face.size(); ++i) {
        const std::array<double, 3> a = v[(size_t)face[i] - 1], b = v[(size_t)face[i + 1] - 1];
        const double u[3] = {a[0] - o[0], a[1] - o[1], a[2] - o[2]}, w[3] = {b[0] - o[0], b[1] - o[1], b[2] - o[2]};
        n[0] += u[1] * w[2] - u[2] * w[1], n[1] += u[2] * w[0] - u[0] * w[2], n[2] += u[0] * w[1] - u[1] * w[0];
      }
      const double want = std::hypot(n[0], n[1], n[2]) / 2;
      double area = 0;
      for (size_t k = 0; k + 2 < face.size(); ++k) area += triangle_area(s, t++);
      EXPECT_NEAR(area, want, 1e-3 * want) << face.size() << " corners";
    }
    EXPECT_EQ(t, s.triangle_count());
  }
}
