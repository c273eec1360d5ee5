// Each triangle's meshlet first vertex in the meshlet layout, as resolve finds it: a base shared
// by a block of 2^shift triangles plus the 8-bit d of the triangle's corner word (params.h,
// corner_word). Made on the host from the meshlet records alone, for both upload routes
// (DeviceScene) and the tests' reference: a few bytes a block to send, where a first vertex a
// triangle sent 4 bytes a triangle.
#pragma once
#include <cstdint>

#include "engine/base/big_vector.h"
#include "engine/meshlets/meshlets.h"

namespace facet {

struct CornerBases {
  BigVector<uint32_t> bases;  // [corner_base_count(triangle_count, shift)]
  uint32_t shift = 0;         // kCornerBaseShift, or 0: a base a triangle, every d zero
};

// The bases a scene of `triangle_count` triangles holds at `shift`.
inline uint64_t corner_base_count(uint32_t triangle_count, uint32_t shift) {
  return triangle_count == 0 ? 0 : ((uint64_t)(triangle_count - 1) >> shift) + 1;
}

// kCornerBaseShift where slot i holds triangle i (runs, a renumbered scene) and every triangle's d
// fits its 8 bits; else (patches with their own slot order, or meshlets whose first vertices do
// not rise with their slots: a cache written by something else) a base a triangle. On every core.
CornerBases corner_bases(const Meshlets& meshlets, uint32_t triangle_count);

// The d of the corner word of `triangle`, one of meshlet `m`'s.
inline uint32_t corner_offset(const CornerBases& b, const Meshlet& m, uint32_t triangle) {
  return m.first_vertex - b.bases[triangle >> b.shift];
}

}  // namespace facet
