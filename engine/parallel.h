// parallel_for over all cores, for the CPU backend and the loader's passes. The threads are
// oneTBB's (libtbb-dev): a pool started once and kept, where starting threads for every pass cost
// a CPU frame four thread launches and joins. Ranges are split down to `chunk` items and handed
// out by work stealing, so uneven work (a few huge triangles) still spreads over the cores.
#pragma once
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <cstdint>

namespace facet {

// Workers a pass may run on; each call's `worker` argument is below this.
inline unsigned worker_count() { return (unsigned)tbb::this_task_arena::max_concurrency(); }

// fn(begin, end, worker) over [0, n) in pieces of at most `chunk` (at least chunk / 2 where n
// allows), `worker` the calling thread's index in [0, worker_count()): per-worker accumulators
// need no lock.
template <class Fn>
void parallel_for(uint64_t n, uint64_t chunk, Fn&& fn) {
  if (n == 0) return;
  tbb::parallel_for(
      tbb::blocked_range<uint64_t>(0, n, chunk == 0 ? 1 : chunk),
      [&](const tbb::blocked_range<uint64_t>& r) {
        fn(r.begin(), r.end(), (unsigned)tbb::this_task_arena::current_thread_index());
      },
      tbb::simple_partitioner());
}

}  // namespace facet
