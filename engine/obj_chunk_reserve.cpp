// The reservation before a chunk's parse (see obj_chunk_reserve.h): a few evenly spaced windows
// of the chunk's text are read line by line for v / vt / vn / f statements and face corners, and
// the counts scaled to the whole chunk with a margin. Files that change kind along the way (all
// v, then all f) are why the windows are spread rather than taken at the start.
#include "engine/obj_chunk_reserve.h"

#include <algorithm>
#include <cstring>

#include "engine/big_array.h"
#include "engine/obj_text.h"

namespace facet {

namespace {

// Windows of text counted per chunk, and their size: 64 KB of a 1-32 MB chunk is enough to
// see its mix of statements and costs well under 1 % of the parse.
constexpr size_t kWindows = 8;
constexpr size_t kWindowBytes = size_t(8) << 10;
// Counts scaled up by this, plus a constant: statements vary in length across a chunk.
constexpr double kMargin = 1.1;
constexpr size_t kSlack = 64;

template <class T>
void reserve(std::vector<T>& v, size_t n) {
  v.reserve(n);
  const uintptr_t page = 4096, begin = ((uintptr_t)v.data() + page - 1) & ~(page - 1);
  const uintptr_t end = ((uintptr_t)v.data() + n * sizeof(T)) & ~(page - 1);
  if (end > begin) madvise((void*)begin, end - begin, MADV_POPULATE_WRITE);
}

struct Counts {
  size_t v = 0, vt = 0, vn = 0, f = 0, corners = 0;
};

// Counts the statements of the whole lines that start in [p, e) (the first one begins at p).
void count_lines(const char* p, const char* e, const char* text_end, Counts& n) {
  while (p < e) {
    const char* eol = (const char*)std::memchr(p, '\n', (size_t)(text_end - p));
    if (!eol) eol = text_end;
    const char* s = skip_blanks(p, eol);
    if (eol - s >= 2 && s[0] == 'v') {
      n.v += is_blank(s[1]);
      n.vt += s[1] == 't';
      n.vn += s[1] == 'n';
    } else if (eol - s >= 2 && s[0] == 'f' && is_blank(s[1])) {
      ++n.f;
      for (const char* q = s + 1; q + 1 < eol; ++q) n.corners += is_blank(q[0]) && !is_blank(q[1]);
    }
    p = eol + 1;
  }
}

}  // namespace

void reserve_obj_chunk(ObjChunk& chunk) {
  const char* const b = chunk.begin;
  const size_t size = (size_t)(chunk.end - b);
  Counts n;
  size_t sampled = 0;
  if (size <= kWindows * kWindowBytes) {
    count_lines(b, chunk.end, chunk.end, n);
    sampled = size;
  } else {
    for (size_t w = 0; w < kWindows; ++w) {
      const char* from = b + w * (size / kWindows);
      const char* to = from + kWindowBytes;
      if (w > 0) {  // from the first line that starts in the window
        const char* nl = (const char*)std::memchr(from, '\n', kWindowBytes);
        if (!nl) continue;
        from = nl + 1;
      }
      count_lines(from, to, chunk.end, n);
      sampled += kWindowBytes;
    }
  }
  if (sampled == 0) return;
  const double scale = kMargin * (double)size / (double)sampled;
  auto room = [&](size_t count) { return (size_t)((double)count * scale) + kSlack; };
  reserve(chunk.positions, 3 * room(n.v));
  reserve(chunk.texcoords, 2 * room(n.vt));
  reserve(chunk.normals, 3 * room(n.vn));
  reserve(chunk.faces, room(n.f));
  reserve(chunk.corners, room(n.corners));
}

}  // namespace facet
