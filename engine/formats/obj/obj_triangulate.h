// Polygons to triangles, the way facet's OBJ loading has always cut them, so that every model
// keeps its triangles: a quad along its shorter diagonal; 5 to kEarClipMaxCorners corners by
// ear clipping in the polygon's dominant plane (tinyobjloader 2.0's method, float for float);
// larger polygons as a fan from their first corner, which stays linear in the corner count (ear
// clipping is quadratic: a 200,000-corner face took half a minute).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace facet {

// Above this many corners a polygon is fanned: ear clipping costs up to corners^2 point tests
// per ear, and real models' polygons (caps, n-gons from modellers) stay below it.
constexpr uint32_t kEarClipMaxCorners = 32;

// Appends the triangles of the polygon whose corners use positions v[0..n) (0-based indices into
// `positions`, 3 floats each, all valid) to `out`, as corner numbers 0..n-1, 3 per triangle.
// A polygon the ear clipper cannot finish leaves its remaining corners untriangulated.
void triangulate_polygon(const int32_t* v, uint32_t n, const float* positions, std::vector<uint32_t>& out);

}  // namespace facet
