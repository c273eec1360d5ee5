// The model-wide grid every vertex the rasterizer sees lies on, and the 6-byte vertices of the
// meshlets stored on it.
//
// Why a grid: a meshlet's vertices as three 16-bit offsets from a corner take half the bytes of
// three floats, and the geometry stage streams them every frame. Why one grid for the model:
// a vertex shared by two meshlets must come out as the same floats in both, or closed surfaces
// crack. Both backends project the grid's points (the CPU backend snaps the scene's positions
// with snap_to_grid, the CUDA one decodes the meshlets), so they still agree bit for bit.
//
// A grid point is k * step on each axis, k an integer of at most 2^23 in magnitude and step a
// power of two: the point is an exact float, and decoding one is an exact product (no rounding
// a compiler could contract differently).
//
// The step follows the model's triangles, not its box (engine/meshlet_grid.cpp): a short edge
// (the 10th percentile of a sample) over 2^kGridEdgeBits, so a vertex moves by at most 1/2^10 of
// such an edge, and a far outlier vertex or a ground plane under a statue cannot coarsen the grid
// its other triangles need; coarser only on an axis where the bulk of the model (the 99th
// percentile of the sample's coordinates) lies beyond 2^22 steps from zero. A coordinate more than 2^23 steps from zero is left as it is (floats
// there are coarser than the grid already) and its meshlets stored as floats. Small models
// (below kGridMinTriangles) have no grid: their vertices stay exactly as loaded. Each rule is a
// function of the vertex alone, so a shared vertex comes out alike from every meshlet.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

#include "kernels/hd.h"

namespace facet {

// The step: at most a short edge over 2^kGridEdgeBits (above). A patch meshlet is some ten
// edges across, several thousand steps: room in 16 bits for one eight times wider (measured:
// 99.8 % of the bunny's meshlet vertices fit, 93.8 % of the dragon's).
constexpr int kGridEdgeBits = 9;
// Models with fewer triangles keep their floats (no grid): the bytes saved are a few KB.
constexpr uint64_t kGridMinTriangles = 1 << 15;
// Largest grid coordinate magnitude, 2^23 (not the 2^24 a float's mantissa allows: the block's
// biased corner below needs the bit).
constexpr int32_t kGridMaxCell = 1 << 23;
// A meshlet's vertices are stored on the grid when every one is finite and on the grid, within
// this many steps of its corner on each axis.
constexpr uint32_t kGridMaxOffset = 0xffff;
// A grid meshlet's block in the grid vertex array (uint16_t units): a header of three floats and a
// zero (eight halves, low half first: one 16-byte load), then x, y, z offsets in steps a vertex,
// padded to a multiple of eight halves so that every header is 16-byte aligned and every pair of
// vertices 4-byte aligned. The header holds each axis's corner cell k less 2^23 as a
// grid point, (k - 2^23) * step: an exact float for |k| <= 2^23. Decoding is then one fused
// multiply-add, (2^23 + offset) * step + that, with no integer conversion (2^23 + offset is the
// float whose mantissa bits are the offset): exact, since the result is a grid point, and equal
// to the cell's grid_coordinate.
constexpr uint32_t kGridHeaderHalves = 8;
constexpr uint32_t kGridBlockAlign = 8;  // halves
constexpr int32_t kGridBias = 1 << 23;
FACET_HD uint32_t grid_block_halves(uint32_t vertex_count) {
  return (kGridHeaderHalves + 3 * vertex_count + kGridBlockAlign - 1) & ~(kGridBlockAlign - 1);
}

// How a meshlet's vertices are stored (Meshlet::encoding).
enum MeshletEncoding : uint8_t {
  kMeshletFloats = 0,  // three floats a vertex in the meshlet position array (grid points too):
                       //   a meshlet wider than kGridMaxOffset steps
  kMeshletGrid = 1,    // a block of the grid vertex array (above)
};

struct PositionGrid {
  Vec3 step{0.0f, 0.0f, 0.0f};  // a power of two an axis, or all zero: no grid (nothing snaps,
                                //   every meshlet stores floats)
};

// The grid point of cell k: exact (|k| <= 2^24 and a power-of-two step), and +0 for cell 0.
FACET_HD float grid_coordinate(int32_t k, float step) { return (float)k * step; }

// Whether a snapped coordinate lies on the grid (else it was left as it was: above).
FACET_HD bool on_grid(float snapped, float step) { return step > 0.0f && fabsf(snapped / step) <= (float)kGridMaxCell; }

// The grid point nearest p (ties away from zero); p itself when it is NaN or infinite, more than
// 2^23 steps out, or there is no grid. The division is exact (a power-of-two step). Through the
// cell, as a decoded vertex comes: a small negative coordinate snaps to +0 on both backends.
FACET_HD float snap_coordinate(float p, float step) {
  if (!(step > 0.0f) || !(fabsf(p / step) <= (float)kGridMaxCell)) return p;
  return grid_coordinate((int32_t)roundf(p / step), step);
}
FACET_HD Vec3 snap_to_grid(const PositionGrid& g, Vec3 p) {
  return {snap_coordinate(p.x, g.step.x), snap_coordinate(p.y, g.step.y), snap_coordinate(p.z, g.step.z)};
}
// The grid cell of a finite grid point (snap_to_grid's output).
FACET_HD int32_t grid_cell(float snapped, float step) { return (int32_t)(snapped / step); }

// A grid meshlet's biased corner on axis a, from its block's header (above).
FACET_HD float grid_block_corner(const uint16_t* block, int a) {
  const uint32_t bits = (uint32_t)block[2 * a] | (uint32_t)block[2 * a + 1] << 16;
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}
// 2^23 + offset (at most 0xffff) as a float, exactly: the float with those mantissa bits, on the GPU
// without the quarter-rate conversion instruction the issue-bound geometry stage felt.
FACET_HD float biased_offset(uint32_t offset) {
#ifdef __CUDA_ARCH__
  return __int_as_float(0x4b000000u | offset);
#else
  return (float)(kGridBias + (int32_t)offset);
#endif
}
// A vertex from its block's biased corner and its offsets: what snap_to_grid gave for the same
// scene vertex, bit for bit (the CPU backend projects that). One exact fused multiply-add an axis.
FACET_HD float grid_axis(float corner, float step, uint32_t offset) { return fmaf(biased_offset(offset), step, corner); }
FACET_HD Vec3 grid_vertex(const PositionGrid& g, const float corner[3], uint32_t ox, uint32_t oy, uint32_t oz) {
  return {grid_axis(corner[0], g.step.x, ox), grid_axis(corner[1], g.step.y, oy), grid_axis(corner[2], g.step.z, oz)};
}
// Vertex v of a grid meshlet's block.
FACET_HD Vec3 grid_block_vertex(const PositionGrid& g, const uint16_t* block, uint32_t v) {
  const float corner[3] = {grid_block_corner(block, 0), grid_block_corner(block, 1), grid_block_corner(block, 2)};
  const uint16_t* o = block + kGridHeaderHalves + 3 * v;
  return grid_vertex(g, corner, o[0], o[1], o[2]);
}

// A meshlet's vertices wherever they are stored: its floats, or its grid block when that is set.
// The clipping path (triangle.h) reads them by local index.
struct MeshletVertices {
  const Vec3* floats;
  const uint16_t* block;
  PositionGrid grid;
  FACET_HD Vec3 operator[](uint32_t v) const { return block ? grid_block_vertex(grid, block, v) : floats[v]; }
};

}  // namespace facet
