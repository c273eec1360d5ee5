// copy_and_checksum and ArrayClaims (scene_cache_pieces.h): the scene cache's byte-moving passes
// on every core (parallel.h). Linux calls: madvise to fault pages in. Huge pages are not asked for
// (MADV_HUGEPAGE): with THP's usual defrag setting ("madvise") their faults may stop for direct
// compaction, which took the first touch of 388 MB from 0.1 s to 1-2 s at random on the build
// machine; where THP is "always" the kernel gives them unasked, without the wait.
#include "engine/scene_cache_pieces.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>

#include "engine/checksum.h"
#include "engine/parallel.h"

namespace facet {

namespace {

// Bytes checksummed and then copied at a time: both passes over them hit the core's L2, so the
// mapped file is read from memory once.
constexpr uint64_t kCopyStep = uint64_t(64) << 10;
// The small page, and x86-64's huge page: the pieces faulted in by one task, so that a huge page
// (THP "always") is never split between two.
constexpr uintptr_t kPage = 4096;
constexpr uintptr_t kHugePage = uintptr_t(2) << 20;
// Arrays smaller than this are faulted in by their own zero-fill: too few pages to spread.
constexpr uint64_t kFirstTouchBytes = uint64_t(4) << 20;

// The checksum64 of payload bytes [begin, end) (one block), copying what has a destination.
uint64_t one_block(const std::vector<CachePiece>& pieces, uint64_t begin, uint64_t end, bool checksum) {
  auto after = std::upper_bound(pieces.begin(), pieces.end(), begin,
                                [](uint64_t at, const CachePiece& p) { return at < p.offset; });
  Checksum64 sum;
  for (auto p = after - 1; p != pieces.end() && p->offset < end; ++p) {
    const uint64_t lo = std::max(begin, p->offset), hi = std::min(end, p->offset + p->size);
    for (uint64_t at = lo; at < hi; at += kCopyStep) {
      const uint64_t n = std::min(kCopyStep, hi - at);
      const uint8_t* from = p->from + (at - p->offset);
      if (checksum) sum.add(from, n);
      if (p->to) std::memcpy(p->to + (at - p->offset), from, n);
    }
  }
  return checksum ? sum.value() : 0;
}

// Faults in the pages of [begin, end) (page-aligned) for writing, without changing their bytes.
void fault_in(uintptr_t begin, uintptr_t end) {
#ifdef MADV_POPULATE_WRITE
  if (madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE) == 0) return;
#endif
  // Kernels before 5.14: a write a page. The storage holds no objects yet (reserved only).
  for (uintptr_t p = begin; p < end; p += kPage) *reinterpret_cast<volatile uint8_t*>(p) = 0;
}

}  // namespace

uint64_t copy_and_checksum(const std::vector<CachePiece>& pieces, bool checksum) {
  const uint64_t total = pieces.empty() ? 0 : pieces.back().offset + pieces.back().size;
  std::vector<uint64_t> sums((total + kChecksumBlock - 1) / kChecksumBlock);
  parallel_for(sums.size(), 1, [&](uint64_t first, uint64_t last, unsigned) {
    for (uint64_t b = first; b < last; ++b)
      sums[b] = one_block(pieces, b * kChecksumBlock, std::min(total, (b + 1) * kChecksumBlock), checksum);
  });
  return checksum ? checksum64(sums.data(), sums.size() * sizeof(uint64_t)) : 0;
}

void ArrayClaims::size_all() {
  // Every big array's whole pages, cut at huge-page boundaries, one task a piece.
  struct Span {
    uintptr_t begin, end;
  };
  std::vector<Span> spans;
  for (const Claim& c : m_claims) {
    if (c.bytes < kFirstTouchBytes) continue;
    const uintptr_t first = (reinterpret_cast<uintptr_t>(c.data) + kPage - 1) & ~(kPage - 1);
    const uintptr_t last = (reinterpret_cast<uintptr_t>(c.data) + c.bytes) & ~(kPage - 1);
    for (uintptr_t at = first; at < last;) {
      const uintptr_t next = std::min(last, (at + kHugePage) & ~(kHugePage - 1));
      spans.push_back({at, next});
      at = next;
    }
  }
  parallel_for(spans.size(), 1, [&](uint64_t first, uint64_t last, unsigned) {
    for (uint64_t i = first; i < last; ++i) fault_in(spans[i].begin, spans[i].end);
  });
  // Each zero-fill is one thread's; the arrays' run side by side.
  parallel_for(m_claims.size(), 1, [&](uint64_t first, uint64_t last, unsigned) {
    for (uint64_t i = first; i < last; ++i) m_claims[i].resize(m_claims[i].array, m_claims[i].count);
  });
  m_claims.clear();
}

}  // namespace facet
