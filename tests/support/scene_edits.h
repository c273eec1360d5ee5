// Scenes made from others for the tests (CPU and GPU alike): two meshes as one, a mesh tiled,
// and triangles turned inside out.
#pragma once
#include <cstddef>

#include "engine/scene/scene.h"

namespace facet::test {

// `a` with `b`'s triangles appended (b's vertices after a's).
Scene combined(const Scene& a, const Scene& b);
// Turns every triangle from `first_triangle` on, swapping its last two corners.
void flip_winding(Scene& s, size_t first_triangle = 0);
// `copies` copies of `one`, the k-th moved k * step along x (vertices and their attributes
// repeated, indices offset), with its bounds.
Scene tiled(const Scene& one, uint32_t copies, float step);
// `s` with its triangles (indices, tri_material) back in the file's order where the load
// renumbered them (Scene::file_triangle), without meshlets: for tests of what a file holds.
Scene in_file_order(Scene s);
// A tetrahedron wound outward (counter-clockwise seen from outside), no two vertices on one
// position.
Scene tetrahedron();

}  // namespace facet::test
