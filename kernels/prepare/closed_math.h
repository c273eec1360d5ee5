// The per-element math of the closed-surface check (engine/scene/closed_surface.h), shared by the CPU
// check and the GPU's (closed_check.cu) so that both give the same answer bit for bit: a
// position's bits for welding, each triangle's edge-balance terms, and its signed volume, every
// double rounded as written (no fused multiply-add on either side).
#pragma once
#include <cstdint>
#include <cstring>

#include "kernels/base/bit_mix.h"
#include "kernels/base/hd.h"
#include "kernels/base/rounded.h"

namespace facet {

// Triangles a block of the volume sums: fixed, so the float sums depend on neither the threads
// nor the device.
constexpr uint64_t kClosedVolumeBlock = 1 << 16;

// Weld id of a vertex with a NaN or infinite coordinate: it welds to nothing.
constexpr uint32_t kNonFiniteVertex = UINT32_MAX;

// A coordinate's bits for welding: -0 and +0 project to the same pixel, so they are one position.
FACET_HD uint32_t weld_bits(float f) {
  if (f == 0.0f) f = 0.0f;
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

// The three coordinates' weld bits; false when one is not finite (its exponent all ones).
FACET_HD bool weld_key(const Vec3& p, uint32_t bits[3]) {
  bits[0] = weld_bits(p.x), bits[1] = weld_bits(p.y), bits[2] = weld_bits(p.z);
  const uint32_t kExponent = 0x7f800000u;
  return (bits[0] & kExponent) != kExponent && (bits[1] & kExponent) != kExponent && (bits[2] & kExponent) != kExponent;
}

// Whether two positions weld (the same weld bits; either may be non-finite).
FACET_HD bool same_weld_position(const Vec3& a, const Vec3& b) {
  uint32_t x[3], y[3];
  weld_key(a, x);
  weld_key(b, y);
  return x[0] == y[0] && x[1] == y[1] && x[2] == y[2];
}

// A hash of a position's weld bits, for the welds' tables.
FACET_HD uint64_t weld_hash(const uint32_t bits[3]) {
  return mix_bits(bits[0] | (uint64_t)bits[1] << 32) ^ mix_bits(bits[2] + 0x9e3779b97f4a7c15ull);
}

// The edge balance of triangle (v0, v1, v2), welded vertex ids: each directed edge adds the hash
// of its undirected key (smaller vertex first) when it runs from the smaller vertex, and takes it
// away when it runs the other way, so the sums over a mesh are zero when every edge is used as
// often in one direction as in the other. One hash an edge and seed (hashing each direction apart
// would double the arithmetic); the sum still weighs each undirected edge's imbalance by an
// independent 64-bit value. Sums modulo 2^64: any order gives the same value.
FACET_HD void add_edge_balance(uint32_t v0, uint32_t v1, uint32_t v2, uint64_t sum[2]) {
  const uint64_t kSeed[2] = {0x6a09e667f3bcc909ull, 0xbb67ae8584caa73bull};
  const uint32_t from[3] = {v0, v1, v2}, to[3] = {v1, v2, v0};
  FACET_UNROLL
  for (int e = 0; e < 3; ++e) {
    const uint32_t a = from[e], b = to[e];
    const uint64_t key = a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a;
    FACET_UNROLL
    for (int k = 0; k < 2; ++k) {
      const uint64_t h = mix_bits(key ^ kSeed[k]);
      sum[k] += a < b ? h : a > b ? 0 - h : 0;  // a loop edge (a == b) balances itself
    }
  }
}

// Six times the signed volume of the tetrahedron of triangle (a, b, c) and the point o.
FACET_HD double tetra_volume6(const Vec3& a, const Vec3& b, const Vec3& c, const double o[3]) {
  const Vec3* q[3] = {&a, &b, &c};
  double p[3][3];
  FACET_UNROLL
  for (int k = 0; k < 3; ++k) {
    p[k][0] = sub_rn(q[k]->x, o[0]);
    p[k][1] = sub_rn(q[k]->y, o[1]);
    p[k][2] = sub_rn(q[k]->z, o[2]);
  }
  const double m0 = sub_rn(mul_rn(p[1][1], p[2][2]), mul_rn(p[1][2], p[2][1]));
  const double m1 = sub_rn(mul_rn(p[1][0], p[2][2]), mul_rn(p[1][2], p[2][0]));
  const double m2 = sub_rn(mul_rn(p[1][0], p[2][1]), mul_rn(p[1][1], p[2][0]));
  return add_rn(sub_rn(mul_rn(p[0][0], m0), mul_rn(p[0][1], m1)), mul_rn(p[0][2], m2));
}

}  // namespace facet
