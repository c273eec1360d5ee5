// Polygon triangulation (see obj_triangulate.h). The quad split and the ear clipper repeat
// tinyobjloader 2.0.0rc10's arithmetic in the same float operations and order (its "area" test
// included, which measures from the origin rather than the ear), because the triangles a model
// has shown so far are part of its look; the differential test compares them.
#include "engine/formats/obj/obj_triangulate.h"

#include <cmath>
#include <limits>

namespace facet {

namespace {

const float* at(const float* positions, int32_t v) { return positions + 3 * (size_t)v; }

// 0 1 2 + 0 2 3 when the 0-2 diagonal is shorter, else 0 1 3 + 1 2 3.
void split_quad(const int32_t* v, const float* positions, std::vector<uint32_t>& out) {
  const float *p0 = at(positions, v[0]), *p1 = at(positions, v[1]), *p2 = at(positions, v[2]),
              *p3 = at(positions, v[3]);
  float e02x = p2[0] - p0[0], e02y = p2[1] - p0[1], e02z = p2[2] - p0[2];
  float e13x = p3[0] - p1[0], e13y = p3[1] - p1[1], e13z = p3[2] - p1[2];
  float sqr02 = e02x * e02x + e02y * e02y + e02z * e02z;
  float sqr13 = e13x * e13x + e13y * e13y + e13z * e13z;
  if (sqr02 < sqr13)
    out.insert(out.end(), {0, 1, 2, 0, 2, 3});
  else
    out.insert(out.end(), {0, 1, 3, 1, 2, 3});
}

// The two coordinate axes the ear clipper works in: dropping the axis the first corner with a
// non-zero turn points along most.
void projection_axes(const int32_t* v, uint32_t n, const float* positions, int axes[2]) {
  axes[0] = 1;
  axes[1] = 2;
  for (uint32_t k = 0; k < n; ++k) {
    const float *a = at(positions, v[k]), *b = at(positions, v[(k + 1) % n]), *c = at(positions, v[(k + 2) % n]);
    float e0x = b[0] - a[0], e0y = b[1] - a[1], e0z = b[2] - a[2];
    float e1x = c[0] - b[0], e1y = c[1] - b[1], e1z = c[2] - b[2];
    float cx = std::fabs(e0y * e1z - e0z * e1y);
    float cy = std::fabs(e0z * e1x - e0x * e1z);
    float cz = std::fabs(e0x * e1y - e0y * e1x);
    const float eps = std::numeric_limits<float>::epsilon();
    if (cx > eps || cy > eps || cz > eps) {
      if (!(cx > cy && cx > cz)) {
        axes[0] = 0;
        if (cz > cx && cz > cy) axes[1] = 1;
      }
      return;
    }
  }
}

// Point in triangle by crossing count (W. R. Franklin's pnpoly), as tinyobjloader tests it.
bool inside(const float* vx, const float* vy, float tx, float ty) {
  bool c = false;
  for (int i = 0, j = 2; i < 3; j = i++)
    if (((vy[i] > ty) != (vy[j] > ty)) && (tx < (vx[j] - vx[i]) * (ty - vy[i]) / (vy[j] - vy[i]) + vx[i])) c = !c;
  return c;
}

void ear_clip(const int32_t* v, uint32_t n, const float* positions, std::vector<uint32_t>& out) {
  int axes[2];
  projection_axes(v, n, positions, axes);
  std::vector<uint32_t> remaining(n);
  for (uint32_t k = 0; k < n; ++k) remaining[k] = k;
  size_t guess = 0, iterations_left = n, previous_size = n;
  while (remaining.size() > 3 && iterations_left > 0) {
    const size_t size = remaining.size();
    if (guess >= size) guess -= size;
    if (previous_size != size) {
      previous_size = size;
      iterations_left = size;
    } else {
      --iterations_left;
    }
    uint32_t ind[3];
    float vx[3], vy[3];
    for (int k = 0; k < 3; ++k) {
      ind[k] = remaining[(guess + k) % size];
      vx[k] = at(positions, v[ind[k]])[axes[0]];
      vy[k] = at(positions, v[ind[k]])[axes[1]];
    }
    float e0x = vx[1] - vx[0], e0y = vy[1] - vy[0];
    float e1x = vx[2] - vx[1], e1y = vy[2] - vy[1];
    float cross = e0x * e1y - e0y * e1x;
    float area = (vx[0] * vy[1] - vy[0] * vx[1]) * 0.5f;
    if (cross * area < 0.0f) {  // a reflex corner (by tinyobjloader's measure)
      guess += 1;
      continue;
    }
    bool overlap = false;
    for (size_t other = 3; other < size && !overlap; ++other) {
      const float* p = at(positions, v[remaining[(guess + other) % size]]);
      overlap = inside(vx, vy, p[axes[0]], p[axes[1]]);
    }
    if (overlap) {
      guess += 1;
      continue;
    }
    out.insert(out.end(), {ind[0], ind[1], ind[2]});
    remaining.erase(remaining.begin() + (long)((guess + 1) % size));
  }
  if (remaining.size() == 3) out.insert(out.end(), {remaining[0], remaining[1], remaining[2]});
}

}  // namespace

void triangulate_polygon(const int32_t* v, uint32_t n, const float* positions, std::vector<uint32_t>& out) {
  if (n == 3) {
    out.insert(out.end(), {0, 1, 2});
  } else if (n == 4) {
    split_quad(v, positions, out);
  } else if (n <= kEarClipMaxCorners) {
    ear_clip(v, n, positions, out);
  } else {
    for (uint32_t k = 1; k + 1 < n; ++k) out.insert(out.end(), {0, k, k + 1});
  }
}

}  // namespace facet
