// How the facet program asks glibc's allocator to treat big blocks. By default each block over
// 32 MiB is a fresh mapping of its own, handed back to the system when freed: every array of a
// big load (gigabytes of scratch that come and go: sort keys, welds, the scene's arrays as they
// are rebuilt) is then written into fresh pages, one page fault and one kernel clearing a 4 KiB
// page. With the blocks the main thread frees kept in its heap and reused, a big load takes
// fewer faults, less system time and less time in all (figures in docs/performance.md). Other
// threads' big blocks are still mapped on their own (glibc maps a block that a thread's arena
// cannot hold, whatever the settings below). The calls themselves are platform.h's.
// Not applied to the Python module: its host process owns its allocator.
#pragma once
#include <cstddef>

namespace facet {

// The main thread's big blocks come from its heap, and freed memory stays there for the next
// allocation (no trimming). Call once, first thing in main. No effect where malloc is not
// glibc's (sanitizers).
void keep_freed_memory_for_reuse();

// Returns the heap's free memory to the system when more than `at_least` bytes of it are free:
// for a long-lived process (the viewer) after a load, so that what its main thread freed (a
// replaced scene's arrays, a big load's scratch) does not stay resident. Locks each malloc arena
// while it runs: call it off the frame loop's thread. Returns whether it trimmed.
bool return_freed_memory(size_t at_least);

}  // namespace facet
