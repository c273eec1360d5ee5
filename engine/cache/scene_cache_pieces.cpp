// copy_and_checksum, write_and_checksum and ArrayClaims (scene_cache_pieces.h): the scene cache's
// byte-moving passes on every core (parallel.h; the writer's checksums in a low-priority oneTBB
// arena, which parallel.h does not offer). The system's calls (platform.h): pages faulted in for
// writing, room reserved in the file, writes at an offset. Huge pages are not asked for: with
// Linux's usual setting for transparent huge pages (defrag "madvise") their faults may stop for
// direct compaction, which makes a first touch of a few hundred MB many times slower at random
// (docs/performance.md); where THP is "always" the kernel gives them unasked, without the wait.
#include "engine/cache/scene_cache_pieces.h"

#include <tbb/task_arena.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "engine/base/checksum.h"
#include "engine/base/parallel.h"

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
// Bytes of one write of the cache file: large enough for the page cache's largest folios and for
// the call to cost nothing, small enough not to hold one write for long.
constexpr uint64_t kWriteStep = uint64_t(16) << 20;

// The checksum64 of payload bytes [begin, end) (one block), handing each step of it, once
// checksummed, to step(piece, payload offset, bytes, count) while it is in the core's cache.
template <class Step>
uint64_t one_block(const std::vector<CachePiece>& pieces, uint64_t begin, uint64_t end, bool checksum, Step&& step) {
  auto after = std::upper_bound(pieces.begin(), pieces.end(), begin,
                                [](uint64_t at, const CachePiece& p) { return at < p.offset; });
  Checksum64 sum;
  for (auto p = after - 1; p != pieces.end() && p->offset < end; ++p) {
    const uint64_t lo = std::max(begin, p->offset), hi = std::min(end, p->offset + p->size);
    for (uint64_t at = lo; at < hi; at += kCopyStep) {
      const uint64_t n = std::min(kCopyStep, hi - at);
      const uint8_t* from = p->from + (at - p->offset);
      if (checksum) sum.add(from, n);
      step(*p, at, from, n);
    }
  }
  return checksum ? sum.value() : 0;
}

// Faults in the pages of [begin, end) (page-aligned) for writing, without changing their bytes.
void fault_in(uintptr_t begin, uintptr_t end) {
  if (platform::populate_for_writing(reinterpret_cast<void*>(begin), end - begin)) return;
  // Where the system cannot: a write a page. The storage holds no objects yet (reserved only).
  for (uintptr_t p = begin; p < end; p += kPage) *reinterpret_cast<volatile uint8_t*>(p) = 0;
}

}  // namespace

uint64_t copy_and_checksum(const std::vector<CachePiece>& pieces, bool checksum) {
  const uint64_t total = pieces.empty() ? 0 : pieces.back().offset + pieces.back().size;
  std::vector<uint64_t> sums((total + kChecksumBlock - 1) / kChecksumBlock);
  const auto copy = [](const CachePiece& p, uint64_t at, const uint8_t* from, uint64_t n) {
    if (p.to) std::memcpy(p.to + (at - p.offset), from, n);
  };
  parallel_for(sums.size(), 1, [&](uint64_t first, uint64_t last, unsigned) {
    for (uint64_t b = first; b < last; ++b)
      sums[b] = one_block(pieces, b * kChecksumBlock, std::min(total, (b + 1) * kChecksumBlock), checksum, copy);
  });
  return checksum ? checksum64(sums.data(), sums.size() * sizeof(uint64_t)) : 0;
}

uint64_t write_and_checksum(const std::vector<CachePiece>& pieces, platform::OutputFile& file, uint64_t file_offset) {
  const uint64_t total = pieces.empty() ? 0 : pieces.back().offset + pieces.back().size;
  // The room first, where the file system can: a full disk fails here, before any byte is written.
  if (total) {
    const std::string why = file.reserve(file_offset, total);
    if (!why.empty()) throw std::runtime_error(why);
  }
  std::vector<uint64_t> sums((total + kChecksumBlock - 1) / kChecksumBlock);
  // The checksums on every core, at low priority: while the caller's own passes run (an upload, a
  // frame), the workers go to them.
  const auto nothing = [](const CachePiece&, uint64_t, const uint8_t*, uint64_t) {};
  tbb::task_arena arena((int)worker_count(), 1, tbb::task_arena::priority::low);
  arena.execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<uint64_t>(0, sums.size(), 1),
        [&](const tbb::blocked_range<uint64_t>& r) {
          for (uint64_t b = r.begin(); b < r.end(); ++b)
            sums[b] = one_block(pieces, b * kChecksumBlock, std::min(total, (b + 1) * kChecksumBlock), true, nothing);
        },
        tbb::simple_partitioner());
  });
  // Then the bytes in file order, in large writes from this one thread: the page cache then holds
  // the file in large folios, which the next open maps with few faults. Written a step at a time
  // from every core in block order, a big cache reads back slower (docs/performance.md); and the
  // kernel serialises buffered writes to one file anyway.
  for (const CachePiece& p : pieces)
    for (uint64_t done = 0; done < p.size; done += kWriteStep) {
      const uint64_t n = std::min(kWriteStep, p.size - done);
      const std::string why = file.write_at(p.from + done, n, file_offset + p.offset + done);
      if (!why.empty()) throw std::runtime_error(why);
    }
  return checksum64(sums.data(), sums.size() * sizeof(uint64_t));
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
  // A std::vector's zero-fill is one thread's; the arrays' run side by side.
  parallel_for(m_claims.size(), 1, [&](uint64_t first, uint64_t last, unsigned) {
    for (uint64_t i = first; i < last; ++i) m_claims[i].resize(m_claims[i].array, m_claims[i].count);
  });
  m_claims.clear();
}

}  // namespace facet
