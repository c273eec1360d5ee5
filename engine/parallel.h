// parallel_for over all hardware threads, for the CPU backend. Chunks are handed out from an
// atomic counter so uneven work (a few huge triangles) still spreads over the cores.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace facet {

// Tests set it to check that results do not depend on the number of threads; 0: all of them.
inline std::atomic<unsigned>& worker_count_override() {
  static std::atomic<unsigned> count{0};
  return count;
}

inline unsigned worker_count() {
  const unsigned forced = worker_count_override().load(std::memory_order_relaxed);
  return forced ? forced : std::max(1u, std::thread::hardware_concurrency());
}

// fn(begin, end, worker) over [0, n) in chunks of `chunk`.
template <class Fn>
void parallel_for(uint64_t n, uint64_t chunk, Fn&& fn) {
  unsigned workers = (unsigned)std::min<uint64_t>(worker_count(), (n + chunk - 1) / chunk);
  if (workers <= 1) {
    if (n) fn(uint64_t{0}, n, 0u);
    return;
  }
  std::atomic<uint64_t> next{0};
  auto work = [&](unsigned w) {
    for (;;) {
      uint64_t b = next.fetch_add(chunk);
      if (b >= n) return;
      fn(b, std::min(n, b + chunk), w);
    }
  };
  std::vector<std::thread> threads;
  for (unsigned w = 1; w < workers; ++w) threads.emplace_back(work, w);
  work(0);
  for (auto& t : threads) t.join();
}

}  // namespace facet
