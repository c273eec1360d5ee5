// The meshlet build's big arrays (meshlets.h) without a zero-filling pass on one thread: a
// std::vector's resize writes every byte on the calling thread, and on a fresh allocation that is
// one page fault each 4 KB (0.7 s a GB on the build machine's core), while the parallel pass
// after it overwrites every byte anyway. Scratch arrays are left uninitialised (their first
// writes, in parallel passes, fault the pages in on every core); the result's vectors have their
// pages faulted in on every core first (madvise MADV_POPULATE_WRITE, Linux 5.14), so that the
// resize is a plain memset (0.05 s a GB). Not huge pages: their first fault may stall on memory
// compaction for seconds. Scratch arrays done with are freed on a thread of their own
// (BackgroundRelease): handing 1 GB of pages back to the kernel takes 0.15-0.25 s on one core.
#pragma once
#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <system_error>
#include <thread>
#include <type_traits>
#include <vector>

#include "engine/parallel.h"

namespace facet {

// n uninitialised Ts (trivial types only): every element must be written before it is read.
template <class T>
std::unique_ptr<T[]> uninitialized_array(size_t n) {
  static_assert(std::is_trivially_default_constructible<T>::value, "left uninitialised");
  return std::unique_ptr<T[]>(new T[n]);
}

// Bytes a parallel_for piece faults in: a few hundred page faults, enough to hide the hand-out.
constexpr uint64_t kFaultPiece = 4u << 20;

// [data, data + bytes) made resident and writable on every core; a kernel without
// MADV_POPULATE_WRITE leaves the pages to fault on first write, as before.
inline void fault_in_on_every_core(void* data, size_t bytes) {
#ifdef MADV_POPULATE_WRITE
  const uintptr_t page = 4096;
  const uintptr_t lo = ((uintptr_t)data + page - 1) & ~(page - 1), hi = ((uintptr_t)data + bytes) & ~(page - 1);
  if (hi <= lo) return;
  parallel_for((hi - lo + kFaultPiece - 1) / kFaultPiece, 1, [&](uint64_t begin, uint64_t end, unsigned) {
    const uintptr_t b = lo + begin * kFaultPiece, e = std::min<uintptr_t>(hi, lo + end * kFaultPiece);
    madvise((void*)b, e - b, MADV_POPULATE_WRITE);  // failure only means faults later
  });
#else
  (void)data;
  (void)bytes;
#endif
}

// v (empty) resized to n value-initialised elements, its pages faulted in on every core first.
template <class T>
void resize_on_every_core(std::vector<T>& v, size_t n) {
  v.reserve(n);
  fault_in_on_every_core(v.data(), n * sizeof(T));
  v.resize(n);
}

// Frees arrays on threads of their own while the build goes on; the destructor waits for them.
class BackgroundRelease {
 public:
  BackgroundRelease() = default;
  BackgroundRelease(const BackgroundRelease&) = delete;
  BackgroundRelease& operator=(const BackgroundRelease&) = delete;
  ~BackgroundRelease() { wait(); }
  // Until every array handed over is freed.
  void wait() {
    for (std::thread& t : m_threads) t.join();
    m_threads.clear();
  }
  template <class T>
  void release(std::unique_ptr<T[]>& array) {
    if (!array) return;
    try {
      m_threads.emplace_back([a = std::move(array)]() mutable { a.reset(); });
    } catch (const std::system_error&) {  // no thread to spare: free it here
      array.reset();
    }
  }

 private:
  std::vector<std::thread> m_threads;
};

}  // namespace facet
