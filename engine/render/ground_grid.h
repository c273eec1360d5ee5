// The ground grid's host side: its parameters from the camera, the frame and the model's bounds
// (shared by both backends, so they draw the same grid), and the CPU backend's pass over a frame.
// The per-pixel math is kernels/frame/effects/ground_grid.h; the CUDA pass is kernels/frame/effects/ground_grid.cu.
#pragma once
#include "engine/render/camera.h"
#include "kernels/frame/effects/ground_grid.h"

namespace facet {

// The grid on the plane under `bounds` (its bottom, y = min.y), centred below the model, with a
// power-of-ten spacing giving about ten to a hundred cells across the model, fading out at
// kGridFadeRadii model radii. `fp` is the frame as drawn (its view-projection, size and tag).
GridParams make_grid_params(const Camera& camera, const FrameParams& fp, const Bounds& bounds);

// Blends the grid over `rgba` (fp.width x fp.height) where the plane is nearer than `vis`.
void draw_ground_grid_cpu(const GridParams& g, const uint64_t* vis, Rgba8* rgba);

}  // namespace facet
