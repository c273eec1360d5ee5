// The OBJ lines most files are made of, read straight from the chunk's text in one pass: `v` with
// three (or six, with a colour) plain finite numbers, `vt` with two and `vn` with three plain
// numbers, and `f` with three or more plain corners (obj_text.h). Each reader stores its line
// only when the whole line is of that form and returns where its text ends (at a line end, or
// e); otherwise it stores nothing and returns nullptr, and the chunk parser's general path
// (obj_chunk.cpp) reads the line with every rule and message.
// Since every byte they accept is a digit, sign, dot, exponent, slash or blank, a line they read
// has no control byte for the general path to refuse and no '\' continuing it.
#pragma once
#include <algorithm>
#include <cmath>

#include "engine/formats/obj/obj_chunk.h"
#include "engine/formats/obj/obj_text.h"

namespace facet {

inline bool at_line_end(const char* p, const char* e) { return p == e || *p == '\n' || *p == '\r'; }

// After the `v` and its blank: the numbers, stored in positions (and colors).
inline const char* read_plain_vertex_line(ObjChunk& out, const char* p, const char* e) {
  constexpr int kMost = 6;  // x y z r g b
  float v[kMost];
  int n = 0;
  for (; n < kMost; ++n) {
    p = skip_blanks(p, e);
    if (at_line_end(p, e)) break;
    p = read_plain_number(p, e, &v[n]);
    if (!p) return nullptr;
  }
  p = skip_blanks(p, e);
  if ((n != 3 && n != 6) || !at_line_end(p, e)) return nullptr;
  if (!(std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]))) return nullptr;
  for (int k = 0; k < 3; ++k) out.positions.push_back(v[k]);  // one by one: see below
  for (int k = 3; k < n; ++k) out.colors.push_back(v[k]);
  return p;
}

// After the `vt` or `vn` and its blank: exactly `count` numbers (2 or 3), stored in `into`.
inline const char* read_plain_numbers_line(std::vector<float>& into, int count, const char* p, const char* e) {
  float v[3];
  for (int k = 0; k < count; ++k) {
    p = read_plain_number(skip_blanks(p, e), e, &v[k]);
    if (!p) return nullptr;
  }
  p = skip_blanks(p, e);
  if (!at_line_end(p, e)) return nullptr;  // more words: the general path ignores them
  for (int k = 0; k < count; ++k) into.push_back(v[k]);
  return p;
}

// After the `f` and its blank: the corners and the face, with `line` (chunk-local) and the
// smoothing group and usemtl statement in force. Each corner part goes straight to its array:
// a struct assembled on the stack and copied whole stalls on reading back its parts (store
// forwarding), a third of the parse.
inline const char* read_plain_face_line(ObjChunk& out, const char* p, const char* e, uint32_t line, uint32_t smoothing,
                                        int32_t usemtl) {
  const size_t first = out.corner_v.size();
  int32_t top_v = 0, top_vt = 0, top_vn = 0;  // the largest indices, kept in registers
  while (true) {
    p = skip_blanks(p, e);
    if (at_line_end(p, e)) break;
    int32_t v = 0, vt = 0, vn = 0;
    int32_t* const parts[3] = {&v, &vt, &vn};
    p = read_plain_corner(p, e, parts);
    if (!p) {
      out.drop_corners(first);
      return nullptr;
    }
    out.add_corner(v, vt, vn, vt != 0, vn != 0);
    top_v = std::max(top_v, v), top_vt = std::max(top_vt, vt), top_vn = std::max(top_vn, vn);
  }
  const size_t n = out.corner_v.size() - first;
  if (n < 3) {  // dropped with a warning: the general path counts it
    out.drop_corners(first);
    return nullptr;
  }
  const int32_t top[3] = {top_v, top_vt, top_vn};
  for (int kind = 0; kind < 3; ++kind)
    if (top[kind] > out.max_index[kind].value) out.max_index[kind] = {top[kind], line};
  out.texcoord_parts |= top_vt > 0;
  out.normal_parts |= top_vn > 0;
  out.add_face(first, (uint32_t)n, smoothing, usemtl);
  return p;
}

}  // namespace facet
