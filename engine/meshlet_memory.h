// The meshlet build's memory handling (meshlets.h): its scratch arrays are left uninitialised and
// its result's vectors faulted in on every core before their resize (big_array.h, which this
// header brings in), and scratch arrays done with are freed on a thread of their own
// (BackgroundRelease): handing 1 GB of pages back to the kernel takes 0.15-0.25 s on one core.
#pragma once
#include <memory>
#include <system_error>
#include <thread>
#include <vector>

#include "engine/big_array.h"  // uninitialized_array, resize_on_every_core

namespace facet {

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
