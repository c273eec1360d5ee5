// The per-sample accept test of alpha-tested cut-outs, as a wrapper around a raster path's visit
// (raster.h's visit_samples calls it for each covered sample): the sample is passed on only where
// cutout_keeps keeps it. With kCutouts false the wrapper is the visit itself, so the raster paths
// of a scene without cut-outs compile to the same code as without this file. Nothing here decides
// the alpha (cutout.h) or writes a key (the wrapped visit does).
#pragma once
#include "kernels/frame/raster/cutout.h"
#include "kernels/frame/raster/raster.h"
#include "kernels/frame/raster/samples.h"

namespace facet {

// Window position in pixels of sample k of pixel (px, py) in a frame of `samples` samples: the
// pixel centre plus the sample's offset (samples.h), exact in float (1/16 px steps).
FACET_HD Vec2 sample_window_position(int samples, int32_t px, int32_t py, int k) {
  const SampleOffset d = sample_offset(samples, k);
  return {(float)px + 0.5f + (float)d.x * (1.0f / 16.0f), (float)py + 0.5f + (float)d.y * (1.0f / 16.0f)};
}

// visit(px, py, k, key) for the samples that the key's triangle keeps; every sample when
// kCutouts is false (no test compiled in).
template <bool kCutouts, class Visit>
struct CutoutVisit {
  const SceneView& scene;  // materials, alpha maps, vertices (cutout_keeps reads them)
  const FrameParams& frame;
  Visit& visit;  // the path's write of a kept sample
  FACET_HD void operator()(int32_t px, int32_t py, int k, uint64_t key) const {
    if (kCutouts) {
      const Vec2 w = sample_window_position(frame.samples, px, py, k);
      if (!cutout_keeps(scene, frame, key_triangle(key), w.x, w.y)) return;
    }
    visit(px, py, k, key);
  }
};

template <bool kCutouts, class Visit>
FACET_HD CutoutVisit<kCutouts, Visit> cutout_visit(const SceneView& scene, const FrameParams& frame, Visit& visit) {
  return {scene, frame, visit};
}

}  // namespace facet
