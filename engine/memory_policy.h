// How the facet program asks glibc's allocator to treat big blocks. By default each block over
// 32 MiB is a fresh mmap, freed with munmap: every array of a big load (gigabytes of scratch that
// come and go: sort keys, welds, the meshlet build's parts) is then written into fresh pages, one
// page fault and one kernel clearing a 4 KiB page. On the H200 host those faults cost the 87 M
// model's load 2.1 M faults and 6-7 s of system time; with freed blocks kept in the heap and
// reused, 1.5 M and 4.5 s, and the load 13 % less time (bench/NOTES.md, device call 31).
// Not applied to the Python module: its host process owns its allocator.
#pragma once
#include <cstddef>

namespace facet {

// Big blocks come from the heap, and freed memory stays there for the next allocation (no
// trimming). Call once, first thing in main. No effect where malloc is not glibc's (sanitizers).
void keep_freed_memory_for_reuse();

// Returns the heap's free memory to the system when more than `at_least` bytes of it are free:
// for a long-lived process (the viewer) after a load, so that a huge model's scratch, or a
// replaced scene, does not stay resident. Locks each malloc arena while it runs: call it off the
// frame loop's thread. Returns whether it trimmed.
bool return_freed_memory(size_t at_least);

}  // namespace facet
