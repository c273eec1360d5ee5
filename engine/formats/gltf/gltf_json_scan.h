// A JSON scanner of the glTF reader's own (gltf_json.h says why): one pass over the text, no tree
// built, strings decoded only where the checker asks for them (a data: URI of many megabytes is
// skipped at memchr speed). `Check` is told of every value, key and container: wants_string(),
// string(), skipped(), literal(), number(), start(), key(), end(). It recurses once a nesting
// level: the text's depth is bounded before (check_json_depth, gltf_files.h).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "engine/formats/gltf/gltf_accessors.h"
#include "engine/formats/gltf/gltf_files.h"

namespace facet {

inline void put_utf8(std::string& out, uint32_t c) {
  if (c < 0x80) {
    out += (char)c;
  } else if (c < 0x800) {
    out += (char)(0xC0 | (c >> 6));
    out += (char)(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += (char)(0xE0 | (c >> 12));
    out += (char)(0x80 | ((c >> 6) & 0x3F));
    out += (char)(0x80 | (c & 0x3F));
  } else {
    out += (char)(0xF0 | (c >> 18));
    out += (char)(0x80 | ((c >> 12) & 0x3F));
    out += (char)(0x80 | ((c >> 6) & 0x3F));
    out += (char)(0x80 | (c & 0x3F));
  }
}

// A JSON reader that builds nothing: it hands JsonCheck each key and value in order. Strings that
// no check wants are skipped with memchr. Returns false at the first thing that is not JSON.
template <class Check>
class JsonScanner {
 public:
  JsonScanner(const char* text, size_t size, Check& check) : m_p(text), m_n(size), m_check(check) {}

  bool run() {
    if (m_n >= 3 && std::memcmp(m_p, "\xEF\xBB\xBF", 3) == 0) m_pos = 3;  // a UTF-8 byte-order mark
    if (!value(0)) return false;
    space();
    return m_pos == m_n;
  }

 private:
  bool at(char c) const { return m_pos < m_n && m_p[m_pos] == c; }
  bool digit() const { return m_pos < m_n && m_p[m_pos] >= '0' && m_p[m_pos] <= '9'; }
  void space() {
    while (m_pos < m_n && (m_p[m_pos] == ' ' || m_p[m_pos] == '\t' || m_p[m_pos] == '\n' || m_p[m_pos] == '\r'))
      ++m_pos;
  }

  bool value(size_t depth) {
    space();
    if (m_pos >= m_n) return false;
    switch (m_p[m_pos]) {
      case '{':
      case '[':
        return container(depth + 1, m_p[m_pos] == '[');
      case '"':
        if (m_check.wants_string()) {
          std::string s;
          if (!string(&s)) return false;
          m_check.string(s);
        } else {
          if (!skip_string()) return false;
          m_check.skipped();
        }
        return true;
      case 't':
        return literal("true");
      case 'f':
        return literal("false");
      case 'n':
        return literal("null");
      default:
        return number();
    }
  }

  bool container(size_t depth, bool array) {
    if (depth > kMaxJsonDepth)  // check_json_depth has refused such a text already
      throw GltfError("JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels (at byte " +
                      std::to_string(m_pos) + ")");
    const char close = array ? ']' : '}';
    m_check.start(array);
    ++m_pos;
    space();
    if (at(close)) {
      ++m_pos;
      m_check.end();
      return true;
    }
    for (;;) {
      if (!array) {
        space();
        std::string key;
        if (!at('"') || !string(&key)) return false;
        space();
        if (!at(':')) return false;
        ++m_pos;
        m_check.key(key);
      }
      if (!value(depth)) return false;
      space();
      if (at(',')) {
        ++m_pos;
      } else if (at(close)) {
        ++m_pos;
        m_check.end();
        return true;
      } else {
        return false;
      }
    }
  }

  // Past the string at m_pos (its opening quote): a quote ends it unless an odd number of
  // backslashes stands before it.
  bool skip_string() {
    const size_t start = ++m_pos;
    for (;;) {
      const void* q = std::memchr(m_p + m_pos, '"', m_n - m_pos);
      if (!q) return false;
      const size_t quote = (size_t)(static_cast<const char*>(q) - m_p);
      size_t backslashes = 0;
      while (quote - backslashes > start && m_p[quote - backslashes - 1] == '\\') ++backslashes;
      m_pos = quote + 1;
      if (backslashes % 2 == 0) return true;
    }
  }

  bool hex4(uint32_t* out) {
    if (m_n - m_pos < 4) return false;
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = m_p[m_pos++];
      v <<= 4;
      if (c >= '0' && c <= '9')
        v |= (uint32_t)(c - '0');
      else if (c >= 'a' && c <= 'f')
        v |= (uint32_t)(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        v |= (uint32_t)(c - 'A' + 10);
      else
        return false;
    }
    *out = v;
    return true;
  }

  // The string at m_pos decoded as JSON defines it (escapes, \u with surrogate pairs, as UTF-8).
  bool string(std::string* out) {
    ++m_pos;
    // Most strings (keys) hold no escape: taken whole.
    if (const void* q = std::memchr(m_p + m_pos, '"', m_n - m_pos)) {
      const size_t quote = (size_t)(static_cast<const char*>(q) - m_p);
      if (!std::memchr(m_p + m_pos, '\\', quote - m_pos)) {
        out->assign(m_p + m_pos, quote - m_pos);
        m_pos = quote + 1;
        return true;
      }
    }
    while (m_pos < m_n) {
      const char c = m_p[m_pos++];
      if (c == '"') return true;
      if (c != '\\') {
        *out += c;
        continue;
      }
      if (m_pos >= m_n) return false;
      const char e = m_p[m_pos++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          *out += e;
          break;
        case 'b':
          *out += '\b';
          break;
        case 'f':
          *out += '\f';
          break;
        case 'n':
          *out += '\n';
          break;
        case 'r':
          *out += '\r';
          break;
        case 't':
          *out += '\t';
          break;
        case 'u': {
          uint32_t u;
          if (!hex4(&u)) return false;
          if (u >= 0xD800 && u <= 0xDBFF) {  // a high surrogate: its low half must follow
            uint32_t low;
            if (m_n - m_pos < 6 || m_p[m_pos] != '\\' || m_p[m_pos + 1] != 'u') return false;
            m_pos += 2;
            if (!hex4(&low) || low < 0xDC00 || low > 0xDFFF) return false;
            u = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00);
          } else if (u >= 0xDC00 && u <= 0xDFFF) {
            return false;
          }
          put_utf8(*out, u);
          break;
        }
        default:
          return false;
      }
    }
    return false;
  }

  bool literal(const char* word) {
    const size_t len = std::strlen(word);
    if (m_n - m_pos < len || std::memcmp(m_p + m_pos, word, len) != 0) return false;
    m_pos += len;
    m_check.literal(word);
    return true;
  }

  bool number() {
    const size_t start = m_pos;
    const bool negative = at('-');
    if (negative) ++m_pos;
    if (!digit()) return false;
    uint64_t v = 0;
    bool overflow = false;
    for (; digit(); ++m_pos) {
      const uint64_t d = (uint64_t)(m_p[m_pos] - '0');
      if (v > (UINT64_MAX - d) / 10)
        overflow = true;
      else
        v = v * 10 + d;
    }
    bool integer = true;
    if (at('.')) {
      integer = false;
      ++m_pos;
      if (!digit()) return false;
      while (digit()) ++m_pos;
    }
    if (at('e') || at('E')) {
      integer = false;
      ++m_pos;
      if (at('+') || at('-')) ++m_pos;
      if (!digit()) return false;
      while (digit()) ++m_pos;
    }
    m_check.number(std::string_view(m_p + start, m_pos - start), integer, negative, v, overflow);
    return true;
  }

  const char* m_p;
  size_t m_n;
  size_t m_pos = 0;
  Check& m_check;
};

}  // namespace facet
