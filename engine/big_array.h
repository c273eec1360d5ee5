// Big arrays for the loader's parallel passes, without the zero-fill on one thread that
// std::vector(n) and resize(n) do (about 0.6 s a GB on one core, mostly the kernel handing out and
// clearing fresh pages; bench/NOTES.md). Two tools:
//  - uninitialized_array<T>(n): an array of a trivial type left unwritten, for intermediates the
//    next parallel pass writes whole: their pages are first touched on every core.
//  - resize_on_every_core(v, n): a std::vector (whose type the scene fixes) grown to n with its
//    pages faulted in on every core first (madvise MADV_POPULATE_WRITE, Linux 5.14), so that the
//    zero-fill left to resize runs at memory speed. On older kernels it is a plain resize.
// It does not parallelise the fill itself: std::vector has no way to skip it.
#pragma once
#include <sys/mman.h>

#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "engine/parallel.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14; older kernels answer EINVAL, which is harmless here
#endif

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
      madvise((void*)from, to - from, MADV_POPULATE_WRITE);  // a failure only costs time
    }
  });
}

// v.resize(n, value) for a vector of a trivial type, its new storage faulted in on every core
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
