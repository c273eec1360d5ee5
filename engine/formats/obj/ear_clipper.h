// Ear clipping of a simple polygon in its plane, exact in every sign it takes. Internal to the OBJ
// reader's polygon cut (obj_triangulate.cpp).
#pragma once
#include <cstdint>
#include <vector>

#include "engine/formats/obj/polygon_signs.h"

namespace facet::polygon {

// Appends n - 2 triangles (corner numbers of q, 3 each) cutting the counter-clockwise simple
// polygon q[0..n) (repeated corners allowed) to `out`, or returns false and leaves `out` as it was
// if no ear is left. Uses `s`'s arrays (prev, next, alive, cells) as scratch.
bool clip_ears(const std::vector<P2>& q, uint32_t n, Scratch& s, std::vector<uint32_t>& out);

}  // namespace facet::polygon
