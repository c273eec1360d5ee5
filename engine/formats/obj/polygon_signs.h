// What the polygon cut (obj_triangulate.cpp) decides with: points of the polygon's plane, exact
// signs of orientations (Shewchuk's error bound in double, then exact expansion arithmetic), and
// the scratch arrays each thread keeps for its polygons. Internal to the OBJ reader.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

namespace facet::polygon {

// ---- Exact signs in the plane ----------------------------------------------------------------

struct P2 {
  double x, y;
};

inline bool same(P2 a, P2 b) { return a.x == b.x && a.y == b.y; }
inline bool lex_less(P2 a, P2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); }

// a + b = s + e and a - b = s + e exactly (Knuth), a * b = p + e exactly (fma rounds once).
inline void two_sum(double a, double b, double& s, double& e) {
  s = a + b;
  const double bv = s - a, av = s - bv;
  e = (a - av) + (b - bv);
}
inline void two_diff(double a, double b, double& s, double& e) {
  s = a - b;
  const double bv = a - s, av = s + bv;
  e = (a - av) + (bv - b);
}
inline void two_product(double a, double b, double& p, double& e) {
  p = a * b;
  e = std::fma(a, b, -p);
}

// The sign of the exact sum of t[0..k) (k <= 16): the terms grown into a nonoverlapping expansion
// (Shewchuk's Grow-Expansion, zeros dropped), whose largest component carries the sign.
inline int exact_sum_sign(const double* t, int k) {
  double h[16];
  int m = 0;
  for (int i = 0; i < k; ++i) {
    double q = t[i];
    int kept = 0;
    for (int j = 0; j < m; ++j) {
      double s, e;
      two_sum(q, h[j], s, e);
      if (e != 0) h[kept++] = e;
      q = s;
    }
    if (q != 0) h[kept++] = q;
    m = kept;
  }
  return m == 0 ? 0 : (h[m - 1] > 0 ? 1 : -1);
}

// The sign of (b - a) x (d - c), exactly: every difference split into its rounded value and
// error, every product of those into two doubles, 16 terms summed exactly. Rarely needed: kept
// out of line so that the quick test stays small.
[[gnu::noinline]] inline int cross_sign_exact(P2 a, P2 b, P2 c, P2 d) {
  double u[2][2], w[2][2];  // u = b - a, w = d - c: [coordinate][value, error]
  two_diff(b.x, a.x, u[0][0], u[0][1]);
  two_diff(b.y, a.y, u[1][0], u[1][1]);
  two_diff(d.x, c.x, w[0][0], w[0][1]);
  two_diff(d.y, c.y, w[1][0], w[1][1]);
  double t[16];
  int k = 0;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      two_product(u[0][i], w[1][j], t[k], t[k + 1]);  // + ux wy
      k += 2;
      two_product(u[1][i], w[0][j], t[k], t[k + 1]);  // - uy wx
      t[k] = -t[k], t[k + 1] = -t[k + 1];
      k += 2;
    }
  return exact_sum_sign(t, k);
}

// Shewchuk's ccwerrboundA, (3 + 16 eps) eps: past it, the double result has the exact sign.
constexpr double kCrossErrorBound = 3.3306690738754716e-16;

inline int cross_sign(P2 a, P2 b, P2 c, P2 d) {
  const double l = (b.x - a.x) * (d.y - c.y), r = (b.y - a.y) * (d.x - c.x), det = l - r;
  const double bound = kCrossErrorBound * (std::fabs(l) + std::fabs(r));
  if (det > bound) return 1;
  if (-det > bound) return -1;
  return cross_sign_exact(a, b, c, d);
}

// > 0: a, b, c turn left (counter-clockwise); 0: in line.
inline int orient(P2 a, P2 b, P2 c) { return cross_sign(a, b, a, c); }

// a, b, c in line (a != b, b != c): does c go back along b - a? (a spike at b)
inline bool reverses(P2 a, P2 b, P2 c) {
  if (a.x != b.x) return (b.x > a.x) != (c.x > b.x);
  return (b.y > a.y) != (c.y > b.y);
}

// p, in line with a and b, lies on the closed segment a-b.
inline bool within(P2 a, P2 b, P2 p) {
  return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y &&
         p.y <= std::max(a.y, b.y);
}

// The closed segments a-b and c-d share a point.
inline bool segments_meet(P2 a, P2 b, P2 c, P2 d) {
  if (std::max(a.x, b.x) < std::min(c.x, d.x) || std::max(c.x, d.x) < std::min(a.x, b.x) ||
      std::max(a.y, b.y) < std::min(c.y, d.y) || std::max(c.y, d.y) < std::min(a.y, b.y))
    return false;
  const int o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  return (o1 == 0 && within(a, b, c)) || (o2 == 0 && within(a, b, d)) || (o3 == 0 && within(c, d, a)) ||
         (o4 == 0 && within(c, d, b));
}

// p inside or on the counter-clockwise triangle a, b, c.
inline bool in_closed_triangle(P2 a, P2 b, P2 c, P2 p) {
  return orient(a, b, p) >= 0 && orient(b, c, p) >= 0 && orient(c, a, p) >= 0;
}

// ---- Scratch memory, one per thread ----------------------------------------------------------

struct Scratch {
  std::vector<double> xyz;     // the corners' positions, 3 per corner
  std::vector<P2> q;           // the corners seen along the dominant axis, counter-clockwise
  std::vector<uint32_t> ring;  // corners with a repeated neighbour dropped
  std::vector<uint32_t> order, prev, next, cell_start, cell_items;
  std::vector<uint8_t> alive;
};

inline Scratch& scratch() {
  thread_local Scratch s;
  return s;
}

}  // namespace facet::polygon
