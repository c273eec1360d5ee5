// The validating pass over OBJ text (see obj_scan.h): encoding, binary data, face indices with
// line numbers, non-finite vertex coordinates. Index rules follow tinyobjloader's own resolution
// (absolute = 1-based over the whole file, negative = relative to the vertices read so far), so
// whatever passes here is safe for it and for the mesh builder.
#include "tests/support/oracle/obj_scan.h"

#include <cstdint>
#include <cstring>

#include "engine/load/load_model.h"

namespace facet::oracle {

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }

// One index component: optional sign and decimal digits, at most 32-bit signed (tinyobjloader
// stores int). Returns false with *overflow when it is too large, false alone when malformed.
bool parse_index(const char*& p, const char* end, long long* out, bool* overflow) {
  bool neg = false;
  if (p < end && (*p == '-' || *p == '+')) neg = (*p++ == '-');
  const char* digits = p;
  long long v = 0;
  while (p < end && *p >= '0' && *p <= '9') {
    if (v <= INT32_MAX) v = v * 10 + (*p - '0');  // keeps counting digits past the limit
    ++p;
  }
  if (p == digits) return false;
  if (v > INT32_MAX) {
    *overflow = true;
    return false;
  }
  *out = neg ? -v : v;
  return true;
}

// A coordinate tinyobjloader can read as the number written: digits, sign, dot, exponent.
// "nan", "inf", "1.#IND" and other words are read by it as 0 or 1, so they are flagged here.
bool is_plain_number(const char* p, const char* e) {
  bool digit = false;
  for (; p < e; ++p) {
    char c = *p;
    if (c >= '0' && c <= '9')
      digit = true;
    else if (c != '+' && c != '-' && c != '.' && c != 'e' && c != 'E')
      return false;
  }
  return digit;
}

class Scanner {
 public:
  Scanner(const std::string& path, ObjScan& out, const char* base) : m_path(path), m_out(out), m_base(base) {}

  [[noreturn]] void fail(size_t line, const std::string& what) const {
    throw LoadError(m_path + ":" + std::to_string(line) + ": " + what);
  }

  void vertex(const char* p, const char* e) {
    for (int k = 0; k < 3; ++k) {
      while (p < e && is_blank(*p)) ++p;
      const char* t = p;
      while (p < e && !is_blank(*p)) ++p;
      if (t == p) break;  // fewer than 3 coordinates: tinyobjloader fills 0, which is finite
      if (!is_plain_number(t, p)) {
        m_out.nonfinite_vertices.push_back((uint32_t)(m_out.v_count));
        break;
      }
    }
    ++m_out.v_count;
  }

  // Checks one component of a corner; kind 0 = v, 1 = vt, 2 = vn.
  void index(long long idx, int kind, size_t line, const std::string& tok) {
    static const char* kName[3] = {"vertex", "texture coordinate", "normal"};
    size_t have = kind == 0 ? m_out.v_count : kind == 1 ? m_out.vt_count : m_out.vn_count;
    if (idx == 0) fail(line, "index 0 in face corner '" + tok + "' (OBJ indices start at 1)");
    if (idx < 0) {
      if ((size_t)(-idx) > have) {
        if (kind == 2) return note_bad_normal(line);
        fail(line, "relative " + std::string(kName[kind]) + " index " + std::to_string(idx) + " in '" + tok +
                       "' points before the first one (" + std::to_string(have) + " defined so far)");
      }
      return;
    }
    // Absolute indices may refer forward: checked against the totals at the end.
    if ((size_t)idx > m_max[kind]) {
      m_max[kind] = (size_t)idx;
      m_max_line[kind] = line;
    }
  }

  void note_bad_normal(size_t line) {
    if (!m_out.bad_normal_line) m_out.bad_normal_line = line;
  }

  void face(const char* p, const char* e, size_t line) {
    size_t corners = 0;
    while (true) {
      while (p < e && is_blank(*p)) ++p;
      if (p >= e) break;
      const char* t = p;
      while (p < e && !is_blank(*p)) ++p;
      corner(t, p, line);
      ++corners;
    }
    if (corners >= 3) {
      ++m_out.face_count;
    } else {
      if (!m_out.short_face_count) m_out.short_face_line = line;
      ++m_out.short_face_count;
    }
  }

  // v, v/vt, v//vn or v/vt/vn.
  void corner(const char* t, const char* e, size_t line) {
    std::string tok(t, e);
    const char* p = t;
    for (int kind = 0; kind < 3; ++kind) {
      if (kind > 0) {
        if (p >= e) return;
        if (*p != '/') break;
        ++p;
        if (kind == 1 && p < e && *p == '/') continue;  // v//vn: no texcoord
      }
      long long idx = 0;
      bool overflow = false;
      if (!parse_index(p, e, &idx, &overflow)) {
        if (overflow) fail(line, "index in face corner '" + tok + "' does not fit in 32 bits");
        fail(line, "malformed face corner '" + tok + "' (expected v, v/vt, v//vn or v/vt/vn)");
      }
      index(idx, kind, line, tok);
    }
    if (p != e) fail(line, "malformed face corner '" + tok + "' (expected v, v/vt, v//vn or v/vt/vn)");
  }

  void line(const char* p, const char* e, size_t line) {
    while (p < e && is_blank(*p)) ++p;
    if (e - p < 2) return;
    char c0 = p[0], c1 = p[1];
    if (c0 == 'v') {
      if (is_blank(c1)) return vertex(p + 2, e);
      if (c1 == 't' && e - p > 2 && is_blank(p[2]))
        ++m_out.vt_count;
      else if (c1 == 'n' && e - p > 2 && is_blank(p[2]))
        ++m_out.vn_count;
      else if (c1 == 'w' && e - p > 2 && is_blank(p[2]))  // skin weights: see ObjScan
        m_out.skin_weight_offsets.push_back((size_t)(p - m_base));
      return;
    }
    if (!is_blank(c1)) return;
    if (c0 == 'f')
      face(p + 2, e, line);
    else if (c0 == 'l')
      ++m_out.line_count;
    else if (c0 == 'p')
      ++m_out.point_count;
    else if (c0 == 's')
      m_out.has_smoothing = true;
  }

  void finish() {
    static const char* kPlural[3] = {"vertices", "texture coordinates", "normals"};
    size_t have[3] = {m_out.v_count, m_out.vt_count, m_out.vn_count};
    for (int kind = 0; kind < 2; ++kind)
      if (m_max[kind] > have[kind])
        fail(m_max_line[kind], std::string(kind == 0 ? "vertex" : "texture coordinate") + " index " +
                                   std::to_string(m_max[kind]) + " out of range (the file has " +
                                   std::to_string(have[kind]) + " " + kPlural[kind] + ")");
    if (m_max[2] > have[2]) note_bad_normal(m_max_line[2]);
  }

 private:
  const std::string& m_path;
  ObjScan& m_out;
  const char* m_base;                // start of the text, for skin_weight_offsets
  size_t m_max[3] = {0, 0, 0};       // largest absolute index seen, per kind
  size_t m_max_line[3] = {0, 0, 0};  // line where it was first seen
};

}  // namespace

ObjScan scan_obj(const std::string& path, const char* data, size_t size) {
  const unsigned char* u = (const unsigned char*)data;
  if (size >= 2 && ((u[0] == 0xFF && u[1] == 0xFE) || (u[0] == 0xFE && u[1] == 0xFF)))
    throw LoadError(path + ": UTF-16 text is not supported (save the file as UTF-8 or ASCII)");
  ObjScan out;
  Scanner scanner(path, out, data);
  const char* p = data;
  const char* end = data + size;
  size_t line = 1;
  while (p < end) {
    const char* eol = p;
    // One pass per line finds its end and any byte no text file has.
    for (; eol < end; ++eol) {
      unsigned char c = (unsigned char)*eol;
      if (c >= 0x20) continue;
      if (c == '\n' || c == '\r') break;
      if (c == '\t' || c == '\f' || c == '\v') continue;
      if (c == 0 && line == 1 && (eol - data) < 4)
        throw LoadError(path + ":1: UTF-16 text is not supported (save the file as UTF-8 or ASCII)");
      throw LoadError(path + ":" + std::to_string(line) + ": binary data, not OBJ text (control byte " +
                      std::to_string(c) + ")");
    }
    scanner.line(p, eol, line);
    if (eol < end && *eol == '\r' && eol + 1 < end && eol[1] == '\n') ++eol;  // CRLF is one end
    p = eol + 1;
    ++line;
  }
  scanner.finish();
  return out;
}

}  // namespace facet::oracle
