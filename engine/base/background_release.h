// Big arrays freed on threads of their own while the caller goes on: handing gigabytes of pages
// back to the kernel takes one core a noticeable time (docs/performance.md), which the load would
// otherwise wait for. It does not free anything faster, only elsewhere; the destructor waits for
// the threads.
#pragma once
#include <memory>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

namespace facet {

class BackgroundRelease {
 public:
  BackgroundRelease() = default;
  BackgroundRelease(const BackgroundRelease&) = delete;
  BackgroundRelease& operator=(const BackgroundRelease&) = delete;
  ~BackgroundRelease() { wait(); }
  // Until every array and object handed over is freed.
  void wait() {
    for (std::thread& t : m_threads) t.join();
    m_threads.clear();
  }
  // Frees `array` (left null) on a thread of its own.
  template <class T>
  void release(std::unique_ptr<T[]>& array) {
    if (!array) return;
    run([a = std::move(array)]() mutable { a.reset(); });
  }
  // Destroys `object` (a struct of big vectors; left default-constructed) on a thread of its own.
  template <class T>
  void release_object(T& object) {
    run([o = std::move(object)]() mutable { T gone = std::move(o); });
    object = T();
  }

 private:
  template <class F>
  void run(F&& free_it) {
    try {
      m_threads.emplace_back(std::forward<F>(free_it));
    } catch (const std::system_error&) {  // no thread to spare: free it here
      free_it();
    }
  }
  std::vector<std::thread> m_threads;
};

}  // namespace facet
