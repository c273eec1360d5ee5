#include "app/gl/gl_clock.h"

namespace facet {

GlClock gl_clock_for_renderer(const std::string& gl_renderer) {
  for (const char* software : {"llvmpipe", "softpipe", "swrast"})
    if (gl_renderer.find(software) != std::string::npos) return GlClock::WallClock;
  return GlClock::TimerQueries;
}

const char* gl_clock_name(GlClock clock) {
  return clock == GlClock::WallClock ? "the wall clock around draw + glFinish (software rasterizer)"
                                     : "GPU timer queries";
}

}  // namespace facet
