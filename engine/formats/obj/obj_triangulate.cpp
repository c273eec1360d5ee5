// Polygon triangulation (see obj_triangulate.h). Everything that decides which triangles a polygon
// gets is an exact sign: the 2-D coordinates are the file's floats (as doubles), and each
// orientation is computed in double with Shewchuk's error bound, falling back to exact expansion
// arithmetic (Knuth's two-sum, products split by fma) when the bound cannot tell. So the cut does
// not depend on where the polygon sits, only on its floats, and ear clipping cannot get stuck on
// a simple polygon. Only the choices about the whole polygon (its plane, its area being zero,
// its flatness) use rounded double arithmetic, each with a stated margin.
#include "engine/formats/obj/obj_triangulate.h"

#include "engine/formats/obj/ear_clipper.h"
#include "engine/formats/obj/polygon_outline.h"
#include "engine/formats/obj/polygon_signs.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <set>

namespace facet {

namespace {

using polygon::orient;
using polygon::P2;
using polygon::same;
using polygon::Scratch;
using polygon::scratch;
using polygon::within;

// ---- Quads as facet always cut them -----------------------------------------------------------

const float* at(const float* positions, int32_t v) { return positions + 3 * (size_t)v; }

// 0 1 2 + 0 2 3 when the 0-2 diagonal is shorter, else 0 1 3 + 1 2 3 (in float, as always).
void split_quad(const int32_t* v, const float* positions, std::vector<uint32_t>& out) {
  const float *p0 = at(positions, v[0]), *p1 = at(positions, v[1]), *p2 = at(positions, v[2]),
              *p3 = at(positions, v[3]);
  float e02x = p2[0] - p0[0], e02y = p2[1] - p0[1], e02z = p2[2] - p0[2];
  float e13x = p3[0] - p1[0], e13y = p3[1] - p1[1], e13z = p3[2] - p1[2];
  float sqr02 = e02x * e02x + e02y * e02y + e02z * e02z;
  float sqr13 = e13x * e13x + e13y * e13y + e13z * e13z;
  if (sqr02 < sqr13)
    out.insert(out.end(), {0, 1, 2, 0, 2, 3});
  else
    out.insert(out.end(), {0, 1, 3, 1, 2, 3});
}

// The axis a normal points along most; the polygon is seen along it, in axes (k+1, k+2) % 3,
// where its signed area is normal[k] / 2.
int dominant_axis(const double normal[3]) {
  const double ax = std::fabs(normal[0]), ay = std::fabs(normal[1]), az = std::fabs(normal[2]);
  return az >= ax && az >= ay ? 2 : (ay >= ax ? 1 : 0);
}

// Whether the quad's diagonals meet, seen along axis K: crossing, or touching where a corner lies
// in line with its neighbours or repeats one; not all four corners in line.
template <int K>
bool diagonals_meet(const float* const f[4]) {
  constexpr int a0 = (K + 1) % 3, a1 = (K + 2) % 3;
  const P2 q[4] = {{f[0][a0], f[0][a1]}, {f[1][a0], f[1][a1]}, {f[2][a0], f[2][a1]}, {f[3][a0], f[3][a1]}};
  const int o1 = orient(q[0], q[2], q[1]), o3 = orient(q[0], q[2], q[3]);
  if (o1 * o3 > 0) return false;  // 1 and 3 on one side of the diagonal 0-2
  const int o0 = orient(q[1], q[3], q[0]), o2 = orient(q[1], q[3], q[2]);
  if (o0 * o2 > 0) return false;
  if (o1 == 0 && o3 == 0) return false;                       // all in line
  if (o1 != 0 && o3 != 0 && o0 != 0 && o2 != 0) return true;  // the diagonals cross
  return (o1 == 0 && within(q[0], q[2], q[1])) || (o3 == 0 && within(q[0], q[2], q[3])) ||
         (o0 == 0 && within(q[1], q[3], q[0])) || (o2 == 0 && within(q[1], q[3], q[2]));
}

// A quad with finite corners that is convex (a corner in line with its neighbours or repeating
// one allowed), seen along the axis its normal (the cross product of its diagonals) points along
// most: the quick path every quad mesh takes. Read straight from the floats: copying them into an
// array indexed by the axis stalls on store forwarding, most of the cost.
bool convex_quad(const int32_t* v, const float* positions) {
  const float* const f[4] = {at(positions, v[0]), at(positions, v[1]), at(positions, v[2]), at(positions, v[3])};
  double d0[3], d1[3];
  for (int a = 0; a < 3; ++a) d0[a] = (double)f[2][a] - f[0][a], d1[a] = (double)f[3][a] - f[1][a];
  // Differences of floats cannot overflow a double: a corner that is NaN or infinite shows here.
  if (!std::isfinite(d0[0] + d0[1] + d0[2] + d1[0] + d1[1] + d1[2])) return false;
  const double normal[3] = {d0[1] * d1[2] - d0[2] * d1[1], d0[2] * d1[0] - d0[0] * d1[2],
                            d0[0] * d1[1] - d0[1] * d1[0]};
  const int k = dominant_axis(normal);
  if (normal[k] == 0) return false;
  return k == 0 ? diagonals_meet<0>(f) : (k == 1 ? diagonals_meet<1>(f) : diagonals_meet<2>(f));
}

// ---- The whole polygon: plane, area, flatness --------------------------------------------------

// Newell's normal (twice the vector area), from the first corner.
void newell_normal(const std::vector<double>& xyz, uint32_t n, double normal[3]) {
  normal[0] = normal[1] = normal[2] = 0;
  const double* o = &xyz[0];
  for (uint32_t i = 1; i + 1 < n; ++i) {
    const double* a = &xyz[3 * i];
    const double* b = &xyz[3 * (i + 1)];
    const double u[3] = {a[0] - o[0], a[1] - o[1], a[2] - o[2]}, w[3] = {b[0] - o[0], b[1] - o[1], b[2] - o[2]};
    normal[0] += u[1] * w[2] - u[2] * w[1];
    normal[1] += u[2] * w[0] - u[0] * w[2];
    normal[2] += u[0] * w[1] - u[1] * w[0];
  }
}

// The flatness tolerance of the polygon: kFlatTolerance of its bounding box's diagonal plus two
// float steps at its largest coordinate.
double flat_tolerance(const std::vector<double>& xyz, uint32_t n) {
  double lo[3], hi[3], largest = 0;
  for (int a = 0; a < 3; ++a) lo[a] = hi[a] = xyz[(size_t)a];
  for (uint32_t i = 0; i < n; ++i)
    for (int a = 0; a < 3; ++a) {
      const double x = xyz[3 * (size_t)i + (size_t)a];
      lo[a] = std::min(lo[a], x), hi[a] = std::max(hi[a], x), largest = std::max(largest, std::fabs(x));
    }
  const double diagonal = std::hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  const float f = (float)largest;
  const double step = (double)std::nextafter(f, std::numeric_limits<float>::infinity()) - (double)f;
  return kFlatTolerance * diagonal + 2 * step;
}

// Every corner within `tolerance` of the line through the first corner and the one farthest
// from it (all corners on one point included).
bool on_one_line(const std::vector<double>& xyz, uint32_t n, double tolerance) {
  const double* o = &xyz[0];
  uint32_t far = 0;
  double far2 = 0;
  for (uint32_t i = 1; i < n; ++i) {
    const double* p = &xyz[3 * i];
    const double d2 = (p[0] - o[0]) * (p[0] - o[0]) + (p[1] - o[1]) * (p[1] - o[1]) + (p[2] - o[2]) * (p[2] - o[2]);
    if (d2 > far2) far2 = d2, far = i;
  }
  if (far2 == 0) return true;
  const double* f = &xyz[3 * far];
  const double u[3] = {f[0] - o[0], f[1] - o[1], f[2] - o[2]}, length = std::sqrt(far2);
  for (uint32_t i = 1; i < n; ++i) {
    const double* p = &xyz[3 * i];
    const double w[3] = {p[0] - o[0], p[1] - o[1], p[2] - o[2]};
    const double c[3] = {w[1] * u[2] - w[2] * u[1], w[2] * u[0] - w[0] * u[2], w[0] * u[1] - w[1] * u[0]};
    if (std::sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]) / length > tolerance) return false;
  }
  return true;
}

// Every corner within `tolerance` of the plane through the corners' mean, normal to `normal`.
bool is_flat(const std::vector<double>& xyz, uint32_t n, const double normal[3], double tolerance) {
  const double length = std::sqrt(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]);
  const double u[3] = {normal[0] / length, normal[1] / length, normal[2] / length};
  const double* o = &xyz[0];
  double mean = 0;  // of the corners' heights above the first corner
  for (uint32_t i = 0; i < n; ++i) {
    const double* p = &xyz[3 * i];
    mean += (p[0] - o[0]) * u[0] + (p[1] - o[1]) * u[1] + (p[2] - o[2]) * u[2];
  }
  mean /= n;
  for (uint32_t i = 0; i < n; ++i) {
    const double* p = &xyz[3 * i];
    if (std::fabs((p[0] - o[0]) * u[0] + (p[1] - o[1]) * u[1] + (p[2] - o[2]) * u[2] - mean) > tolerance) return false;
  }
  return true;
}

// ---- The general path ---------------------------------------------------------------------------

PolygonShape fan_fallback(const std::vector<double>& xyz, uint32_t n, double tolerance, std::vector<uint32_t>& out) {
  fan_polygon(n, 0, out);
  return on_one_line(xyz, n, tolerance) ? PolygonShape::kNoArea : PolygonShape::kNotSimple;
}

PolygonShape cut_polygon(const int32_t* v, uint32_t n, const float* positions, std::vector<uint32_t>& out) {
  Scratch& s = scratch();
  s.xyz.resize(3 * (size_t)n);
  for (uint32_t i = 0; i < n; ++i)
    for (int a = 0; a < 3; ++a) s.xyz[3 * (size_t)i + (size_t)a] = at(positions, v[i])[a];
  const double tolerance = flat_tolerance(s.xyz, n);
  double normal[3];
  newell_normal(s.xyz, n, normal);
  const int k = dominant_axis(normal);
  int a0 = (k + 1) % 3, a1 = (k + 2) % 3;

  // The signed area seen along axis k, with a bound on its rounding error: the per-product bound
  // above, plus n roundings of the running sum. Within it the polygon has no area to speak of.
  double area2 = 0, magnitude = 0;
  const double ox = s.xyz[(size_t)a0], oy = s.xyz[(size_t)a1];
  for (uint32_t i = 1; i + 1 < n; ++i) {
    const double* p = &s.xyz[3 * (size_t)i];
    const double* r = p + 3;
    const double l = (p[a0] - ox) * (r[a1] - oy), m = (p[a1] - oy) * (r[a0] - ox);
    area2 += l - m;
    magnitude += std::fabs(l) + std::fabs(m);
  }
  if (!(std::fabs(area2) > (4 + 2.0 * n) * 1.2e-16 * magnitude)) return fan_fallback(s.xyz, n, tolerance, out);
  if (area2 < 0) std::swap(a0, a1);  // mirrored: counter-clockwise

  s.q.resize(n);
  for (uint32_t i = 0; i < n; ++i) s.q[i] = {s.xyz[3 * (size_t)i + (size_t)a0], s.xyz[3 * (size_t)i + (size_t)a1]};
  s.ring.clear();
  for (uint32_t i = 0; i < n; ++i)
    if (s.ring.empty() || !same(s.q[i], s.q[s.ring.back()])) s.ring.push_back(i);
  while (s.ring.size() > 1 && same(s.q[s.ring.back()], s.q[s.ring.front()])) s.ring.pop_back();
  if (s.ring.size() < 3) return fan_fallback(s.xyz, n, tolerance, out);

  const PolygonShape cut =
      n < 5 || is_flat(s.xyz, n, normal, tolerance) ? PolygonShape::kSimple : PolygonShape::kNotFlat;
  if (polygon::convex_ring(s.q, s.ring)) {
    fan_polygon(n, 0, out);
    return cut;
  }
  if (!polygon::simple_ring(s.q, s.ring, s.order) || !polygon::clip_ears(s.q, n, s, out))
    return fan_fallback(s.xyz, n, tolerance, out);
  return cut;
}

}  // namespace

void fan_polygon(uint32_t n, uint32_t from, std::vector<uint32_t>& out) {
  for (uint32_t k = 1; k + 1 < n; ++k) out.insert(out.end(), {from, (from + k) % n, (from + k + 1) % n});
}

PolygonShape triangulate_polygon(const int32_t* v, uint32_t n, const float* positions, std::vector<uint32_t>& out) {
  if (n == 3) {
    out.insert(out.end(), {0, 1, 2});
    return PolygonShape::kSimple;
  }
  if (n == 4 && convex_quad(v, positions)) {
    split_quad(v, positions, out);
    return PolygonShape::kSimple;
  }
  for (uint32_t i = 0; i < n; ++i) {
    const float* p = at(positions, v[i]);
    if (!(std::isfinite(p[0]) && std::isfinite(p[1]) && std::isfinite(p[2]))) {
      fan_polygon(n, i, out);
      return PolygonShape::kNotFinite;
    }
  }
  const PolygonShape shape = cut_polygon(v, n, positions, out);
  if (n > (1u << 16)) scratch() = Scratch();  // a huge polygon's memory is not kept
  return shape;
}

}  // namespace facet
