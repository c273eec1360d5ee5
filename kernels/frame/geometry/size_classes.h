// The size classes of rasterization, decided per RasterTri after setup:
//   small  (box <= small_pixels: kSmallTriPixels, or fewer where the frame's plan says so,
//           engine/render/frame_plan.h):            one thread, right after setup (dense meshes: most);
//   medium (larger, under 60 px a side, at most kMediumBoxPixels pixels):
//                                            one warp over the whole box, 32-bit stepping;
//   large  (the rest):                       cut into kTileSide x kTileSide tiles, a warp each.
// With N > 1 samples a medium box holds at most kMediumBoxSampledPixels, larger ones are large:
// a warp's pixels each cost N sample tests and atomics.
#pragma once
#include "kernels/frame/raster/raster.h"
#include "kernels/frame/tuning.h"

namespace facet {

enum class SizeClass : uint8_t { Small, Medium, Large };

FACET_HD SizeClass size_class(const RasterTri& t, int samples = 1, int small_pixels = kSmallTriPixels) {
  const int64_t pixels = box_pixels(t);
  if (pixels <= small_pixels) return SizeClass::Small;
  if (!fits_int32(t)) return SizeClass::Large;
  return pixels <= (samples == 1 ? kMediumBoxPixels : kMediumBoxSampledPixels) ? SizeClass::Medium : SizeClass::Large;
}

// Tiles of kTileSide pixels a RasterTri's box touches.
FACET_HD uint32_t tile_count(const RasterTri& t) {
  return (uint32_t)(t.px1 / kTileSide - t.px0 / kTileSide + 1) * (uint32_t)(t.py1 / kTileSide - t.py0 / kTileSide + 1);
}

}  // namespace facet
