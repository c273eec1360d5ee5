// Whether a polygon's outline in its plane is convex, and whether it is simple (no two edges
// that are not neighbours share a point): every pair of edges for a few corners, a sweep for
// many. Internal to the OBJ reader's polygon cut (obj_triangulate.cpp).
#pragma once
#include <cstdint>
#include <vector>

#include "engine/formats/obj/polygon_signs.h"

namespace facet::polygon {

// Convex: every turn left or straight ahead (never back), and the edges' directions go round
// once. `ring`: the corners of q, counter-clockwise, repeated corners gone.
bool convex_ring(const std::vector<P2>& q, const std::vector<uint32_t>& ring);
// Simple: no corner turns straight back along its edge, and no two edges that are not neighbours
// share a point (pairwise up to kPairwiseSimplicityCorners corners, else by a sweep that uses
// `order` as scratch).
bool simple_ring(const std::vector<P2>& q, const std::vector<uint32_t>& ring, std::vector<uint32_t>& order);

}  // namespace facet::polygon
