// The step timer the preparation benches share (prepare_bench.cpp, build_bench.cpp): median wall
// and CPU time (all threads, std::clock) of `runs` calls, `setup` run untimed before each. On a
// shared machine the CPU time is the steadier figure.
#pragma once
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

// "wall ms (cpu ms CPU, min cpu ms)", medians of `runs` calls of fn and the least CPU time: on a
// machine shared with other work the least is the figure other processes disturb least.
inline std::string median_wall_and_cpu(
    int runs, const std::function<void()>& fn, const std::function<void()>& setup = [] {}) {
  using Clock = std::chrono::steady_clock;
  std::vector<double> wall, cpu;
  for (int r = 0; r < runs; ++r) {
    setup();
    const Clock::time_point t0 = Clock::now();
    const std::clock_t c0 = std::clock();
    fn();
    cpu.push_back(1e3 * (double)(std::clock() - c0) / CLOCKS_PER_SEC);
    wall.push_back(1e3 * std::chrono::duration<double>(Clock::now() - t0).count());
  }
  std::sort(wall.begin(), wall.end());
  std::sort(cpu.begin(), cpu.end());
  char text[96];
  std::snprintf(text, sizeof text, "%9.1f ms (%8.1f ms CPU, min %8.1f)", wall[wall.size() / 2], cpu[cpu.size() / 2],
                cpu[0]);
  return text;
}
