// Clipping in homogeneous clip space: what crosses the near plane is cut, never projected from
// behind the camera, and shared edges get bit-identical cut points.
#include <gtest/gtest.h>

#include <cstring>

#include "kernels/frame/geometry/clip.h"

using namespace facet;

TEST(Clipping, TriangleCrossingNearPlaneBecomesQuadInFront) {
  ClipPlanes p = make_clip_planes(640, 480);
  // One vertex behind the camera, two in front. Behind the camera an OpenGL projection gives
  // w < 0 and z < -|w| (here n = 0.1, f = 100, view z = +2).
  Vec4 a{0, 0, 0.5f, 1}, b{0.5f, 0, 0.5f, 1}, c{0, 0.5f, -2.2f, -2.0f};
  Vec4 poly[kMaxClipVerts];
  int n = clip_polygon(p, outcode(p, a) | outcode(p, b) | outcode(p, c), a, b, c, poly);
  ASSERT_EQ(n, 4);
  for (int i = 0; i < n; ++i) {
    EXPECT_GE(plane_distance(p, 0, poly[i]), -1e-6f) << i;
    EXPECT_GT(poly[i].w, 0.0f) << i;
  }
}

TEST(Clipping, TriangleWhollyBehindCameraIsOutsideNearPlane) {
  ClipPlanes p = make_clip_planes(640, 480);
  Vec4 a{0, 0, -1.2f, -1}, b{1, 0, -1.2f, -1}, c{0, 1, -2.2f, -2};
  EXPECT_TRUE(outcode(p, a) & outcode(p, b) & outcode(p, c) & 1u);
}

TEST(Clipping, VertexAtTheEyeIsClipped) {
  ClipPlanes p = make_clip_planes(640, 480);
  // The eye in clip space of an OpenGL perspective matrix: (0, 0, -2fn/(f-n), 0).
  Vec4 eye{0, 0, -0.2f, 0};
  EXPECT_TRUE(outcode(p, eye) & 1u);
  Vec4 a{0.5f, 0, 0.5f, 1}, b{0, 0.5f, 0.5f, 1};
  Vec4 poly[kMaxClipVerts];
  int n = clip_polygon(p, outcode(p, eye), eye, a, b, poly);
  ASSERT_EQ(n, 4);
  for (int i = 0; i < n; ++i) EXPECT_GT(poly[i].w, 0.0f);
}

TEST(Clipping, CutPointIsTheSameWhicheverWayTheEdgeRuns) {
  ClipPlanes p = make_clip_planes(1920, 1080);
  Vec4 a{0.3f, -0.7f, 0.9f, 1.3f}, b{-0.2f, 0.4f, -3.1f, -1.7f};
  for (int plane = 0; plane < kClipPlanes; ++plane) {
    Vec4 ab = intersect(p, plane, a, b), ba = intersect(p, plane, b, a);
    EXPECT_EQ(0, std::memcmp(&ab, &ba, sizeof(Vec4))) << "plane " << plane;
  }
}

TEST(Clipping, GuardBandCutsHugeTrianglesButKeepsWinding) {
  ClipPlanes p = make_clip_planes(100, 100);
  Vec4 a{-1e6f, -1e6f, 0, 1}, b{1e6f, -1e6f, 0, 1}, c{0, 1e6f, 0, 1};
  uint32_t codes = outcode(p, a) | outcode(p, b) | outcode(p, c);
  Vec4 poly[kMaxClipVerts];
  int n = clip_polygon(p, codes, a, b, c, poly);
  ASSERT_GE(n, 3);
  float area = 0;
  for (int i = 0; i < n; ++i) {
    const Vec4 &u = poly[i], &v = poly[(i + 1) % n];
    area += u.x * v.y - v.x * u.y;
    EXPECT_LE(std::fabs(poly[i].x), p.kx * poly[i].w * 1.0001f);
    EXPECT_LE(std::fabs(poly[i].y), p.ky * poly[i].w * 1.0001f);
  }
  EXPECT_GT(area, 0.0f);  // counter-clockwise in, counter-clockwise out
}
