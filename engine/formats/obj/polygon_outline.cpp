// The outline checks of polygon_outline.h.
#include "engine/formats/obj/polygon_outline.h"

#include <algorithm>
#include <iterator>
#include <set>

#include "engine/formats/obj/obj_triangulate.h"

namespace facet::polygon {

namespace {

// No corner of the ring turns straight back along its edge.
bool no_spikes(const std::vector<P2>& q, const std::vector<uint32_t>& ring) {
  const size_t m = ring.size();
  for (size_t i = 0; i < m; ++i) {
    const P2 a = q[ring[(i + m - 1) % m]], b = q[ring[i]], c = q[ring[(i + 1) % m]];
    if (orient(a, b, c) == 0 && reverses(a, b, c)) return false;
  }
  return true;
}

// No two edges of the ring that are not neighbours share a point: every pair tested.
bool simple_by_pairs(const std::vector<P2>& q, const std::vector<uint32_t>& ring) {
  const size_t m = ring.size();
  for (size_t i = 0; i < m; ++i)
    for (size_t j = i + 2; j < m; ++j) {
      if (i == 0 && j == m - 1) continue;
      if (segments_meet(q[ring[i]], q[ring[i + 1]], q[ring[j]], q[ring[(j + 1) % m]])) return false;
    }
  return true;
}

// The same by a sweep (Shamos and Hoey): corners in (x, y) order, the edges the sweep line
// crosses kept in order from below; any two edges that become neighbours there are tested, and
// the first contact of two edges that are not neighbours on the ring ends the sweep.
class SimplicitySweep {
 public:
  SimplicitySweep(const std::vector<P2>& q, const std::vector<uint32_t>& ring, std::vector<uint32_t>& order)
      : m_q(q), m_ring(ring), m_m((uint32_t)ring.size()), m_status(Below{this}) {
    order.resize(m_m);
    for (uint32_t i = 0; i < m_m; ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return lex_less(point(a), point(b)); });
    m_simple = true;
    for (uint32_t i = 0; i + 1 < m_m && m_simple; ++i) m_simple = !same(point(order[i]), point(order[i + 1]));
    m_where.resize(m_m);
    for (uint32_t i = 0; i < m_m && m_simple; ++i) visit(order[i]);
  }
  bool simple() const { return m_simple; }

 private:
  struct Below {
    SimplicitySweep* sweep;
    bool operator()(uint32_t a, uint32_t b) const { return sweep->below(a, b); }
  };
  using Status = std::set<uint32_t, Below>;

  P2 point(uint32_t i) const { return m_q[m_ring[i]]; }
  // Edge e runs from ring corner e to e + 1; its left end comes first in (x, y) order.
  P2 left(uint32_t e) const {
    const P2 a = point(e), b = point((e + 1) % m_m);
    return lex_less(a, b) ? a : b;
  }
  P2 right(uint32_t e) const {
    const P2 a = point(e), b = point((e + 1) % m_m);
    return lex_less(a, b) ? b : a;
  }
  bool neighbours(uint32_t a, uint32_t b) const { return (a + 1) % m_m == b || (b + 1) % m_m == a; }
  bool meet(uint32_t a, uint32_t b) const {
    return !neighbours(a, b) && segments_meet(left(a), right(a), left(b), right(b));
  }

  // The order of the status, asked only about the edge being inserted (std::set compares the new
  // key with those it holds), at its left end m_at. An edge that starts on another is a contact.
  bool below(uint32_t a, uint32_t b) {
    if (a == b) return false;
    if (a == m_inserting) return inserted_below(b);
    if (b == m_inserting) return !inserted_below(a);
    return a < b;  // not asked
  }
  bool inserted_below(uint32_t t) {
    const P2 l = left(t), r = right(t);
    const int side = orient(l, r, m_at);
    if (side != 0) return side < 0;
    if (same(m_at, l)) {  // both start here: by direction
      const int o = orient(l, r, right(m_inserting));
      if (o != 0) return o < 0;
    }
    m_contact = true;
    return m_inserting < t;
  }

  void visit(uint32_t corner) {
    const uint32_t edges[2] = {(corner + m_m - 1) % m_m, corner};
    for (uint32_t e : edges) {
      if (!same(right(e), point(corner))) continue;
      Status::iterator it = m_where[e], above = std::next(it);
      const bool has_below = it != m_status.begin(), has_above = above != m_status.end();
      const uint32_t lower = has_below ? *std::prev(it) : 0, upper = has_above ? *above : 0;
      m_status.erase(it);
      if (has_below && has_above && meet(lower, upper)) m_simple = false;
    }
    for (uint32_t e : edges) {
      if (!m_simple) return;
      if (!same(left(e), point(corner))) continue;
      m_inserting = e;
      m_at = point(corner);
      m_contact = false;
      Status::iterator it = m_status.insert(e).first;
      m_inserting = UINT32_MAX;
      if (m_contact) {
        m_simple = false;
        return;
      }
      m_where[e] = it;
      if (it != m_status.begin() && meet(*std::prev(it), e)) m_simple = false;
      if (std::next(it) != m_status.end() && meet(*std::next(it), e)) m_simple = false;
    }
  }

  const std::vector<P2>& m_q;
  const std::vector<uint32_t>& m_ring;
  const uint32_t m_m;
  Status m_status;
  std::vector<Status::iterator> m_where;  // per edge, while in the status
  uint32_t m_inserting = UINT32_MAX;
  P2 m_at{0, 0};
  bool m_contact = false;
  bool m_simple = true;
};

}  // namespace

// Their x components change sign exactly twice.
bool convex_ring(const std::vector<P2>& q, const std::vector<uint32_t>& ring) {
  const size_t m = ring.size();
  int changes = 0, first = 0, last = 0;
  for (size_t i = 0; i < m; ++i) {
    const P2 a = q[ring[(i + m - 1) % m]], b = q[ring[i]], c = q[ring[(i + 1) % m]];
    const int o = orient(a, b, c);
    if (o < 0 || (o == 0 && reverses(a, b, c))) return false;
    const int dx = c.x > b.x ? 1 : (c.x < b.x ? -1 : 0);
    if (dx == 0) continue;
    if (first == 0)
      first = dx;
    else if (dx != last)
      ++changes;
    last = dx;
  }
  if (last != first) ++changes;
  return changes == 2;
}

bool simple_ring(const std::vector<P2>& q, const std::vector<uint32_t>& ring, std::vector<uint32_t>& order) {
  return no_spikes(q, ring) && (ring.size() <= kPairwiseSimplicityCorners ? simple_by_pairs(q, ring)
                                                                          : SimplicitySweep(q, ring, order).simple());
}

}  // namespace facet::polygon
