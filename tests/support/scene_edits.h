// Scenes made from others for the closed-surface tests (CPU and GPU alike): two meshes as one,
// and triangles turned inside out.
#pragma once
#include <cstddef>

#include "engine/scene.h"

namespace facet::test {

// `a` with `b`'s triangles appended (b's vertices after a's).
Scene combined(const Scene& a, const Scene& b);
// Turns every triangle from `first_triangle` on, swapping its last two corners.
void flip_winding(Scene& s, size_t first_triangle = 0);
// A tetrahedron wound outward (counter-clockwise seen from outside), no two vertices on one
// position.
Scene tetrahedron();

}  // namespace facet::test
