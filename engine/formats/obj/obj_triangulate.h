// Polygons to triangles: every polygon of n corners becomes n - 2 triangles, numbered by its own
// corners and wound as it is. A simple polygon (its outline neither crosses nor touches itself)
// is covered exactly, convex or not, wherever it sits in space:
// - its plane: Newell's normal (in double, from the first corner); the polygon is seen along the
//   axis that normal points along most (an affine map of its plane, so its outline, ears and
//   simplicity are those in the plane, and the 2-D coordinates are the file's floats: every
//   orientation test is exact, a floating-point filter with an exact fallback);
// - a convex quad (its diagonals meet): along its shorter diagonal, in float, as facet always cut
//   quads, so quad meshes keep their triangles;
// - any other convex polygon (checked exactly in one pass): a fan from its first corner;
// - a concave one: its outline checked for crossings and touchings (every pair of edges up to
//   kPairwiseSimplicityCorners corners, above that a sweep, O(n log n)), then ear clipping with
//   exact tests; a corner in line with its neighbours or repeating one is clipped as a triangle of
//   no area, so the count stays n - 2. Ears are looked up in a grid: about linear in n for real
//   outlines, n^1.5 for a star of long spikes (200,000 corners: about a second), quadratic at
//   worst (most corners crowded into a few cells of the polygon's box).
// What cannot be cut that way is fanned from its first corner and reported (PolygonShape). Quads
// are never called warped: a warped quad is common and its two triangles are the usual answer.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace facet {

// A polygon of 5 corners or more is flat when every corner lies within kFlatTolerance times its
// bounding box's diagonal, plus two float steps at its largest coordinate (what writing it as
// floats may cost), of its best-fit plane (Newell's normal through the corners' mean).
constexpr double kFlatTolerance = 1e-3;

// Up to this many distinct corners the simplicity check tests every pair of edges.
constexpr uint32_t kPairwiseSimplicityCorners = 32;

enum class PolygonShape : uint8_t {
  kSimple,     // cut into n - 2 triangles covering it exactly
  kNotFlat,    // simple on its best-fit plane and cut there all the same, but a corner lies
               //   farther than the tolerance off that plane (5 corners or more)
  kNotSimple,  // its outline crosses or touches itself (seen along the axis), or it has no area
               //   without lying on a line (a symmetric bow-tie): a fan from corner 0
  kNoArea,     // no area and every corner on one line, within the flatness tolerance: a fan
               //   from corner 0, triangles of no area (nothing is missing, nothing to report)
  kNotFinite,  // a coordinate is NaN or infinite: a fan from that corner, so that every
               //   triangle touches it and the mesh drops the whole polygon
};

// Appends the n - 2 triangles of the polygon whose corners use positions v[0..n) (0-based
// indices into `positions`, 3 floats each, all valid; n >= 3) to `out`, as corner numbers
// 0..n-1, 3 per triangle, wound as the polygon is.
PolygonShape triangulate_polygon(const int32_t* v, uint32_t n, const float* positions, std::vector<uint32_t>& out);

// The fan of a polygon of n corners from corner `from`: (from, from + k, from + k + 1), k = 1..n-2,
// corner numbers modulo n.
void fan_polygon(uint32_t n, uint32_t from, std::vector<uint32_t>& out);

}  // namespace facet
