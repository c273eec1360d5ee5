// The one macro that marks per-element math shared by the CUDA kernels and the CPU backend,
// and the plain vector types that math uses. Nothing here allocates or launches.
#pragma once
#include <cmath>
#include <cstdint>

#if defined(__CUDACC__)
#define FACET_HD __host__ __device__ __forceinline__
#else
#define FACET_HD inline
#endif
// Unrolls the loop that follows (over a compile-time count, e.g. a pixel's samples) on both sides.
#if defined(__CUDACC__) || defined(__clang__)
#define FACET_UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
#define FACET_UNROLL _Pragma("GCC unroll 8")
#else
#define FACET_UNROLL
#endif

namespace facet {

struct Vec2 {
  float x, y;
};
struct Vec3 {
  float x, y, z;
};
struct Vec4 {
  float x, y, z, w;
};
// Aligned as a word so that a pixel or texel moves in one 32-bit access, not four byte accesses
// (four STG.U8 a pixel in the resolve's stores).
struct alignas(4) Rgba8 {
  uint8_t r, g, b, a;
};

// Column-major 4x4 matrix, as GLM and OpenGL store it: m[col * 4 + row].
struct Mat4 {
  float m[16];
};

FACET_HD Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
FACET_HD Vec2 operator-(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
FACET_HD Vec2 operator*(Vec2 a, float s) { return {a.x * s, a.y * s}; }
FACET_HD Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
FACET_HD Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
FACET_HD Vec3 operator*(Vec3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
FACET_HD Vec3 operator*(Vec3 a, Vec3 b) { return {a.x * b.x, a.y * b.y, a.z * b.z}; }
FACET_HD Vec4 operator+(Vec4 a, Vec4 b) { return {a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w}; }
FACET_HD Vec4 operator-(Vec4 a, Vec4 b) { return {a.x - b.x, a.y - b.y, a.z - b.z, a.w - b.w}; }
FACET_HD Vec4 operator*(Vec4 a, float s) { return {a.x * s, a.y * s, a.z * s, a.w * s}; }

FACET_HD float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
FACET_HD Vec3 cross(Vec3 a, Vec3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
FACET_HD float length(Vec3 a) { return sqrtf(dot(a, a)); }
// A zero vector stays zero rather than becoming NaN: degenerate normals shade as unlit.
FACET_HD Vec3 normalize(Vec3 a) {
  float l = length(a);
  return l > 0.0f ? a * (1.0f / l) : Vec3{0.0f, 0.0f, 0.0f};
}
FACET_HD float clampf(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }
FACET_HD int mini(int a, int b) { return a < b ? a : b; }
FACET_HD int maxi(int a, int b) { return a > b ? a : b; }
FACET_HD bool is_finite(float v) { return v - v == 0.0f; }  // false for NaN and +-Inf

// Column-major matrix times (p, 1), in fused multiply-adds of a fixed order: one instruction
// each on the GPU, and on the CPU backend too (its hot loops are built for FMA, cpu_renderer.cpp),
// so host and device agree bit for bit.
FACET_HD Vec4 mul_point(const Mat4& M, Vec3 p) {
  const float* m = M.m;
  return {fmaf(m[0], p.x, fmaf(m[4], p.y, fmaf(m[8], p.z, m[12]))),
          fmaf(m[1], p.x, fmaf(m[5], p.y, fmaf(m[9], p.z, m[13]))),
          fmaf(m[2], p.x, fmaf(m[6], p.y, fmaf(m[10], p.z, m[14]))),
          fmaf(m[3], p.x, fmaf(m[7], p.y, fmaf(m[11], p.z, m[15])))};
}

}  // namespace facet
