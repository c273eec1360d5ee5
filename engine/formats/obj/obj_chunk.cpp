// Parsing one chunk of OBJ text (see obj_chunk.h): lines (LF, CRLF, CR; a '\' before the line end
// joins the next line), comments, v (with optional r g b), vt, vn, f, l, p, s, mtllib, usemtl.
// Other statements (g, o, vw skin weights, t tags, curves) are read past: facet draws one mesh.
// The validation rules (what refuses a file, with which message) are the ones facet has always
// applied, so every file keeps its outcome. Plain v and f lines, most of a file, are first tried
// by the one-pass readers of obj_plain_lines.h; whatever they decline is read here.
#include "engine/formats/obj/obj_chunk.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "engine/formats/format_messages.h"
#include "engine/formats/obj/obj_plain_lines.h"
#include "engine/formats/obj/obj_text.h"

namespace facet {

namespace {

const char* const kKindName[3] = {"vertex", "texture coordinate", "normal"};

// A corner as the general path reads it (parts as in ObjChunk::corner_v before the stitch).
struct Corner {
  int32_t v = 0, vt = 0, vn = 0;
  uint32_t relative = 0;  // bit k set: part k (v, vt, vn) is chunk-relative
};

class ChunkParser {
 public:
  ChunkParser(ObjChunk& chunk, const ObjCounts* before) : m_out(chunk), m_before(before) {}

  bool failed() const { return m_out.error.line != 0; }

  void fail(uint32_t line, std::string what) {
    if (failed()) return;
    m_out.error.line = line;
    m_out.error.what = std::move(what);
  }

  void vertex(const char* p, const char* e, uint32_t line) {
    if (read_plain_vertex_line(m_out, p, e)) return;
    float xyz[3];
    bool unusable = false;
    for (float& c : xyz) {
      const char* s = skip_blanks(p, e);
      p = word_end(s, e);
      c = 0;  // a missing coordinate reads as 0
      if (s == p) continue;
      if (!is_plain_number(s, p)) {
        unusable = true;
        // The first such word that does not spell a NaN or an infinity, for the warning about
        // the faces dropped on it (quoted once here).
        if (!m_out.not_number_line && !spells_nan_or_infinity(s, p)) {
          m_out.not_number_line = line;
          m_out.not_number_word = quoted(std::string_view(s, (size_t)(p - s)), 40);
        }
      }
      read_number(s, p, &c);
    }
    unusable |= !(std::isfinite(xyz[0]) && std::isfinite(xyz[1]) && std::isfinite(xyz[2]));
    if (unusable) m_out.unusable.push_back((uint32_t)m_out.vertex_count());
    m_out.positions.insert(m_out.positions.end(), xyz, xyz + 3);
    float rgb[3];
    if (next_number(&p, e, 1, &rgb[0]) && next_number(&p, e, 1, &rgb[1]) && next_number(&p, e, 1, &rgb[2])) {
      m_out.colors.insert(m_out.colors.end(), rgb, rgb + 3);
    }
  }

  // `count` numbers of a vt or vn statement; words that are no number read as 0 (tinyobjloader's
  // rule), counted in `not_numbers` for the warning.
  void numbers(std::vector<float>& into, int count, const char* p, const char* e, uint64_t& not_numbers) {
    float plain[3];
    const char* q = p;
    for (int k = 0; k < count && q; ++k) q = read_plain_number(skip_blanks(q, e), e, &plain[k]);
    if (q) {  // the rest of the line is ignored
      for (int k = 0; k < count; ++k) into.push_back(plain[k]);
      return;
    }
    for (int k = 0; k < count; ++k) {
      float value;
      const char* word = skip_blanks(p, e);
      if (!next_number(&p, e, 0, &value) && word < p) ++not_numbers;
      into.push_back(value);
    }
  }

  // Checks one part of a corner; kind 0 = v, 1 = vt, 2 = vn. Returns the stored value.
  bool index(int64_t idx, int kind, uint32_t line, const char* t, const char* e, int32_t* out, bool* relative) {
    uint64_t local = kind == 0 ? m_out.vertex_count() : kind == 1 ? m_out.texcoord_count() : m_out.normal_count();
    if (idx == 0) {
      fail(line,
           "index 0 in face corner " + quoted(std::string_view(t, (size_t)(e - t))) + " (OBJ indices start at 1)");
      return false;
    }
    if (idx > 0) {
      ObjMaxIndex& m = m_out.max_index[kind];
      if (idx > m.value) m = {idx, line};
      *out = (int32_t)idx;
      return true;
    }
    if (m_before && kind < 2) {
      uint64_t have = local + (kind == 0 ? m_before->v : m_before->vt);
      if ((uint64_t)(-idx) > have) {
        fail(line, "relative " + std::string(kKindName[kind]) + " index " + std::to_string(idx) + " in " +
                       quoted(std::string_view(t, (size_t)(e - t))) + " points before the first one (" +
                       std::to_string(have) + " defined so far)");
        return false;
      }
    }
    *out = (int32_t)((int64_t)local + idx);
    *relative = true;
    return true;
  }

  // v, v/vt, v//vn or v/vt/vn.
  bool corner(const char* t, const char* e, uint32_t line, Corner* c) {
    int32_t* parts[3] = {&c->v, &c->vt, &c->vn};
    const char* p = t;
    for (int kind = 0; kind < 3; ++kind) {
      if (kind > 0) {
        if (p >= e) return true;
        if (*p != '/') break;
        ++p;
        if (kind == 1 && p < e && *p == '/') continue;  // v//vn: no texcoord
      }
      int64_t idx = 0;
      bool overflow = false, relative = false;
      if (!read_index(p, e, &idx, &overflow)) {
        if (overflow)
          fail(line,
               "index in face corner " + quoted(std::string_view(t, (size_t)(e - t))) + " does not fit in 32 bits");
        p = t;  // a sign without digits, or nothing after a '/': malformed
        break;
      }
      if (!index(idx, kind, line, t, e, parts[kind], &relative)) return false;
      if (relative) c->relative |= 1u << kind;
    }
    if (p != e || failed()) {
      fail(line, "malformed face corner " + quoted(std::string_view(t, (size_t)(e - t))) +
                     " (expected v, v/vt, v//vn or v/vt/vn)");
      return false;
    }
    return true;
  }

  // The general face: plain corners read in one pass (obj_plain_lines.h says why field by field),
  // the others with every rule.
  void face(const char* p, const char* e, uint32_t line) {
    if (read_plain_face_line(m_out, p, e, line, m_smoothing, m_usemtl)) return;
    const size_t first = m_out.corner_v.size();
    int32_t top_v = 0, top_vt = 0, top_vn = 0;  // the largest plain indices, kept in registers
    bool other_vt = false, other_vn = false;    // the other corners name a vt, a vn
    while (true) {
      const char* s = skip_blanks(p, e);
      if (s >= e) break;
      int32_t v = 0, vt = 0, vn = 0;
      int32_t* const parts[3] = {&v, &vt, &vn};
      if (const char* q = read_plain_corner(s, e, parts)) {
        m_out.add_corner(v, vt, vn, vt != 0, vn != 0);
        top_v = std::max(top_v, v), top_vt = std::max(top_vt, vt), top_vn = std::max(top_vn, vn);
        p = q;
        continue;
      }
      p = word_end(s, e);
      Corner c;
      if (!corner(s, p, line, &c)) return m_out.drop_corners(first);
      const bool has_vt = c.vt != 0 || (c.relative & 2u), has_vn = c.vn != 0 || (c.relative & 4u);
      if (c.relative) {
        m_out.relative.push_back({(uint32_t)m_out.corner_v.size(), line, c.relative});
        ++m_out.relative_corners;
      }
      m_out.add_corner(c.v, c.vt, c.vn, has_vt, has_vn);
      other_vt |= has_vt;
      other_vn |= has_vn;
    }
    const int32_t top[3] = {top_v, top_vt, top_vn};
    for (int kind = 0; kind < 3; ++kind)
      if (top[kind] > m_out.max_index[kind].value) m_out.max_index[kind] = {top[kind], line};
    const size_t n = m_out.corner_v.size() - first;
    if (n >= 3) {
      m_out.texcoord_parts |= other_vt || top_vt > 0;
      m_out.normal_parts |= other_vn || top_vn > 0;
      m_out.add_face(first, (uint32_t)n, m_smoothing, m_usemtl);
      return;
    }
    m_out.drop_corners(first);  // 1 or 2 corners: dropped, counted for the warning
    if (!m_out.short_faces) m_out.short_face_line = line;
    ++m_out.short_faces;
  }

  // `l` and `p` draw nothing in facet, but an index that reads as 0 (a 0, or a word that is not
  // a number) has always refused the file: each corner part is read the way C's atoi reads it.
  void primitive(const char* p, const char* e, uint32_t line, char kind) {
    std::string text(p, e);
    const char* t = text.c_str();
    while (*t) {
      for (int part = 0; part < 3; ++part) {
        if (part > 0) {
          if (*t != '/') break;
          ++t;
          if (part == 1 && *t == '/') ++t, ++part;  // v//vn
        }
        if ((int)std::strtol(t, nullptr, 10) == 0) {
          fail(line, std::string("index 0 or a word that is not a number in '") + kind +
                         "' statement (OBJ indices start at 1)");
          return;
        }
        t += std::strcspn(t, "/ \t");
      }
      t += std::strspn(t, " \t");
    }
  }

  void smoothing(const char* p, const char* e) {
    m_out.has_smoothing = true;
    p = skip_blanks(p, e);
    if (p == e) return;  // `s` alone keeps the current group
    if (e - p >= 3 && std::strncmp(p, "off", 3) == 0) {
      m_smoothing = 0;
    } else {
      // Read as C's atoi reads it (a number too long for int wraps), negative meaning none.
      int id = (int)std::strtol(std::string(p, word_end(p, e)).c_str(), nullptr, 10);
      m_smoothing = id < 0 ? 0u : (uint32_t)id;
    }
    m_out.last_smoothing = m_smoothing;
  }

  // A `v`, `vt`, `vn` or `f` line of the plain form, from the raw text: where its text ends, or
  // nullptr (nothing stored) for the general path.
  const char* plain_line(const char* p, const char* e, uint32_t line) {
    if (e - p < 3) return nullptr;
    if (is_blank(p[1])) {
      if (p[0] == 'v') return read_plain_vertex_line(m_out, p + 2, e);
      if (p[0] == 'f') return read_plain_face_line(m_out, p + 2, e, line, m_smoothing, m_usemtl);
    } else if (p[0] == 'v' && is_blank(p[2])) {
      if (p[1] == 't') return read_plain_numbers_line(m_out.texcoords, 2, p + 3, e);
      if (p[1] == 'n') return read_plain_numbers_line(m_out.normals, 3, p + 3, e);
    }
    return nullptr;
  }

  void statement(const char* p, const char* e, uint32_t line) {
    p = skip_blanks(p, e);
    if (e - p < 2 || *p == '#') return;
    const char c0 = p[0], c1 = p[1];
    const bool blank2 = e - p > 2 && is_blank(p[2]);
    if (c0 == 'v') {
      if (is_blank(c1))
        vertex(p + 2, e, line);
      else if (c1 == 't' && blank2)
        numbers(m_out.texcoords, 2, p + 3, e, m_out.texcoord_not_numbers);
      else if (c1 == 'n' && blank2)
        numbers(m_out.normals, 3, p + 3, e, m_out.normal_not_numbers);
      return;  // vw (skin weights) and curve data: not drawn
    }
    if (is_blank(c1)) {
      if (c0 == 'f') return face(p + 2, e, line);
      if (c0 == 'l') ++m_out.line_statements;
      if (c0 == 'p') ++m_out.point_statements;
      if (c0 == 'l' || c0 == 'p') return primitive(p + 2, e, line, c0);
      if (c0 == 's') return smoothing(p + 2, e);
      return;  // g, o, t: one mesh, no tags
    }
    if (e - p >= 6 && std::strncmp(p, "usemtl", 6) == 0) {
      const char* name = skip_blanks(p + 6, e);
      m_usemtl = (int32_t)m_out.statements.size();
      m_out.statements.push_back({true, line, std::string(name, word_end(name, e))});
    } else if (e - p >= 7 && std::strncmp(p, "mtllib", 6) == 0 && is_blank(p[6])) {
      m_out.statements.push_back({false, line, std::string(p + 7, e)});
    }
  }

 private:
  ObjChunk& m_out;
  const ObjCounts* m_before;
  uint32_t m_smoothing = kInheritSmoothing;
  int32_t m_usemtl = -1;
};

}  // namespace

namespace {

// Whether the text at p starts as UTF-16 does: two characters, each a printable ASCII byte and a
// zero byte, in either order ("v\0 \0" or "\0v\0 "). Zero bytes alone are binary data.
bool looks_utf16(const char* p, const char* e) {
  if (e - p < 4) return false;
  auto text = [](char c) { return c >= 0x20 && c < 0x7F; };
  return (text(p[0]) && !p[1] && text(p[2]) && !p[3]) || (!p[0] && text(p[1]) && !p[2] && text(p[3]));
}

// One line's end: the first CR or LF from p, or e. Throws nothing: a control byte (binary data,
// or UTF-16's zero bytes on the first line) is reported through `error` and returns nullptr.
const char* line_end(const char* p, const char* e, const ObjChunk& chunk, uint32_t line, std::string* error) {
  const char* q = p;
#if defined(__SSE2__)
  // Sixteen bytes at a time while none is below 0x20 (line ends, tabs, control bytes): on to the
  // first that is.
  const __m128i below_space = _mm_set1_epi8(0x1F);
  for (; q + 16 <= e; q += 16) {
    const __m128i x = _mm_loadu_si128((const __m128i*)q);
    const int low = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(x, below_space), x));
    if (low) {
      q += __builtin_ctz((unsigned)low);
      break;
    }
  }
#endif
  // Eight bytes at a time while none is below 0x20.
  for (uint64_t x; q + 8 <= e; q += 8) {
    std::memcpy(&x, q, 8);
    if ((x - 0x2020202020202020ull) & ~x & 0x8080808080808080ull) break;
  }
  for (; q < e; ++q) {
    const unsigned char c = (unsigned char)*q;
    if (c >= 0x20) continue;
    if (c == '\n' || c == '\r') return q;
    if (c == '\t' || c == '\f' || c == '\v') continue;
    if (c == 0 && chunk.first && line == 1 && q - chunk.begin < 4 && looks_utf16(chunk.begin, e))
      *error = "UTF-16 text is not supported (save the file as UTF-8 or ASCII)";
    else
      *error = "binary data, not OBJ text (control byte " + std::to_string(c) + ")";
    return nullptr;
  }
  return e;
}

// Past one line end (CRLF counts as one).
const char* after_line_end(const char* eol, const char* e) {
  if (eol < e && *eol == '\r' && eol + 1 < e && eol[1] == '\n') ++eol;
  return eol < e ? eol + 1 : e;
}

}  // namespace

void parse_obj_chunk(ObjChunk& chunk, const ObjCounts* before) {
  ChunkParser parser(chunk, before);
  const char* p = chunk.begin;
  const char* const e = chunk.end;
  std::string joined;  // a statement continued over several lines with '\'
  while (p < e && !parser.failed()) {
    if (const char* end = parser.plain_line(p, e, chunk.lines + 1)) {
      ++chunk.lines;
      p = after_line_end(end, e);
      continue;
    }
    const uint32_t first_line = ++chunk.lines;
    std::string error;
    const char* eol = line_end(p, e, chunk, first_line, &error);
    if (!eol) return parser.fail(first_line, error);
    // A comment never continues: "# from C:\models\" must not swallow the next statement.
    if (eol == e || eol == p || eol[-1] != '\\' || *skip_blanks(p, eol) == '#') {
      parser.statement(p, eol, first_line);
      p = after_line_end(eol, e);
      continue;
    }
    joined.clear();
    while (eol < e && eol > p && eol[-1] == '\\') {
      joined.append(p, eol - 1).push_back(' ');  // the '\' and the line end read as one blank
      p = after_line_end(eol, e);
      if (p >= e) break;
      eol = line_end(p, e, chunk, ++chunk.lines, &error);
      if (!eol) return parser.fail(chunk.lines, error);
    }
    if (p < e) joined.append(p, eol);
    parser.statement(joined.data(), joined.data() + joined.size(), first_line);
    p = after_line_end(eol, e);
  }
}

}  // namespace facet
