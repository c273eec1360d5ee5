// parallel_for over all cores, for the CPU backend and the loader's passes. The threads are
// oneTBB's (libtbb-dev): a pool started once and kept, where starting threads for every pass cost
// a CPU frame four thread launches and joins. Ranges are split down to `chunk` items and handed
// out by work stealing, so uneven work (a few huge triangles) still spreads over the cores.
#pragma once
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <atomic>
#include <cstdint>

namespace facet {

// Tests set it to check that results do not depend on the number of threads; 0: all of them.
inline std::atomic<unsigned>& worker_count_override() {
  static std::atomic<unsigned> count{0};
  return count;
}

// Workers a pass may run on; each call's `worker` argument is below this.
inline unsigned worker_count() {
  const unsigned forced = worker_count_override().load(std::memory_order_relaxed);
  return forced ? forced : (unsigned)tbb::this_task_arena::max_concurrency();
}

// fn(begin, end, worker) over [0, n) in pieces of at most `chunk` (at least chunk / 2 where n
// allows; piece boundaries are not multiples of chunk), `worker` the running thread's index in
// [0, worker_count()): per-worker accumulators need no lock. Worker 0 is the calling thread,
// which works too: each calling thread has an arena of its own, whose reserved first slot it
// takes, so a progress callback made by worker 0 runs where the caller expects it.
template <class Fn>
void parallel_for(uint64_t n, uint64_t chunk, Fn&& fn) {
  if (n == 0) return;
  auto run = [&] {
    tbb::parallel_for(
        tbb::blocked_range<uint64_t>(0, n, chunk == 0 ? 1 : chunk),
        [&](const tbb::blocked_range<uint64_t>& r) {
          fn(r.begin(), r.end(), (unsigned)tbb::this_task_arena::current_thread_index());
        },
        tbb::simple_partitioner());
  };
  const unsigned forced = worker_count_override().load(std::memory_order_relaxed);
  if (forced != 0) {
    tbb::task_arena arena((int)forced);
    arena.execute(run);
    return;
  }
  thread_local tbb::task_arena arena(tbb::this_task_arena::max_concurrency());
  arena.execute(run);
}

}  // namespace facet
