// Big arrays for the loader's parallel passes, without the zero-fill on one thread that
// std::vector(n) and resize(n) do (about 0.6 s a GB on one core, mostly the kernel handing out and
// clearing fresh pages; bench/NOTES.md). Two tools:
//  - uninitialized_array<T>(n): an array of a trivial type left unwritten, for intermediates the
//    next parallel pass writes whole: their pages are first touched on every core.
//  - resize_on_every_core(v, n): a std::vector (whose type the scene fixes) grown to n with its
//    pages faulted in on every core first (madvise MADV_POPULATE_WRITE, Linux 5.14), so that the
//    zero-fill left to resize runs at memory speed. On older kernels it is a plain resize.
// Both ask for transparent huge pages (madvise MADV_HUGEPAGE) on the arrays' whole 2 MB pages:
// one fault and one free a 2 MB page instead of 512 (on the H200 host's 87 M-triangle load, with
// the kernel's THP mode "madvise", the load took 0.3-0.5 s less with every large allocation so
// advised; bench/NOTES.md). Where the kernel has THP off the advice is ignored.
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
// The x86-64 huge page: the unit MADV_HUGEPAGE works in.
constexpr uintptr_t kHugePageBytes = uintptr_t(2) << 20;

// Asks for huge pages on the whole 2 MB pages inside [data, data + bytes), before their first
// touch (pages already faulted in stay small until the kernel collapses them). Arrays under
// kFaultMinBytes are left alone: most of them would be partial huge pages.
inline void advise_huge_pages(void* data, size_t bytes) {
  if (bytes < kFaultMinBytes) return;
  const uintptr_t begin = ((uintptr_t)data + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
  const uintptr_t end = ((uintptr_t)data + bytes) & ~(kHugePageBytes - 1);
  if (end > begin) madvise((void*)begin, end - begin, MADV_HUGEPAGE);  // a refusal only costs time
}

template <class T>
std::unique_ptr<T[]> uninitialized_array(size_t n) {
  static_assert(std::is_trivially_default_constructible<T>::value, "left unwritten: a trivial type only");
  std::unique_ptr<T[]> array(new T[n]);
  advise_huge_pages(array.get(), n * sizeof(T));
  return array;
}

// Faults in the whole pages of [data, data + bytes) for writing, on every core, huge where the
// kernel gives them.
inline void fault_in_on_every_core(void* data, size_t bytes) {
  advise_huge_pages(data, bytes);
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
