// keep_freed_memory_for_reuse and return_freed_memory (memory_policy.h), through mallopt and
// malloc_trim.
#include "engine/base/memory_policy.h"

#include <malloc.h>

namespace facet {

void keep_freed_memory_for_reuse() {
#if defined(__GLIBC__)
  // The main heap maps no block of its own, and -1, which mallopt documents, turns the trimming of
  // its top off. (Another thread's arena still maps a block it cannot hold.)
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, -1);
#endif
}

bool return_freed_memory(size_t at_least) {
#if defined(__GLIBC__)
  if (mallinfo2().fordblks < at_least) return false;
  malloc_trim(0);
  return true;
#else
  (void)at_least;
  return false;
#endif
}

}  // namespace facet
