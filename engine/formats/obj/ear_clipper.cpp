// Ear clipping (ear_clipper.h).
#include "engine/formats/obj/ear_clipper.h"

#include <algorithm>
#include <cmath>

namespace facet::polygon {

namespace {

// Ear clipping of the counter-clockwise simple polygon q[0..n) (repeated corners allowed): a
// corner in line with its neighbours is clipped at once (a triangle of no area), a convex one
// when no other remaining corner lies in or on its triangle. After a clip the search goes on two
// corners further (as earcut does), so each round about halves the ring and ears stay local. The
// corners are looked up in a grid of square cells, about two corners a cell, walked row by row
// over the cells the triangle crosses (a long thin ear, a star's spike, costs its length in cells,
// not its box). Appends n - 2 triangles, or returns false (and leaves `out` as it was) if no ear
// is left.
class EarClipper {
 public:
  EarClipper(const std::vector<P2>& q, uint32_t n, Scratch& s) : m_q(q), m_n(n), m_s(s) {
    m_s.prev.resize(n), m_s.next.resize(n), m_s.alive.assign(n, 1);
    for (uint32_t i = 0; i < n; ++i) m_s.prev[i] = (i + n - 1) % n, m_s.next[i] = (i + 1) % n;
    build_grid();
  }

  bool clip(std::vector<uint32_t>& out) {
    const size_t base = out.size();
    std::vector<uint32_t>&prev = m_s.prev, &next = m_s.next;
    uint32_t remaining = m_n, corner = 0, failed = 0;
    while (remaining > 3) {
      const uint32_t p = prev[corner], x = next[corner];
      const int o = orient(m_q[p], m_q[corner], m_q[x]);
      if (o == 0 || (o > 0 && empty_ear(p, corner, x))) {
        out.insert(out.end(), {p, corner, x});
        next[p] = x, prev[x] = p, m_s.alive[corner] = 0;
        --remaining;
        corner = next[x];
        failed = 0;
        continue;
      }
      corner = x;
      if (++failed >= remaining) {
        out.resize(base);
        return false;
      }
    }
    out.insert(out.end(), {prev[corner], corner, next[corner]});
    return true;
  }

 private:
  // Monotone in x and y, so a corner's cell lies between its box's cells.
  uint32_t column(double x) const {
    return (uint32_t)std::clamp((x - m_lo.x) * m_per_side, 0.0, (double)(m_columns - 1));
  }
  uint32_t row(double y) const { return (uint32_t)std::clamp((y - m_lo.y) * m_per_side, 0.0, (double)(m_rows - 1)); }

  void build_grid() {
    P2 hi = m_lo = m_q[0];
    for (uint32_t i = 0; i < m_n; ++i) {
      m_lo.x = std::min(m_lo.x, m_q[i].x), m_lo.y = std::min(m_lo.y, m_q[i].y);
      hi.x = std::max(hi.x, m_q[i].x), hi.y = std::max(hi.y, m_q[i].y);
    }
    const double w = hi.x - m_lo.x, h = hi.y - m_lo.y;
    const double side = std::max({std::sqrt(w * h / std::max(1.0, m_n / 2.0)), w / 65536, h / 65536});
    m_per_side = side > 0 ? 1 / side : 1;
    for (;; m_per_side /= 2) {  // at most about 4 cells a corner
      m_columns = (uint32_t)(w * m_per_side) + 1, m_rows = (uint32_t)(h * m_per_side) + 1;
      if ((double)m_columns * m_rows <= 4.0 * m_n + 16) break;
    }
    std::vector<uint32_t>&start = m_s.cell_start, &items = m_s.cell_items, &fill = m_s.order;
    start.assign((size_t)m_columns * m_rows + 1, 0);
    for (uint32_t i = 0; i < m_n; ++i) ++start[cell(m_q[i]) + 1];
    for (size_t c = 1; c < start.size(); ++c) start[c] += start[c - 1];
    items.resize(m_n);
    fill.assign(start.begin(), start.end() - 1);
    for (uint32_t i = 0; i < m_n; ++i) items[fill[cell(m_q[i])]++] = i;
  }
  size_t cell(P2 p) const { return (size_t)row(p.y) * m_columns + column(p.x); }

  // No remaining corner but p, r, x in or on the triangle p, r, x.
  bool empty_ear(uint32_t p, uint32_t r, uint32_t x) const {
    const P2 t[3] = {m_q[p], m_q[r], m_q[x]};
    const P2 lo = {std::min({t[0].x, t[1].x, t[2].x}), std::min({t[0].y, t[1].y, t[2].y})};
    const P2 hi = {std::max({t[0].x, t[1].x, t[2].x}), std::max({t[0].y, t[1].y, t[2].y})};
    const uint32_t first_column = column(lo.x), last_column = column(hi.x);
    for (uint32_t cy = row(lo.y), last_row = row(hi.y); cy <= last_row; ++cy) {
      // The triangle's extent in x within this row, the row widened by half a cell each way and
      // the extent by a cell: rounding in these few operations cannot hide a corner.
      const double y0 = m_lo.y + (cy - 0.5) / m_per_side, y1 = m_lo.y + (cy + 1.5) / m_per_side;
      double x0 = hi.x, x1 = lo.x;
      for (int e = 0; e < 3; ++e) {
        P2 a = t[e], b = t[(e + 1) % 3];
        if (a.y > b.y) std::swap(a, b);
        if (b.y < y0 || a.y > y1) continue;
        if (b.y == a.y) {
          x0 = std::min({x0, a.x, b.x}), x1 = std::max({x1, a.x, b.x});
          continue;
        }
        for (const double y : {std::max(a.y, y0), std::min(b.y, y1)}) {
          const double at_y = a.x + (b.x - a.x) * ((y - a.y) / (b.y - a.y));
          x0 = std::min(x0, at_y), x1 = std::max(x1, at_y);
        }
      }
      if (x0 > x1) continue;
      const uint32_t c0 = std::max(first_column, column(x0) > 0 ? column(x0) - 1 : 0u);
      const uint32_t c1 = std::min(last_column, column(x1) + 1);
      for (uint32_t cx = c0; cx <= c1; ++cx) {
        const size_t c = (size_t)cy * m_columns + cx;
        for (uint32_t k = m_s.cell_start[c]; k < m_s.cell_start[c + 1]; ++k) {
          const uint32_t i = m_s.cell_items[k];
          const P2 u = m_q[i];
          if (!m_s.alive[i] || i == p || i == r || i == x || u.x < lo.x || u.x > hi.x || u.y < lo.y || u.y > hi.y)
            continue;
          if (in_closed_triangle(t[0], t[1], t[2], u)) return false;
        }
      }
    }
    return true;
  }

  const std::vector<P2>& m_q;
  const uint32_t m_n;
  Scratch& m_s;
  P2 m_lo{0, 0};
  double m_per_side = 1;  // cells per unit of length
  uint32_t m_columns = 1, m_rows = 1;
};

}  // namespace

bool clip_ears(const std::vector<P2>& q, uint32_t n, Scratch& s, std::vector<uint32_t>& out) {
  return EarClipper(q, n, s).clip(out);
}

}  // namespace facet::polygon
