// How the OpenGL reference's frames are timed (GlReference::time_frames, `facet bench`): by the
// driver's timer queries, or by the wall clock on a software rasterizer.
#pragma once
#include <string>

namespace facet {

// A hardware driver's GL_TIME_ELAPSED queries measure the GPU's own
// work. A software rasterizer's need not cover its rasterization, which runs on its own threads
// when it flushes: llvmpipe (Mesa 22.3) reported 1.3 ms for 1080p frames of a 200 K-triangle
// sphere whose draw + glFinish took 250-430 ms. There the wall clock around the draw and glFinish
// is the frame's cost.
enum class GlClock {
  TimerQueries,  // GL_TIME_ELAPSED around each frame, frames queued back to back
  WallClock,     // std::chrono::steady_clock around each frame's draw and glFinish
};

// The clock for a driver by its GL_RENDERER string: WallClock for Mesa's software rasterizers
// (llvmpipe, softpipe, swrast), TimerQueries for anything else.
GlClock gl_clock_for_renderer(const std::string& gl_renderer);
// "GPU timer queries" or "the wall clock around draw + glFinish (software rasterizer)", for output.
const char* gl_clock_name(GlClock clock);

}  // namespace facet
