// Whether a mesh is a closed surface facing outward: then, seen from outside, every back face
// lies behind a front face, and a frame may skip the back faces without changing its pixels
// (make_frame_params decides per frame; docs/architecture.md, "Conventions").
#pragma once
#include <cstdint>
#include <vector>

#include "engine/base/big_vector.h"
#include "kernels/frame/params.h"

namespace facet {

// True when
//  - every position a triangle uses is finite;
//  - the triangles, their vertices identified by position (so that texture seams, which repeat
//    a position, close up), use every edge as often in one direction as in the other: a closed
//    surface, which the rasterizer's shared snapped vertices and fill rule keep watertight;
//  - every connected piece encloses a positive volume (counter-clockwise seen from outside, the
//    winding OpenGL calls front-facing).
// Then along any line of sight from outside, the first surface crossed is a front face. A mesh
// with a hole, mixed winding (many scans), an inside-out piece or no triangles is not closed.
// The edge balance is checked by two 64-bit hashes of each undirected edge, added or taken away by
// its direction: an unbalanced mesh passes only if both sums cancel by chance (about 2^-128).
bool closed_outward(const BigVector<Vec3>& positions, const BigVector<uint32_t>& indices);
// The same, the volumes taken about `centre`, which must be compute_bounds(positions).center
// (a caller that has the bounds saves a pass over the positions).
bool closed_outward(const BigVector<Vec3>& positions, const BigVector<uint32_t>& indices, const Vec3& centre);

// The volume step's parts, which the GPU's check (engine/cuda/device_closed_check.h) shares: each
// fixed block of kClosedVolumeBlock triangles (kernels/prepare/closed_math.h) sums its runs of one piece
// in order (tetra_volume6 about the centre); the runs, block after block, are then added up piece
// by piece into a sum kept at the piece's root: the same float sums for any number of threads.
struct PieceRun {
  uint32_t piece;  // the piece's root: its smallest vertex, welded
  double volume;   // six times the signed volume of the run's triangles
};
// Whether every piece's runs add up to a positive volume; `vertex_count` bounds the roots.
bool every_piece_positive(const std::vector<PieceRun>& runs, size_t vertex_count);

}  // namespace facet
