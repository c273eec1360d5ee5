// The meshlets' vertices on the model's grid (kernels/position_grid.h): the grid chosen from the
// scene's edges, each part's vertices snapped to it before their bounds are computed, and then
// stored as 16-bit offsets from each meshlet's corner where they fit (six bytes a vertex, the
// geometry stage's stream), as floats where they do not.
#pragma once
#include "engine/meshlets.h"

namespace facet {

// The grid for the scene (kernels/position_grid.h): none below kGridMinTriangles or without an
// edge of non-zero finite length, else the grid for the 10th percentile of a sample of its
// edges' lengths (position_grid_for_edge), made coarser on an axis where the 99th percentile of
// the sample's coordinates lies beyond 2^22 steps.
PositionGrid position_grid_of(const Scene& scene);
// The grid whose step is the power of two at or below edge / 2^kGridEdgeBits (at least FLT_MIN).
PositionGrid position_grid_for_edge(double edge);

// Every vertex of a part being built (all in `positions`) moved to its grid point.
void snap_meshlet_positions(Meshlets& part, const PositionGrid& grid);
// A finished part's vertices stored by meshlet: on the grid (kMeshletGrid) where every offset
// fits, else as floats; first_vertex then indexes the array of each meshlet's encoding.
void encode_meshlet_vertices(Meshlets& part);

// Every meshlet's vertices, however stored.
uint64_t meshlet_vertex_count(const Meshlets& all);
// Vertex v of meshlet m, as the geometry stage decodes it.
Vec3 meshlet_vertex(const Meshlets& all, const Meshlet& m, uint32_t v);

// The scene's positions snapped to the grid, on every core: what the CPU backend projects.
BigVector<Vec3> snapped_positions(const Scene& scene, const PositionGrid& grid);

}  // namespace facet
