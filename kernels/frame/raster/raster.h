// Coverage and depth of one pixel against one RasterTri: integer edge functions on snapped
// vertices with the top-left fill rule, so a mesh is watertight (each pixel centre, and each
// sample point of an N-sample frame, on a shared edge belongs to exactly one of the two
// triangles), and the 64-bit visibility key. A frame of N samples (samples.h) keeps N keys a
// pixel, sample-major: N planes of width x height keys, key s of pixel i is vis[s * pixels + i]
// (vis_index below).
#pragma once
#include "kernels/frame/params.h"
#include "kernels/frame/raster/samples.h"

namespace facet {

// Edge function of edge a->b at p: positive on the inside for RasterTri's orientation.
template <class Int>
FACET_HD Int edge_fn(int32_t ax, int32_t ay, int32_t bx, int32_t by, Int px, Int py) {
  return (Int)(bx - ax) * (py - ay) - (Int)(by - ay) * (px - ax);
}

// Top-left rule with y down and clockwise-on-screen triangles: a "top" edge is horizontal and
// runs to the right, a "left" edge runs up. Pixel centres exactly on such an edge are inside.
FACET_HD bool is_top_left(int32_t ax, int32_t ay, int32_t bx, int32_t by) {
  int32_t dx = bx - ax, dy = by - ay;
  return dy < 0 || (dy == 0 && dx > 0);
}

// Edge functions of a triangle, stepped across pixels. e[i] belongs to the edge opposite vertex i,
// so e[i] / (2 * area) is vertex i's screen-space barycentric weight. Int is int64_t in general;
// int32_t gives the same values, exactly, for a triangle that fits_int32 (below) at a pixel
// within 64 px of its box, and costs a third of the instructions.
template <class Int>
struct EdgeSetupT {
  Int e[3];         // values at the first pixel centre, top-left bias already applied
  Int dx[3];        // change per pixel to the right
  Int dy[3];        // change per pixel down
  int32_t bias[3];  // the bias applied: 0 on top-left edges, -1 elsewhere (e - bias is exact)
};
using EdgeSetup = EdgeSetupT<int64_t>;

template <class Int = int64_t>
FACET_HD EdgeSetupT<Int> edge_setup(const RasterTri& t, int32_t px, int32_t py) {
  Int sx = (Int)px * kSubpixel + kSubpixel / 2;
  Int sy = (Int)py * kSubpixel + kSubpixel / 2;
  EdgeSetupT<Int> s;
  for (int i = 0; i < 3; ++i) {
    int a = (i + 1) % 3, b = (i + 2) % 3;
    // Inside iff e > 0, or e == 0 on a top-left edge: fold that into a bias of 1 (integers).
    s.bias[i] = is_top_left(t.x[a], t.y[a], t.x[b], t.y[b]) ? 0 : -1;
    s.e[i] = edge_fn<Int>(t.x[a], t.y[a], t.x[b], t.y[b], sx, sy) + s.bias[i];
    s.dx[i] = -(Int)(t.y[b] - t.y[a]) * kSubpixel;
    s.dy[i] = (Int)(t.x[b] - t.x[a]) * kSubpixel;
  }
  return s;
}

// True when the biased edge values say the pixel centre is covered.
template <class Int>
FACET_HD bool covered(Int e0, Int e1, Int e2) {
  return (e0 | e1 | e2) >= 0;
}

// Window depth at a covered pixel from its exact (unbiased) edge values. Computed from the
// integer edge functions, so every path, host or device, gives the same float.
// The edge values arrive as floats: an integer converts to the same float whatever its width,
// so a 32-bit path (cheaper conversion on the GPU) and a 64-bit path agree bit for bit.
FACET_HD float depth_at(const RasterTri& t, float e1, float e2) {
  float z = t.z0 + (e1 * t.dz1 + e2 * t.dz2) * t.inv_area;
  return clampf(z, 0.0f, 1.0f);
}

// Nearer wins; an exact depth tie goes to the lower triangle index. Depth is in [0, 1], so its
// float bits order like the values.
FACET_HD uint64_t vis_key(float depth, uint32_t tri) {
  union {
    float f;
    uint32_t u;
  } d;
  d.f = depth;
  return ((uint64_t)d.u << 32) | tri;
}
FACET_HD uint32_t key_triangle(uint64_t key) { return (uint32_t)(key & 0xffffffffu); }

// The key of a covered pixel from its biased edge values e1, e2 and the biases b1, b2 that
// edge_setup folded into them: every raster path's one expression.
template <class Int>
FACET_HD uint64_t edge_key(const RasterTri& t, Int e1, Int e2, int32_t b1, int32_t b2) {
  return vis_key(depth_at(t, (float)(e1 - b1), (float)(e2 - b2)), t.tri);
}

// Frame tags: depth in [0, 1] leaves the top two bits of a key free. Frames count the tag down
// 3, 2, 1, 0, so a key left by an earlier frame is larger than any key of the current one and
// loses every atomicMin: the buffer needs clearing only every fourth frame (before tag 3).
FACET_HD uint64_t tag_key(uint64_t key, uint32_t tag) { return key | ((uint64_t)tag << 62); }
// True when `key` was written by the frame whose tag is `tag` (not empty, not stale).
FACET_HD bool key_current(uint64_t key, uint32_t tag) { return key != kEmptyKey && (uint32_t)(key >> 62) == tag; }
// The triangle a pixel shows in frame `tag`, or ~0u for none (what read_triangle_ids reports).
FACET_HD uint32_t visible_triangle(uint64_t key, uint32_t tag) {
  return key_current(key, tag) ? key_triangle(key) : ~0u;
}

// Pixels in a RasterTri's box: what decides its size class.
FACET_HD int64_t box_pixels(const RasterTri& t) { return (int64_t)(t.px1 - t.px0 + 1) * (t.py1 - t.py0 + 1); }

// False when no pixel centre of [x0..x1] x [y0..y1] can be covered: some edge is negative at
// the rectangle's corner where it is largest. Exact, so skipping such a rectangle loses nothing.
// With `reach` (sample_reach, 1/256 px) no sample point within reach of a centre along x and y
// can be covered either: each edge gets its largest change over that square added (a bound).
FACET_HD bool rect_may_cover(const RasterTri& t, int32_t x0, int32_t y0, int32_t x1, int32_t y1, int32_t reach = 0) {
  EdgeSetup s = edge_setup(t, x0, y0);
  for (int i = 0; i < 3; ++i) {
    const int64_t slack =
        (s.dx[i] < 0 ? -s.dx[i] : s.dx[i]) / kSubpixel * reach + (s.dy[i] < 0 ? -s.dy[i] : s.dy[i]) / kSubpixel * reach;
    int64_t e = s.e[i] + slack + (s.dx[i] > 0 ? s.dx[i] * (x1 - x0) : 0) + (s.dy[i] > 0 ? s.dy[i] * (y1 - y0) : 0);
    if (e < 0) return false;
  }
  return true;
}

// Where key s of pixel i (= py * width + px) lives: plane s of the frame's `pixels` keys. Sample-
// major rather than a pixel's keys side by side: a warp's atomics for one sample of 32 neighbouring
// pixels then land in 8 sectors, as a 1-sample frame's do, instead of 32 (one a pixel), and
// resolve reads N coalesced planes.
FACET_HD size_t vis_slot(size_t pixels, size_t i, int s) { return (size_t)s * pixels + i; }
FACET_HD size_t vis_index(const FrameParams& fp, int32_t px, int32_t py, int s) {
  return vis_slot((size_t)fp.width * (size_t)fp.height, (size_t)py * (size_t)fp.width + (size_t)px, s);
}

// Sample k of pixel (px, py) from its biased edge values f0..f2: visited where covered. The one
// place every raster path, host or device, visits a sample (a cut-out test, kernels/frame/raster/cutout_visit.h,
// wraps `visit`).
template <class Int, class Visit>
FACET_HD void visit_sample(const RasterTri& t, int32_t px, int32_t py, int k, Int f0, Int f1, Int f2, int32_t b1,
                           int32_t b2, Visit& visit) {
  if (covered(f0, f1, f2)) visit(px, py, k, edge_key(t, f1, f2, b1, b2));
}

// The samples of one pixel from its centre's biased edge values e0..e2: visit(px, py, s, key) for
// each covered sample s, in sample order. One sample: the centre, exactly as a 1-sample frame
// does.
// More: first a test that no sample can be covered (each edge plus its largest sample offset),
// which is exact and skips the pixels of the box the triangle misses with three adds.
template <class Int, int kSamples, class Visit>
FACET_HD void visit_samples(const RasterTri& t, const SampleEdges<Int, kSamples>& so, const Int (&omax)[3], int32_t px,
                            int32_t py, Int e0, Int e1, Int e2, int32_t b1, int32_t b2, Visit& visit) {
  if (kSamples == 1) return visit_sample(t, px, py, 0, e0, e1, e2, b1, b2, visit);
  if (!covered(e0 + omax[0], e1 + omax[1], e2 + omax[2])) return;
  FACET_NO_UNROLL
  for (int k = 0; k < kSamples; ++k)
    visit_sample(t, px, py, k, e0 + so.at(k, 0), e1 + so.at(k, 1), e2 + so.at(k, 2), b1, b2, visit);
}

// visit_samples with each sample's edge offsets set up beforehand (o[k][i] = so.at(k, i)) and
// the sample loop unrolled, for the paths that have the registers to keep them (the warp raster):
// recomputing the offsets at every pixel would be most of that loop's instructions.
// The same visits with the same keys in the same order.
template <class Int, int kSamples, class Visit>
FACET_HD void visit_samples_unrolled(const RasterTri& t, const Int (&o)[kSamples][3], const Int (&omax)[3], int32_t px,
                                     int32_t py, Int e0, Int e1, Int e2, int32_t b1, int32_t b2, Visit& visit) {
  if (kSamples > 1 && !covered(e0 + omax[0], e1 + omax[1], e2 + omax[2])) return;
  FACET_UNROLL
  for (int k = 0; k < kSamples; ++k)
    visit_sample(t, px, py, k, e0 + o[k][0], e1 + o[k][1], e2 + o[k][2], b1, b2, visit);
}

// Each sample's edge offsets, o[k][i] = so.at(k, i) (zero at one sample).
template <class Int, int kSamples>
FACET_HD void sample_offsets(const SampleEdges<Int, kSamples>& so, Int (&o)[kSamples][3]) {
  FACET_UNROLL
  for (int k = 0; k < kSamples; ++k) FACET_UNROLL
  for (int i = 0; i < 3; ++i) o[k][i] = so.at(k, i);
}

// The largest sample offset of each edge (what visit_samples' early test adds).
template <class Int, int kSamples>
FACET_HD void max_sample_offsets(const SampleEdges<Int, kSamples>& so, Int (&omax)[3]) {
  FACET_UNROLL
  for (int i = 0; i < 3; ++i) {
    omax[i] = so.at(0, i);
    FACET_UNROLL
    for (int k = 1; k < kSamples; ++k) omax[i] = so.at(k, i) > omax[i] ? so.at(k, i) : omax[i];
  }
}

// The stepping loop, in Int arithmetic: int64 in general, int32 where the values provably fit.
// Every sample of a pixel is tested against the same stepped centre values.
template <int kSamples, class Int, class Visit>
FACET_HD void raster_steps(const RasterTri& t, const EdgeSetupT<Int>& s, int32_t px0, int32_t py0, int32_t px1,
                           int32_t py1, Visit& visit) {
  const SampleEdges<Int, kSamples> so = sample_edges<Int, kSamples>(s.dx, s.dy);
  Int omax[3];
  max_sample_offsets(so, omax);
  Int r0 = s.e[0], r1 = s.e[1], r2 = s.e[2];
  const Int dx0 = s.dx[0], dx1 = s.dx[1], dx2 = s.dx[2];
  const Int dy0 = s.dy[0], dy1 = s.dy[1], dy2 = s.dy[2];
  const int32_t b1 = s.bias[1], b2 = s.bias[2];
  for (int32_t py = py0; py <= py1; ++py) {
    Int e0 = r0, e1 = r1, e2 = r2;
    for (int32_t px = px0; px <= px1; ++px) {
      visit_samples<Int, kSamples>(t, so, omax, px, py, e0, e1, e2, b1, b2, visit);
      e0 += dx0;
      e1 += dx1;
      e2 += dx2;
    }
    r0 += dy0;
    r1 += dy1;
    r2 += dy2;
  }
}

// True when t's vertices span under 60 px each way. Then every edge value at a point within 64 px
// of the vertices' box is below 2 * 60 * (60 + 64) * 256^2 < 2^30 in magnitude, so 32-bit
// integers step it exactly (one step past the last pixel included). The points an N-sample frame
// tests stay inside that: its pixel box reaches under 1 px past the vertices' (sample_reach), a
// sample lies under half a pixel from its centre, and no path steps more than 32 px past the box.
FACET_HD bool fits_int32(const RasterTri& t) {
  const int32_t kSpan = 60 * kSubpixel;
  int32_t ex = maxi(t.x[0], maxi(t.x[1], t.x[2])) - mini(t.x[0], mini(t.x[1], t.x[2]));
  int32_t ey = maxi(t.y[0], maxi(t.y[1], t.y[2])) - mini(t.y[0], mini(t.y[1], t.y[2]));
  return ex < kSpan && ey < kSpan;
}

// Visits every covered sample of t inside [px0..px1] x [py0..py1] (a sub-rectangle of t's box):
// visit(px, py, sample, key). Used by the CPU backend and the one-thread-per-triangle CUDA path.
template <int kSamples, class Visit>
FACET_HD void raster_rect_samples(const RasterTri& t, int32_t px0, int32_t py0, int32_t px1, int32_t py1,
                                  Visit&& visit) {
  // The vertices' extent, not the pixel box (which is clipped to the frame), bounds the values.
  if (fits_int32(t))
    raster_steps<kSamples>(t, edge_setup<int32_t>(t, px0, py0), px0, py0, px1, py1, visit);
  else
    raster_steps<kSamples>(t, edge_setup<int64_t>(t, px0, py0), px0, py0, px1, py1, visit);
}

// The samples of the single pixel (px, py) in 64-bit arithmetic (the tile raster's fallback).
template <int kSamples, class Visit>
FACET_HD void raster_pixel_samples(const RasterTri& t, int32_t px, int32_t py, Visit&& visit) {
  const EdgeSetup s = edge_setup(t, px, py);
  const SampleEdges<int64_t, kSamples> so = sample_edges<int64_t, kSamples>(s.dx, s.dy);
  int64_t omax[3];
  max_sample_offsets(so, omax);
  visit_samples<int64_t, kSamples>(t, so, omax, px, py, s.e[0], s.e[1], s.e[2], s.bias[1], s.bias[2], visit);
}

// raster_rect_samples for a frame of `samples` (1, 4 or 8) samples: picked once a triangle,
// outside the loops.
template <class Visit>
FACET_HD void raster_rect_n(const RasterTri& t, int samples, int32_t px0, int32_t py0, int32_t px1, int32_t py1,
                            Visit&& visit) {
  if (samples == 4)
    raster_rect_samples<4>(t, px0, py0, px1, py1, visit);
  else if (samples == 8)
    raster_rect_samples<8>(t, px0, py0, px1, py1, visit);
  else
    raster_rect_samples<1>(t, px0, py0, px1, py1, visit);
}

// One sample a pixel (the pixel centre): visit(px, py, key).
template <class Visit>
FACET_HD void raster_rect(const RasterTri& t, int32_t px0, int32_t py0, int32_t px1, int32_t py1, Visit&& visit) {
  raster_rect_samples<1>(t, px0, py0, px1, py1, [&](int32_t x, int32_t y, int, uint64_t key) { visit(x, y, key); });
}

// The nearest of a pixel's n keys: with frame tags (above) the current frame's nearest sample
// when it has one, so what a pixel "shows" for ids, depth, pick and the grid. One key: itself.
FACET_HD uint64_t nearest_key(const uint64_t* keys, int n) {
  uint64_t k = keys[0];
  for (int s = 1; s < n; ++s) k = keys[s] < k ? keys[s] : k;
  return k;
}
// The same for pixel i of a visibility buffer of `pixels` pixels and n samples (vis_slot).
FACET_HD uint64_t nearest_pixel_key(const uint64_t* vis, size_t pixels, size_t i, int n) {
  uint64_t k = vis[i];
  for (int s = 1; s < n; ++s) k = vis[vis_slot(pixels, i, s)] < k ? vis[vis_slot(pixels, i, s)] : k;
  return k;
}
// Pixel i's n keys into keys[0..n).
FACET_HD void pixel_keys(const uint64_t* vis, size_t pixels, size_t i, int n, uint64_t* keys) {
  for (int s = 0; s < n; ++s) keys[s] = vis[vis_slot(pixels, i, s)];
}

}  // namespace facet
