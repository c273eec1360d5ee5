// Triangle setup: three clip-space vertices inside all clip planes -> a RasterTri (snapped
// fixed-point vertices, edge orientation, pixel bounding box, depth equation), or nothing when
// the triangle is back-facing, has zero area, or covers no pixel centre (no sample point).
#pragma once
#include "kernels/frame/geometry/project.h"
#include "kernels/frame/raster/samples.h"

namespace facet {

enum class SetupResult : uint8_t { Ok, Culled };

// Twice the signed area of a snapped triangle, in (1/256 px)^2, with y pointing down. Negative =
// counter-clockwise in OpenGL's y-up NDC, i.e. front-facing; positive = back-facing.
FACET_HD int64_t area2(int32_t x0, int32_t y0, int32_t x1, int32_t y1, int32_t x2, int32_t y2) {
  return (int64_t)(x1 - x0) * (y2 - y0) - (int64_t)(y1 - y0) * (x2 - x0);
}

// First pixel index whose centre (px + 0.5) is >= v (v in 1/256 px); arithmetic shifts floor.
FACET_HD int32_t first_pixel(int32_t v) { return (v - kSubpixel / 2 + kSubpixel - 1) >> kSubpixelBits; }
// Last pixel index whose centre is <= v.
FACET_HD int32_t last_pixel(int32_t v) { return (v - kSubpixel / 2) >> kSubpixelBits; }

// Setup from three snapped vertices (x, y in 1/256 px, z window depth) for a frame of `samples`
// samples a pixel (samples.h): the box holds every pixel any of whose samples the vertices' box
// holds.
FACET_HD SetupResult setup_snapped(int32_t x0, int32_t y0, float z0, int32_t x1, int32_t y1, float z1, int32_t x2,
                                   int32_t y2, float z2, uint32_t tri, int width, int height, bool cull_backfaces,
                                   RasterTri& t, int samples = 1) {
  // Box first: most triangles of a dense mesh cover no pixel centre, and this test is cheapest.
  // With samples, grown by the pattern's reach. (Testing each sample's own box as well, which
  // culls most of a 20 M mesh's triangles at 4 samples, makes that frame slower: its setup, run
  // by every triangle, is what it pays for; docs/performance.md.)
  const int32_t reach = sample_reach(samples);
  int32_t px0 = maxi(first_pixel(mini(x0, mini(x1, x2)) - reach), 0);
  int32_t py0 = maxi(first_pixel(mini(y0, mini(y1, y2)) - reach), 0);
  int32_t px1 = mini(last_pixel(maxi(x0, maxi(x1, x2)) + reach), width - 1);
  int32_t py1 = mini(last_pixel(maxi(y0, maxi(y1, y2)) + reach), height - 1);
  if (px0 > px1 || py0 > py1) return SetupResult::Culled;

  int64_t a = area2(x0, y0, x1, y1, x2, y2);
  if (a == 0) return SetupResult::Culled;
  if (a > 0 && cull_backfaces) return SetupResult::Culled;  // back-facing
  if (a < 0) {  // swap two vertices so that the edge functions are positive inside
    int32_t tx = x1, ty = y1;
    x1 = x2;
    y1 = y2;
    x2 = tx;
    y2 = ty;
    float tz = z1;
    z1 = z2;
    z2 = tz;
    a = -a;
  }

  t.x[0] = x0;
  t.x[1] = x1;
  t.x[2] = x2;
  t.y[0] = y0;
  t.y[1] = y1;
  t.y[2] = y2;
  t.px0 = px0;
  t.py0 = py0;
  t.px1 = px1;
  t.py1 = py1;
  t.z0 = z0;
  t.dz1 = z1 - z0;
  t.dz2 = z2 - z0;
  t.inv_area = 1.0f / (float)a;
  t.tri = tri;
  return SetupResult::Ok;
}

// Whether a sample point of a kSamples-sample frame (kSamples > 1), at a pixel of t's box, lies in
// the box of t's vertices. When none does, t covers no sample: skipping it is exact. A box grown
// by the pattern's reach (above) holds a pixel for nearly every sub-pixel triangle of a dense
// mesh, most of whose samples all miss it; the CPU backend asks this before rasterizing one (the
// CUDA geometry stage asking it in setup measured slower: docs/performance.md).
template <int kSamples>
FACET_HD bool box_holds_a_sample(const RasterTri& t) {
  const int32_t x0 = mini(t.x[0], mini(t.x[1], t.x[2])), x1 = maxi(t.x[0], maxi(t.x[1], t.x[2]));
  const int32_t y0 = mini(t.y[0], mini(t.y[1], t.y[2])), y1 = maxi(t.y[0], maxi(t.y[1], t.y[2]));
  for (int s = 0; s < kSamples; ++s) {
    const SampleOffset d = sample_offset(kSamples, s);
    const int32_t dx = d.x * kSampleUnit, dy = d.y * kSampleUnit;
    if (maxi(first_pixel(x0 - dx), t.px0) <= mini(last_pixel(x1 - dx), t.px1) &&
        maxi(first_pixel(y0 - dy), t.py0) <= mini(last_pixel(y1 - dy), t.py1))
      return true;
  }
  return false;
}

// Setup from three clip-space vertices inside all clip planes (the clipped pieces).
FACET_HD SetupResult setup_raster_tri(Vec4 c0, Vec4 c1, Vec4 c2, uint32_t tri, int width, int height,
                                      bool cull_backfaces, RasterTri& t, int samples = 1) {
  const SnappedPoint w0 = snap_clip_point(c0, width, height);
  const SnappedPoint w1 = snap_clip_point(c1, width, height);
  const SnappedPoint w2 = snap_clip_point(c2, width, height);
  return setup_snapped(w0.x, w0.y, w0.z, w1.x, w1.y, w1.z, w2.x, w2.y, w2.z, tri, width, height, cull_backfaces, t,
                       samples);
}

}  // namespace facet
