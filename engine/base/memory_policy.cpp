// keep_freed_memory_for_reuse and return_freed_memory (memory_policy.h), through the
// allocator's settings in platform.h.
#include "engine/base/memory_policy.h"

#include "engine/base/platform.h"

namespace facet {

void keep_freed_memory_for_reuse() { platform::keep_freed_memory_in_heap(); }

bool return_freed_memory(size_t at_least) { return platform::trim_heap(at_least); }

}  // namespace facet
