// Big arrays for the loader's parallel passes, without the zero-fill on one thread that
// std::vector(n) and resize(n) do (one core writes every byte, even with the pages in place: for
// gigabytes a long serial step; figures in docs/performance.md). Three tools:
//  - BigVector<T>: a std::vector whose resize(n) and BigVector(n) leave new elements of a trivial
//    type unwritten (an allocator that default-initialises), for the scene's and the meshlets'
//    arrays. Whoever grows one writes every new element, or uses resize_on_every_core.
//  - uninitialized_array<T>(n): an array of a trivial type left unwritten, for intermediates the
//    next parallel pass writes whole: their pages are first touched on every core.
//  - resize_on_every_core(v, n, value): v grown to n, the new elements set to value on every core
//    (for a BigVector: the fill itself is spread, and first touches its pages on every core; for a
//    std::vector, whose fill cannot be skipped, the pages are faulted in on every core first
//    (platform::populate_for_writing), so that the one-thread fill runs at memory speed).
#pragma once
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "engine/base/big_vector.h"
#include "engine/base/parallel.h"
#include "engine/base/platform.h"

namespace facet {

// Bytes of pages one parallel_for item faults in: large enough that the calls cost nothing,
// small enough to spread a 100 MB array over 16 cores.
constexpr size_t kFaultPieceBytes = size_t(4) << 20;
// Arrays below this are resized as usual: faulting them on one core takes under a millisecond.
constexpr size_t kFaultMinBytes = size_t(8) << 20;

template <class T>
std::unique_ptr<T[]> uninitialized_array(size_t n) {
  static_assert(std::is_trivially_default_constructible<T>::value, "left unwritten: a trivial type only");
  return std::unique_ptr<T[]>(new T[n]);
}

// Faults in the whole pages of [data, data + bytes) for writing, on every core.
inline void fault_in_on_every_core(void* data, size_t bytes) {
  const uintptr_t page = 4096, begin = ((uintptr_t)data + page - 1) & ~(page - 1);
  const uintptr_t end = ((uintptr_t)data + bytes) & ~(page - 1);
  if (end <= begin) return;
  parallel_for((end - begin + kFaultPieceBytes - 1) / kFaultPieceBytes, 1, [&](uint64_t b, uint64_t e, unsigned) {
    for (uint64_t piece = b; piece < e; ++piece) {
      const uintptr_t from = begin + piece * kFaultPieceBytes;
      const uintptr_t to = from + kFaultPieceBytes < end ? from + kFaultPieceBytes : end;
      platform::populate_for_writing((void*)from, to - from);  // a failure only costs time
    }
  });
}

// Items a parallel_for chunk of the fill below: a few hundred KB of writes.
constexpr uint64_t kFillChunk = 1 << 15;

// v grown (or shrunk) to n, the new elements set to `value` by every core.
template <class T>
void resize_on_every_core(BigVector<T>& v, size_t n, const T& value = T()) {
  static_assert(std::is_trivially_copyable<T>::value, "for plain data arrays");
  const size_t old = v.size();
  v.resize(n);  // unwritten (DefaultInitAllocator)
  if (n <= old) return;
  T* data = v.data() + old;
  parallel_for(n - old, kFillChunk,
               [&](uint64_t begin, uint64_t end, unsigned) { std::fill(data + begin, data + end, value); });
}

// v.resize(n, value) for a std::vector of a trivial type, its new storage faulted in on every core
// first: one pass writes the new elements, value-initialised or `value`.
template <class T>
void resize_on_every_core(std::vector<T>& v, size_t n, const T& value = T()) {
  static_assert(std::is_trivially_copyable<T>::value, "for plain data arrays");
  if (n > v.capacity() && n * sizeof(T) >= kFaultMinBytes) {
    std::vector<T> grown;
    grown.reserve(n);
    fault_in_on_every_core(grown.data(), n * sizeof(T));
    grown.insert(grown.end(), v.begin(), v.end());
    v.swap(grown);
  }
  v.resize(n, value);
}

}  // namespace facet
