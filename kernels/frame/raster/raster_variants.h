// The one place a frame's sample count and cut-out test pick a raster kernel's compiled variant.
// Every raster stage (geometry, warp raster, tile raster) keeps a kernel per sample count (1, 4,
// 8) and per cut-out test, so that the one-sample kernel without cut-outs compiles exactly as
// without anti-aliasing and cut-outs (the 4x and 8x loops and the alpha lookups would share its
// registers). Host code only: it chooses a launch.
#pragma once
#include <type_traits>

#include "kernels/frame/stages.h"

namespace facet {

// launch(samples, cutouts) with std::integral_constant arguments for the frame's sample count and
// the scene's cut-out test, so that a generic lambda can name the kernel template
// (`kernel<decltype(samples)::value, decltype(cutouts)::value>`).
template <class Launch>
void launch_raster_variant(const RasterStageParams& p, Launch&& launch) {
  auto with_samples = [&](auto cutouts) {
    if (p.frame.samples == 4)
      launch(std::integral_constant<int, 4>{}, cutouts);
    else if (p.frame.samples == 8)
      launch(std::integral_constant<int, 8>{}, cutouts);
    else
      launch(std::integral_constant<int, 1>{}, cutouts);
  };
  if (p.scene.has_cutouts)
    with_samples(std::true_type{});
  else
    with_samples(std::false_type{});
}

}  // namespace facet
