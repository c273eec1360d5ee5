// Unit normals in 32 bits: the octahedral map (Meyer et al. 2010, "On floating-point normal
// vectors"; Cigolle et al. 2014, JCGT 3(2), "A survey of efficient representations for independent
// unit vectors"), two 16-bit signed fractions on the octahedron |x| + |y| + |z| = 1, its lower half
// folded over the upper. Within 1e-4 radians of the normal it encodes, a few hundredths of a grey
// level of lit shading at most. What lets a meshlet vertex's position and normal share one aligned
// 16-byte record (MeshletPoint): one load, one sector, for resolve.
//
// Decoding is on resolve's path three times a covered pixel, so it takes no division and no
// square root: the octahedron's point is brought to unit length (within 3e-5) by a cubic guess
// of 1 / sqrt(r^2) and one Newton step, multiplies and adds only. Both backends shade with the
// decoded normals (interleave_shade_range quantizes the scene's) and the arithmetic is plain IEEE
// (fmaf, no contraction on either side: CMakeLists.txt), so they stay equal bit for bit.
#pragma once
#include "kernels/base/hd.h"

namespace facet {

// The code of a zero or non-finite normal, which lit shading leaves unlit (shade.h): -32768 is
// no 16-bit signed fraction's value.
constexpr uint32_t kNoNormalCode = 0x80008000u;
constexpr float kNormalCodeScale = 32767.0f;
constexpr float kNormalCodeStep = 1.0f / 32767.0f;
// 1 / sqrt(r2) for r2 in [1/3, 1] (an octahedron point's squared length) as
// c0 + c1 r2 + c2 r2^2 + c3 r2^3, interpolating at the Chebyshev nodes: within 0.35 %, and one
// Newton step squares that to 2e-5 (tests/cpu/render/test_normal_code.cpp measures the float result).
constexpr float kInvLengthC0 = 2.86787677f, kInvLengthC1 = -4.73827744f, kInvLengthC2 = 4.47267103f,
                kInvLengthC3 = -1.60453379f;

FACET_HD float sign_not_zero(float v) { return v >= 0.0f ? 1.0f : -1.0f; }

FACET_HD uint32_t encode_normal(Vec3 n) {
  const float l1 = fabsf(n.x) + fabsf(n.y) + fabsf(n.z);
  if (!(l1 > 0.0f) || !(l1 <= 3.4e38f)) return kNoNormalCode;  // zero, NaN or infinite
  float x = n.x / l1, y = n.y / l1;
  if (n.z < 0.0f) {
    const float fx = (1.0f - fabsf(y)) * sign_not_zero(x), fy = (1.0f - fabsf(x)) * sign_not_zero(y);
    x = fx;
    y = fy;
  }
  int32_t qx = (int32_t)rintf(fminf(fmaxf(x, -1.0f), 1.0f) * kNormalCodeScale);
  int32_t qy = (int32_t)rintf(fminf(fmaxf(y, -1.0f), 1.0f) * kNormalCodeScale);
  if (n.z < 0.0f) {
    // In the folded half an edge of the square is one normal whatever the sign of the other
    // coordinate (it unfolds to a zero one): the code its decoded normal encodes to, the positive.
    if (qx == 32767 || qx == -32767) qy = qy < 0 ? -qy : qy;
    if (qy == 32767 || qy == -32767) qx = qx < 0 ? -qx : qx;
  }
  return ((uint32_t)qx & 0xffffu) | ((uint32_t)qy & 0xffffu) << 16;
}

// A unit vector (within 3e-5 of unit length), or zero for kNoNormalCode.
FACET_HD Vec3 decode_normal(uint32_t code) {
  const float qx = (float)(int16_t)(code & 0xffffu) * kNormalCodeStep;
  const float qy = (float)(int16_t)(code >> 16) * kNormalCodeStep;
  const float z = 1.0f - (fabsf(qx) + fabsf(qy));
  // Below the equator the point folds back: each coordinate moves toward zero by the depth t
  // (x -> sign(x) (1 - |y|)), without a branch. A coordinate converted from an integer is never
  // -0, so copysignf is sign_not_zero here.
  const float t = fmaxf(-z, 0.0f);
  const float x = qx - copysignf(t, qx), y = qy - copysignf(t, qy);
  const float r2 = fmaf(x, x, fmaf(y, y, z * z));
  float s = fmaf(fmaf(fmaf(kInvLengthC3, r2, kInvLengthC2), r2, kInvLengthC1), r2, kInvLengthC0);
  s = s * fmaf(-0.5f * r2, s * s, 1.5f);
  if (code == kNoNormalCode) s = 0.0f;
  return {x * s, y * s, z * s};
}

// The normal both backends shade with: what its code decodes to. Encoding it again gives the
// same code (tests/cpu/render/test_normal_code.cpp), so the device, which codes the decoded normals it is
// sent, decodes the very same floats.
FACET_HD Vec3 quantize_normal(Vec3 n) { return decode_normal(encode_normal(n)); }

}  // namespace facet
