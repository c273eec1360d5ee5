// Welding by position for the closed-surface check (closed_surface.h): each vertex's first vertex
// with the same position (bit for bit, -0 and +0 as one), on every core, the same for any number
// of threads. It does not build a mesh or move vertices. Our own rather than a concurrent hash
// map (oneTBB's): the first of each position must be the smallest index whatever the threads ran
// first, and tables of one bucket each stay in cache (position_weld.cpp).
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/base/big_vector.h"
#include "kernels/frame/params.h"
#include "kernels/prepare/closed_math.h"

namespace facet {

// Per vertex: the smallest index with the same position (weld_key, kernels/prepare/closed_math.h: at
// most the vertex's own), or kNonFiniteVertex. Atomic, so that a caller may turn the ids into a
// concurrent union-find forest.
std::unique_ptr<std::atomic<uint32_t>[]> weld_by_position(const BigVector<Vec3>& positions);

}  // namespace facet
