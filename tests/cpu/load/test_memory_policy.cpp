// The facet program's allocator policy (engine/base/memory_policy.h): a big block comes from the heap,
// not a mapping of its own; freed, it stays there for the next one; asked, the heap gives it back.
#include <malloc.h>

#include <cstdlib>
#include <cstring>

#include <gtest/gtest.h>

#include "engine/base/memory_policy.h"

namespace {

// Keeps the compiler from eliding an allocation that nothing reads.
void escape(void* p) { asm volatile("" : : "r"(p) : "memory"); }

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kGlibcMalloc = false;  // the sanitizer's allocator replaces glibc's
#elif defined(__GLIBC__)
constexpr bool kGlibcMalloc = true;
#else
constexpr bool kGlibcMalloc = false;
#endif

TEST(MemoryPolicy, BigBlocksComeFromTheHeapStayThereWhenFreedAndGoBackWhenAsked) {
  if (!kGlibcMalloc) GTEST_SKIP() << "malloc here is not glibc's: mallopt has no effect";
  facet::keep_freed_memory_for_reuse();
  const size_t big = size_t(64) << 20;  // twice glibc's largest mmap threshold
  const size_t mapped = mallinfo2().hblkhd;
  char* p = static_cast<char*>(std::malloc(big));
  ASSERT_NE(p, nullptr);
  std::memset(p, 1, big);
  escape(p);
  EXPECT_EQ(mallinfo2().hblkhd, mapped) << "a 64 MiB block was mapped on its own";
  const size_t free_before = mallinfo2().fordblks, heap = mallinfo2().arena;
  std::free(p);
  EXPECT_GE(mallinfo2().fordblks, free_before + big) << "the freed block left the heap";
  char* again = static_cast<char*>(std::malloc(big));
  escape(again);
  EXPECT_EQ(mallinfo2().arena, heap) << "the second block did not reuse the first's memory";
  std::free(again);
  EXPECT_FALSE(facet::return_freed_memory(SIZE_MAX));
  EXPECT_TRUE(facet::return_freed_memory(big));
}

}  // namespace
