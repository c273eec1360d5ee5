// How the 32 lanes of a warp share the pixels of one triangle. Two shapes of work:
// - medium triangles (size_classes.h: a box of a few hundred pixels): the warp walks the whole box in
//   blocks of 32 pixels shaped to the box (32x1 for wide boxes down to 4x8 for narrow ones), in
//   32-bit integers, with no binning step;
// - large triangles: the warp covers one kTileSide x kTileSide tile, two pixels a lane.
// Written per lane so that the CPU tests can run all 32 lanes and compare with raster_rect.
#pragma once
#include "kernels/frame/geometry/size_classes.h"
#include "kernels/frame/raster/raster.h"

namespace facet {

// Lane `lane`'s pixels of t's box; over lanes 0..31 exactly the samples raster_rect_samples
// visits: visit(px, py, sample, key). Requires fits_int32(t).
template <int kSamples, class Visit>
FACET_HD void raster_box_lane_samples(const RasterTri& t, int lane, Visit&& visit) {
  const int w = t.px1 - t.px0 + 1, h = t.py1 - t.py0 + 1;
  const int bw_log = w > 16 ? 5 : w > 8 ? 4 : w > 4 ? 3 : 2;  // block width 32, 16, 8 or 4
  const int bw = 1 << bw_log, bh = 32 >> bw_log;
  const int lx = lane & (bw - 1), ly = lane >> bw_log;
  const EdgeSetupT<int32_t> s = edge_setup<int32_t>(t, t.px0 + lx, t.py0 + ly);
  const SampleEdges<int32_t, kSamples> so = sample_edges<int32_t, kSamples>(s.dx, s.dy);
  int32_t omax[3];
  max_sample_offsets(so, omax);
  int32_t o[kSamples][3];  // each sample's edge offsets, set up once a lane (sample_offsets)
  sample_offsets(so, o);
  int32_t r0 = s.e[0], r1 = s.e[1], r2 = s.e[2];
  const int32_t sx0 = s.dx[0] * bw, sx1 = s.dx[1] * bw, sx2 = s.dx[2] * bw;
  const int32_t sy0 = s.dy[0] * bh, sy1 = s.dy[1] * bh, sy2 = s.dy[2] * bh;
  const int32_t b1 = s.bias[1], b2 = s.bias[2];
  for (int y = ly; y < h; y += bh) {
    int32_t e0 = r0, e1 = r1, e2 = r2;
    for (int x = lx; x < w; x += bw) {
      visit_samples_unrolled<int32_t, kSamples>(t, o, omax, t.px0 + x, t.py0 + y, e0, e1, e2, b1, b2, visit);
      e0 += sx0;
      e1 += sx1;
      e2 += sx2;
    }
    r0 += sy0;
    r1 += sy1;
    r2 += sy2;
  }
}

// Lane `lane`'s samples of t over the tile whose top-left pixel is (x0, y0): pixel
// (lane % kTileSide, lane / kTileSide) and the one 32 / kTileSide rows below it. In Int
// arithmetic: 32-bit where t fits_int32 (a tile lies inside t's box, and the stepping ends under
// kTileSide px past it), 64-bit otherwise. Each sample's edge values are set up once a lane and
// stepped to the second pixel, in registers (the sample loop unrolled): a large triangle's sample
// offsets recomputed at every pixel would be most of this kernel's instructions in 64-bit. The
// same values as visit_samples, so the same keys in the same order.
template <int kSamples, class Int, class Visit>
FACET_HD void raster_tile_lane_steps(const RasterTri& t, int32_t px, int32_t py, Visit& visit) {
  constexpr int kRows = 32 / kTileSide;
  const EdgeSetupT<Int> s = edge_setup<Int>(t, px, py);
  const SampleEdges<Int, kSamples> so = sample_edges<Int, kSamples>(s.dx, s.dy);
  Int f[kSamples][3];  // the biased edge values of each sample of the lane's pixel
  FACET_UNROLL
  for (int k = 0; k < kSamples; ++k) FACET_UNROLL
  for (int i = 0; i < 3; ++i) f[k][i] = s.e[i] + so.at(k, i);
  for (int r = 0; r < kTileSide / kRows; ++r, py += kRows) {
    if (py >= t.py0 && py <= t.py1) {
      FACET_UNROLL
      for (int k = 0; k < kSamples; ++k)
        visit_sample(t, px, py, k, f[k][0], f[k][1], f[k][2], s.bias[1], s.bias[2], visit);
    }
    FACET_UNROLL
    for (int k = 0; k < kSamples; ++k) FACET_UNROLL
    for (int i = 0; i < 3; ++i) f[k][i] += s.dy[i] * kRows;
  }
}
template <int kSamples, class Visit>
FACET_HD void raster_tile_lane_samples(const RasterTri& t, int32_t x0, int32_t y0, int lane, Visit&& visit) {
  const int32_t px = x0 + lane % kTileSide;
  const int32_t py = y0 + lane / kTileSide;
  if (px < t.px0 || px > t.px1) return;
  if (fits_int32(t))
    raster_tile_lane_steps<kSamples, int32_t>(t, px, py, visit);
  else
    raster_tile_lane_steps<kSamples, int64_t>(t, px, py, visit);
}

// One sample a pixel: visit(px, py, key).
template <class Visit>
FACET_HD void raster_box_lane(const RasterTri& t, int lane, Visit&& visit) {
  raster_box_lane_samples<1>(t, lane, [&](int32_t x, int32_t y, int, uint64_t key) { visit(x, y, key); });
}
template <class Visit>
FACET_HD void raster_tile_lane(const RasterTri& t, int32_t x0, int32_t y0, int lane, Visit&& visit) {
  raster_tile_lane_samples<1>(t, x0, y0, lane, [&](int32_t x, int32_t y, int, uint64_t key) { visit(x, y, key); });
}

}  // namespace facet
