// The measuring loop of `facet bench`, the same for every backend: warm-up frames, then timed
// frames, each drawn and finished, the camera turning about the model's vertical axis when asked.
// It collects stage and frame medians; choosing scenes, printing tables and JSON are
// bench_command.cpp's.
#pragma once
#include <vector>

#include "engine/render/renderer.h"

namespace facet {

struct MeasureParams {
  int width = 0, height = 0;  // frame size in pixels
  int frames = 1;             // timed frames (after the warm-up)
  int warmup = 5;             // untimed frames first: uploads, allocations, caches settle
  float orbit_deg = 0.0f;     // the camera turns this much a frame about the vertical axis
                              //   through the model's centre (0: one fixed camera)
  RenderOptions settings;
};

struct Measurement {
  double clear = 0, geometry = 0, resolve = 0;  // median stage times, ms (renderer.h StageTimes)
  double frame = 0;                             // median whole-frame time, ms
  FrameStats last;                              // the last frame's statistics
};

// `camera` turned by `degrees` about the +Y axis through `centre` (eye moves, target stays).
Camera orbit_camera(const Camera& camera, const Vec3& centre, float degrees);

// Draws p.warmup + p.frames frames of the renderer's scene (bounds `bounds`) from `camera`,
// frame i turned by i * p.orbit_deg, and returns the medians of the timed ones.
Measurement measure_frames(Renderer& renderer, const Camera& camera, const Bounds& bounds, const MeasureParams& p);

// The median of `v` (NaN when empty).
double median(std::vector<double> v);

}  // namespace facet
