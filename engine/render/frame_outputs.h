// What a frame gives besides its RGBA8 colour, for callers that want per-pixel data (the Python
// module, `facet render --depth/--ids`): where Renderer::read_outputs writes each output, and
// the host loop both backends' math is shared with (kernels/frame/outputs/frame_outputs.h). No file writing
// here (engine/render/output_files.h does that).
#pragma once
#include <cstdint>

#include "kernels/frame/outputs/frame_outputs.h"

namespace facet {

// Destinations of the last frame's outputs, each [height][width] (row 0 = top) or null when not
// wanted. Host memory, or, with on_device, memory of the current CUDA device.
struct FrameOutputs {
  Rgba8* color = nullptr;          // RGBA8, what read_rgba gives
  float* depth = nullptr;          // distance from the eye to the visible surface along the
                                   //   pixel centre's ray, world units; +inf where no triangle
  int32_t* triangle_id = nullptr;  // scene triangle index; -1 where no triangle
  float* barycentrics = nullptr;   // [.][.][3] perspective-correct weights of the visible
                                   //   triangle's vertices 0, 1, 2; zeros where no triangle
  bool on_device = false;          // the pointers are device memory (CUDA backend only)
};

// The outputs other than colour of every pixel, on all cores; p's pointers are host memory.
void write_frame_outputs_host(const FrameOutputParams& p);

}  // namespace facet
