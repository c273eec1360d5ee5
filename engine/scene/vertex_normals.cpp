// compute_vertex_normals (scene.h): area-weighted vertex normals on every core, the same bytes
// for any number of threads. Each part of the vertices sums the faces around it in triangle
// order (so every vertex gets the same float sums, in the same order, as in one pass), and scans
// only the blocks of triangles whose index span meets it: a scan or a tiled model keeps nearby
// triangles on nearby vertices, so the parts together read the indices about once, where every
// part reading all of them cost a 16-core host sixteen reads of an 87 M-triangle index array.
// Indices scattered over the whole model still cost one read a part, as before.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "engine/base/big_array.h"
#include "engine/base/parallel.h"
#include "engine/scene/scene.h"

namespace facet {

namespace {

// Triangles a block whose smallest and largest vertex index are recorded: small enough that a
// scan's locality shows (a block spans a few thousand vertices), large enough that the spans
// (8 bytes a block) and the overlap tests cost nothing beside the triangles.
constexpr size_t kBlockTriangles = 1 << 12;
// Parts a worker where the indices are local: work stealing evens out the cores, and each part
// boundary costs only the few blocks that straddle it.
constexpr size_t kPartsPerWorker = 4;
// Fewest vertices a part: below this a part's fixed costs (a look at every block span) dominate.
constexpr size_t kMinPartVertices = 1 << 14;
// How much more block scanning the finer parts may cost than one part a worker.
constexpr double kFinePartsSlack = 1.25;

struct Span {
  uint32_t lo, hi;  // inclusive; lo > hi when the block has no triangle with valid indices
};

std::vector<Span> block_spans(const BigVector<uint32_t>& indices, size_t n) {
  const size_t triangles = indices.size() / 3;
  std::vector<Span> spans((triangles + kBlockTriangles - 1) / kBlockTriangles);
  parallel_for(spans.size(), 1, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t b = begin; b < end; ++b) {
      // The block's smallest and largest index in one plain pass (which the compiler vectorises);
      // only a block with an index past the vertices is looked at triangle by triangle.
      const size_t t0 = b * kBlockTriangles, t1 = std::min(triangles, (b + 1) * kBlockTriangles);
      uint32_t lo = UINT32_MAX, hi = 0;
      for (size_t i = 3 * t0; i < 3 * t1; ++i) {
        lo = std::min(lo, indices[i]);
        hi = std::max(hi, indices[i]);
      }
      if (hi < n) {
        spans[b] = Span{lo, hi};
        continue;
      }
      Span s{UINT32_MAX, 0};
      for (size_t t = t0; t < t1; ++t) {
        const uint32_t i0 = indices[3 * t], i1 = indices[3 * t + 1], i2 = indices[3 * t + 2];
        if (i0 >= n || i1 >= n || i2 >= n) continue;
        s.lo = std::min({s.lo, i0, i1, i2});
        s.hi = std::max({s.hi, i0, i1, i2});
      }
      spans[b] = s;
    }
  });
  return spans;
}

// Vertex range of part `p` of `parts`.
size_t part_begin(size_t n, size_t p, size_t parts) { return (size_t)((uint64_t)n * p / parts); }

// Blocks all `parts` parts would scan together.
uint64_t scan_cost(const std::vector<Span>& spans, size_t n, size_t parts) {
  uint64_t cost = 0;
  for (size_t p = 0; p < parts; ++p) {
    const size_t lo = part_begin(n, p, parts), hi = part_begin(n, p + 1, parts);
    for (const Span& s : spans) cost += s.lo <= s.hi && s.lo < hi && s.hi >= lo;
  }
  return cost;
}

// Adds the faces of triangles [t0, t1) around vertices [lo, hi) into acc, in triangle order.
// all_mine: every valid index of these triangles is in [lo, hi), so nothing is tested per corner.
template <bool all_mine>
void sum_block(const BigVector<Vec3>& positions, const BigVector<uint32_t>& indices, size_t t0, size_t t1, size_t lo,
               size_t hi, BigVector<Vec3>& acc) {
  const size_t n = positions.size();
  auto mine = [&](uint32_t i) { return all_mine || (i >= lo && i < hi); };
  for (size_t t = t0; t < t1; ++t) {
    const uint32_t i0 = indices[3 * t], i1 = indices[3 * t + 1], i2 = indices[3 * t + 2];
    if (i0 >= n || i1 >= n || i2 >= n) continue;
    if (!mine(i0) && !mine(i1) && !mine(i2)) continue;
    const Vec3 p0 = positions[i0], p1 = positions[i1], p2 = positions[i2];
    // The unnormalised cross product is twice the area times the unit normal: summing it
    // weights each face by its area, so slivers from triangulation barely count.
    const Vec3 c = cross(p1 - p0, p2 - p0);
    if (!finite3(c)) continue;
    if (mine(i0)) acc[i0] = acc[i0] + c;
    if (mine(i1)) acc[i1] = acc[i1] + c;
    if (mine(i2)) acc[i2] = acc[i2] + c;
  }
}

// Adds the faces around vertices [lo, hi) into acc, in triangle order.
void sum_part(const BigVector<Vec3>& positions, const BigVector<uint32_t>& indices, const std::vector<Span>& spans,
              size_t lo, size_t hi, BigVector<Vec3>& acc) {
  const size_t n = positions.size(), triangles = indices.size() / 3;
  for (size_t b = 0; b < spans.size(); ++b) {
    const Span s = spans[b];
    if (s.lo > s.hi || s.lo >= hi || s.hi < lo) continue;
    const size_t t0 = b * kBlockTriangles, t1 = std::min(triangles, (b + 1) * kBlockTriangles);
    // Most blocks lie inside one part (a span is a few thousand vertices, a part far more).
    if (s.lo >= lo && (s.hi < hi || hi == n))
      sum_block<true>(positions, indices, t0, t1, lo, hi, acc);
    else
      sum_block<false>(positions, indices, t0, t1, lo, hi, acc);
  }
}

// Normalises acc[lo, hi) in place.
void normalise_part(BigVector<Vec3>& acc, size_t lo, size_t hi) {
  for (size_t i = lo; i < hi; ++i) {
    Vec3& a = acc[i];
    // Normalised in double: for tiny scanned triangles (dragon, areas near 1e-8 m^2) the float
    // length squared would underflow.
    const double l = std::sqrt((double)a.x * a.x + (double)a.y * a.y + (double)a.z * a.z);
    if (l > 0 && std::isfinite(l)) {
      a = {(float)(a.x / l), (float)(a.y / l), (float)(a.z / l)};
    } else {
      a = {0, 0, 1};  // only degenerate faces touch it: any unit vector keeps shading defined
    }
  }
}

}  // namespace

BigVector<Vec3> compute_vertex_normals(const BigVector<Vec3>& positions, const BigVector<uint32_t>& indices) {
  const size_t n = positions.size();
  BigVector<Vec3> acc;
  resize_on_every_core(acc, n);  // zeros, written on every core (big_array.h)
  // One part a worker, or several where the indices are local enough that the finer parts scan
  // hardly more blocks; the sums are the same for any parts. One part scans every block.
  const size_t most = std::max<size_t>(1, n / kMinPartVertices);
  const size_t coarse = std::min<size_t>(most, worker_count());
  const size_t blocks = (indices.size() / 3 + kBlockTriangles - 1) / kBlockTriangles;
  const std::vector<Span> spans = coarse > 1 ? block_spans(indices, n) : std::vector<Span>(blocks, Span{0, UINT32_MAX});
  const size_t fine = std::min<size_t>(most, coarse * kPartsPerWorker);
  const size_t parts =
      fine > coarse && (double)scan_cost(spans, n, fine) <= kFinePartsSlack * (double)scan_cost(spans, n, coarse)
          ? fine
          : coarse;
  // Each part normalised as soon as its sums are complete, by the worker that summed them: no
  // second pass over the whole array, and the part's last entries are still in cache.
  parallel_for(parts, 1, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t p = begin; p < end; ++p) {
      const size_t lo = part_begin(n, p, parts), hi = part_begin(n, p + 1, parts);
      sum_part(positions, indices, spans, lo, hi, acc);
      normalise_part(acc, lo, hi);
    }
  });
  return acc;
}

}  // namespace facet
