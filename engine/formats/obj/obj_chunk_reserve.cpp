// The reservation before a chunk's parse (see obj_chunk_reserve.h): a few evenly spaced windows
// of the chunk's text are read line by line for v / vt / vn / f statements and face corners, and
// the counts scaled to the whole chunk, and half as much again reserved.
// Files that change kind along the way (all v, then all f) are why the windows are spread
// rather than taken at the start.
#include "engine/formats/obj/obj_chunk_reserve.h"

#include <algorithm>
#include <cstring>

#include "engine/formats/obj/obj_text.h"

namespace facet {

namespace {

// Windows of text counted per chunk, and their size: 64 KB of a 1-32 MB chunk is enough to
// see its mix of statements and costs well under 1 % of the parse; sixteen of them follow a
// chunk whose first half is vertices and second half faces to a few percent.
constexpr size_t kWindows = 16;
constexpr size_t kWindowBytes = size_t(4) << 10;
// Room reserved for this many times the estimate, plus a constant: a chunk that outgrows its
// reservation is copied whole into one twice its size, so the address space is generous.
constexpr double kReserveMargin = 1.5;
constexpr size_t kSlack = 64;

struct Counts {
  size_t v = 0, vt = 0, vn = 0, polygons = 0, corners = 0, vt_parts = 0, vn_parts = 0, relative = 0;
};

// Counts the corners of one `f` line after its `f`, their vt and vn parts, the relative ones.
void count_corners(const char* q, const char* eol, Counts& n) {
  size_t corners = 0;
  int slashes = 0;  // in the current corner
  for (; q + 1 < eol; ++q) {
    const bool starts = is_blank(q[0]) && !is_blank(q[1]);
    corners += starts;
    n.relative += starts && q[1] == '-';  // a corner whose first part is relative (most are)
    slashes = starts ? 0 : slashes + (q[1] == '/');
    // A part after a slash: the first is vt (unless empty), the second vn.
    if (q[0] == '/' && !is_blank(q[1]) && q[1] != '/' && q[1] != '\r') {
      n.vt_parts += slashes == 1;
      n.vn_parts += slashes == 2;
    }
  }
  n.corners += corners;
  n.polygons += corners > 3;
}

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
      count_corners(s + 1, eol, n);
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
  const double scale = (double)size / (double)sampled;
  // The pages are faulted in by the parse's first writes, not at once with MADV_POPULATE_WRITE:
  // that holds the process's mmap lock for the whole range while every other core reserves
  // (mmap: the lock held for writing), where a page fault takes only its own area's lock. The
  // parse measured no faster with it (docs/performance.md); without, no core waits on another's
  // range.
  auto room = [&](size_t count) { return (size_t)((double)count * scale * kReserveMargin) + kSlack; };
  chunk.positions.reserve(3 * room(n.v));
  chunk.texcoords.reserve(2 * room(n.vt));
  chunk.normals.reserve(3 * room(n.vn));
  // Face records: one per polygon, one per run of triangles (a few; grown as needed).
  chunk.faces.reserve(room(n.polygons));
  chunk.corner_v.reserve(room(n.corners));
  chunk.corner_vt.reserve(room(n.vt_parts));
  chunk.corner_vn.reserve(room(n.vn_parts));
  chunk.relative.reserve(room(n.relative));
}

}  // namespace facet
