// The CPU half of Renderer::read_outputs: kernels/frame/outputs/frame_outputs.h over every pixel, by rows.
#include "engine/render/frame_outputs.h"

#include "engine/base/parallel.h"

namespace facet {

namespace {
constexpr uint64_t kRowsPerChunk = 8;  // a chunk is thousands of pixels: cheap to hand out
}

void write_frame_outputs_host(const FrameOutputParams& p) {
  parallel_for((uint64_t)p.frame.height, kRowsPerChunk, [&](uint64_t b, uint64_t e, unsigned) {
    for (uint64_t y = b; y < e; ++y)
      for (int x = 0; x < p.frame.width; ++x) write_pixel_outputs(p, x, (int)y);
  });
}

}  // namespace facet
