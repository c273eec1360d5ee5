// Wall, user and system CPU time of each step of a long load stage (the meshlet build, a format's
// body, the scene's finish), printed to stderr when the environment variable FACET_STEP_TIMES is
// set (to anything), with the page faults taken (first writes to fresh memory, each a trip into
// the kernel): what tells the sequential steps of a big model's load from the parallel ones, and
// work from page handling, on a host we only reach now and then and that has no profiler.
// Not a profiler: one line a step, nothing kept.
#pragma once
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "engine/base/platform.h"

namespace facet {

class StepTimer {
 public:
  // `stage`: the prefix of each line ("meshlets", "ply", "finish").
  explicit StepTimer(const char* stage) : m_stage(stage) { restart(); }
  // Prints the time since the last step (or construction) under `step`, then starts the next.
  void step(const char* step) {
    if (enabled()) {
      const double wall = std::chrono::duration<double, std::milli>(Clock::now() - m_wall).count();
      const platform::CpuTimes now = platform::process_cpu_times();
      std::fprintf(stderr, "  %-8s %-14s %8.1f ms (%8.1f ms user, %7.1f ms system, %7ld page faults)\n", m_stage, step,
                   wall, now.user_ms - m_usage.user_ms, now.system_ms - m_usage.system_ms,
                   now.page_faults - m_usage.page_faults);
    }
    restart();
  }

 private:
  using Clock = std::chrono::steady_clock;
  void restart() {
    if (!enabled()) return;
    m_wall = Clock::now();
    m_usage = platform::process_cpu_times();
  }
  static bool enabled() {
    static const bool on = std::getenv("FACET_STEP_TIMES") != nullptr;
    return on;
  }
  const char* m_stage;
  Clock::time_point m_wall;
  platform::CpuTimes m_usage;
};

}  // namespace facet
