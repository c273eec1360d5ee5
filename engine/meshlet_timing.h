// Wall and CPU time of each step of the meshlet build (meshlets.h), printed to stderr when the
// environment variable FACET_MESHLET_TIMES is set (to anything), with the page faults taken (first
// writes to fresh memory, each a trip into the kernel): what tells the sequential steps
// of a big model's preparation from the parallel ones on a host we only reach now and then.
// Not a profiler: one line a step, nothing kept.
#pragma once
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>

namespace facet {

class MeshletStepTimer {
 public:
  MeshletStepTimer() { restart(); }
  // Prints the time since the last step (or construction) under `step`, then starts the next.
  void step(const char* step) {
    if (enabled()) {
      const double wall = std::chrono::duration<double, std::milli>(Clock::now() - m_wall).count();
      const double cpu = 1e3 * (double)(std::clock() - m_cpu) / CLOCKS_PER_SEC;
      std::fprintf(stderr, "  meshlets %-14s %8.1f ms (%8.1f ms CPU, %7ld page faults)\n", step, wall, cpu,
                   faults() - m_faults);
    }
    restart();
  }

 private:
  using Clock = std::chrono::steady_clock;
  void restart() {
    if (!enabled()) return;
    m_wall = Clock::now();
    m_cpu = std::clock();
    m_faults = faults();
  }
  static long faults() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt;
  }
  static bool enabled() {
    static const bool on = std::getenv("FACET_MESHLET_TIMES") != nullptr;
    return on;
  }
  Clock::time_point m_wall;
  std::clock_t m_cpu = 0;
  long m_faults = 0;
};

}  // namespace facet
