// The launchers of the closed-surface check's CUDA kernels (closed_check.cu), for the engine's
// device check (engine/cuda/device_closed_check.h), which orders them and owns the arrays.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/frame/params.h"

namespace facet {

// The device arrays the steps read and write; every pointer is device memory.
struct ClosedCheckArrays {
  const ShadeVertex* vertices = nullptr;  // [vertex_count]: the positions, as resolve reads them
  uint32_t vertex_count = 0;
  const uint32_t* indices = nullptr;  // [3 * triangle_count]
  uint64_t triangle_count = 0;
  uint32_t* table = nullptr;   // [table_mask + 1]: the weld's open-addressing table of vertices
  uint32_t table_mask = 0;     // its size less one, a power of two less one
  uint32_t* parent = nullptr;  // [vertex_count]: weld ids, then the pieces' union-find forest
  // [3]: the two edge-balance sums (modulo 2^64), and non-zero when a triangle names a vertex
  // that does not exist or has a non-finite position. Zeroed by the caller.
  unsigned long long* balance = nullptr;
  uint32_t* piece = nullptr;  // [triangle_count]: each triangle's piece (root of its first corner)
  double* volume = nullptr;   // [triangle_count]: its tetra_volume6 about the centre
};

// parent[v] = the smallest vertex with v's position (weld_key), or kNonFiniteVertex: a table
// (cleared here) holds the first vertex of each position, found by an atomic minimum.
void launch_weld(const ClosedCheckArrays& a, cudaStream_t stream);
// Adds every triangle's add_edge_balance of its corners' weld ids into balance[0..1], and flags
// balance[2] for a missing or non-finite corner. Reads parent as the weld left it.
void launch_edge_balance(const ClosedCheckArrays& a, cudaStream_t stream);
// Joins each triangle's corners into one piece (a lock-free union-find that hooks a root only
// under a smaller one, so each piece's root is its smallest vertex whatever the order), then
// points every vertex straight at its root. Only after launch_edge_balance found no flag.
void launch_link_pieces(const ClosedCheckArrays& a, cudaStream_t stream);
// piece[t] and volume[t] of every triangle, about `centre` (three doubles).
void launch_triangle_volumes(const ClosedCheckArrays& a, double cx, double cy, double cz, cudaStream_t stream);
// Runs of one piece in each block of kClosedVolumeBlock triangles: their count per block into
// counts[block]; then (once the caller has turned the counts into first places) each run's piece
// and its volume, summed in triangle order, at run_piece / run_volume[first[block] + k].
void launch_count_runs(const ClosedCheckArrays& a, uint32_t* counts, cudaStream_t stream);
void launch_sum_runs(const ClosedCheckArrays& a, const uint64_t* first, uint32_t* run_piece, double* run_volume,
                     cudaStream_t stream);

}  // namespace facet
