// The defaults file's TOML subset (defaults_file.h): one pass over the text with a cursor; a line
// that breaks the grammar is recorded and skipped.
#include "app/defaults_file.h"

#include <cstdint>
#include <map>
#include <utility>

#include "engine/formats/format_messages.h"

namespace facet {

namespace {

bool bare_key_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

// A Unicode scalar value as UTF-8.
void put_utf8(std::string& out, uint32_t c) {
  if (c < 0x80) return out.push_back((char)c);
  const int tail = c < 0x800 ? 1 : c < 0x10000 ? 2 : 3;
  out.push_back((char)(((0xF0 << (3 - tail)) & 0xFF) | (c >> (6 * tail))));
  for (int i = tail - 1; i >= 0; --i) out.push_back((char)(0x80 | ((c >> (6 * i)) & 0x3F)));
}

// Thrown inside a line; the reader records it and skips to the line's end.
struct LineProblem {
  std::string message;
};

class Reader {
 public:
  explicit Reader(const std::string& text) : m_t(text) {}

  DefaultsText run() {
    while (m_p < m_t.size()) {
      const int line = m_line;
      try {
        statement();
      } catch (const LineProblem& p) {
        m_out.problems.push_back({line, p.message});
        skip_to_line_end();
      }
      if (m_p < m_t.size()) ++m_p, ++m_line;  // the newline
    }
    return std::move(m_out);
  }

 private:
  bool at_end_of_line() const { return m_p >= m_t.size() || m_t[m_p] == '\n'; }
  char peek() const { return m_p < m_t.size() ? m_t[m_p] : '\0'; }
  void blanks() {
    while (m_p < m_t.size() && (m_t[m_p] == ' ' || m_t[m_p] == '\t' || m_t[m_p] == '\r')) ++m_p;
  }
  void skip_to_line_end() {
    while (!at_end_of_line()) ++m_p;
  }
  // Blanks, then nothing or a comment up to the line's end.
  void line_end() {
    blanks();
    if (peek() == '#') skip_to_line_end();
    if (!at_end_of_line()) throw LineProblem{"unexpected text after the value: " + facet::quoted(rest_of_line())};
  }
  std::string rest_of_line() const {
    const size_t end = m_t.find('\n', m_p);
    return m_t.substr(m_p, (end == std::string::npos ? m_t.size() : end) - m_p);
  }

  void statement() {
    blanks();
    if (at_end_of_line() || peek() == '#') return skip_to_line_end();
    if (peek() == '[') return header();
    key_value();
  }

  void header() {
    ++m_p;
    if (peek() == '[') throw LineProblem{"arrays of tables ([[...]]) are not option sections"};
    blanks();
    std::vector<std::string> parts = dotted_key();
    blanks();
    if (peek() != ']') throw LineProblem{"a section header must end with ]"};
    ++m_p;
    line_end();
    if (parts.size() != 1) throw LineProblem{"nested sections are not option sections: " + facet::quoted(join(parts))};
    m_section = parts[0];
  }

  void key_value() {
    const int line = m_line;
    std::vector<std::string> parts = dotted_key();
    blanks();
    if (peek() != '=') throw LineProblem{"expected key = value"};
    ++m_p;
    blanks();
    DefaultsValue v;
    v.line = line;
    if (parts.size() == 1) {
      v.section = m_section, v.key = parts[0];
    } else if (parts.size() == 2 && m_section.empty()) {
      v.section = parts[0], v.key = parts[1];
    } else {
      throw LineProblem{"nested keys are not options: " + facet::quoted(join(parts))};
    }
    value(v);
    line_end();
    const auto [it, fresh] = m_seen.emplace(std::make_pair(v.section, v.key), line);
    if (!fresh)
      throw LineProblem{"key " + facet::quoted(v.key) + " repeats line " + std::to_string(it->second) +
                        "; the first one counts"};
    m_out.values.push_back(std::move(v));
  }

  std::vector<std::string> dotted_key() {
    std::vector<std::string> parts;
    for (;;) {
      blanks();
      if (peek() == '"') {
        parts.push_back(basic_string());
      } else if (peek() == '\'') {
        parts.push_back(literal_string());
      } else {
        const size_t from = m_p;
        while (m_p < m_t.size() && bare_key_char(m_t[m_p])) ++m_p;
        if (m_p == from) throw LineProblem{"expected a key, got " + facet::quoted(rest_of_line())};
        parts.push_back(m_t.substr(from, m_p - from));
      }
      blanks();
      if (peek() != '.') return parts;
      ++m_p;
    }
  }

  void value(DefaultsValue& v) {
    if (peek() == '[') {
      v.array = true;
      ++m_p;
      for (;;) {
        array_space();
        if (peek() == ']') break;
        v.values.push_back(scalar(true));
        array_space();
        if (peek() == ',') {
          ++m_p;
        } else if (peek() != ']') {
          throw LineProblem{"expected , or ] in the array"};
        }
      }
      ++m_p;
      return;
    }
    if (peek() == '{') throw LineProblem{"inline tables are not option values"};
    v.values.push_back(scalar(false));
  }

  // Inside an array: blanks, newlines and comments.
  void array_space() {
    for (;;) {
      blanks();
      if (peek() == '#') skip_to_line_end();
      if (m_p >= m_t.size()) throw LineProblem{"the array is not closed with ] before the file ends"};
      if (m_t[m_p] != '\n') return;
      ++m_p, ++m_line;
    }
  }

  std::string scalar(bool in_array) {
    if (peek() == '"') return basic_string();
    if (peek() == '\'') return literal_string();
    if (peek() == '[') throw LineProblem{"arrays inside arrays are not option values"};
    const size_t from = m_p;
    while (!at_end_of_line() && peek() != '#' && !(in_array && (peek() == ',' || peek() == ']' || peek() == ' ')))
      ++m_p;
    size_t end = m_p;
    while (end > from && (m_t[end - 1] == ' ' || m_t[end - 1] == '\t' || m_t[end - 1] == '\r')) --end;
    if (end == from) throw LineProblem{"the key has no value"};
    return m_t.substr(from, end - from);
  }

  std::string literal_string() {
    ++m_p;
    const size_t from = m_p;
    while (!at_end_of_line() && peek() != '\'') ++m_p;
    if (peek() != '\'') throw LineProblem{"a string in ' quotes is not closed on its line"};
    return m_t.substr(from, m_p++ - from);
  }

  std::string basic_string() {
    ++m_p;
    if (m_t.compare(m_p, 2, "\"\"") == 0) throw LineProblem{"multi-line strings (\"\"\") are not option values"};
    std::string out;
    for (;;) {
      if (at_end_of_line()) throw LineProblem{"a string in \" quotes is not closed on its line"};
      const char c = m_t[m_p++];
      if (c == '"') return out;
      if ((unsigned char)c < 0x20 && c != '\t') throw LineProblem{"a control character inside a string"};
      if (c != '\\') {
        out += c;
        continue;
      }
      escape(out);
    }
  }

  void escape(std::string& out) {
    if (at_end_of_line()) throw LineProblem{"a string in \" quotes is not closed on its line"};
    const char e = peek();
    ++m_p;
    switch (e) {
      case '"':
        out += '"';
        return;
      case '\\':
        out += '\\';
        return;
      case 'n':
        out += '\n';
        return;
      case 't':
        out += '\t';
        return;
      case 'r':
        out += '\r';
        return;
      case 'b':
        out += '\b';
        return;
      case 'f':
        out += '\f';
        return;
      case 'u':
      case 'U': {
        const size_t digits = e == 'u' ? 4 : 8;
        uint32_t code = 0;
        for (size_t i = 0; i < digits; ++i, ++m_p) {
          const char h = peek();
          const int d = h >= '0' && h <= '9'   ? h - '0'
                        : h >= 'a' && h <= 'f' ? h - 'a' + 10
                        : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                               : -1;
          if (d < 0) throw LineProblem{"a \\u escape needs hexadecimal digits"};
          code = code * 16 + (uint32_t)d;
        }
        // NUL would end the value where the system reads it (a path) but not where facet checks it.
        if (code == 0) throw LineProblem{"a \\u escape for NUL: a value cannot hold one"};
        if (code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
          throw LineProblem{"a \\u escape that is no Unicode scalar value"};
        put_utf8(out, code);
        return;
      }
      default:
        throw LineProblem{"an unknown escape in a string"};
    }
  }

  static std::string join(const std::vector<std::string>& parts) {
    std::string s;
    for (const std::string& p : parts) s += (s.empty() ? "" : ".") + p;
    return s;
  }

  const std::string& m_t;
  size_t m_p = 0;
  int m_line = 1;
  std::string m_section;
  std::map<std::pair<std::string, std::string>, int> m_seen;  // (section, key) -> line
  DefaultsText m_out;
};

}  // namespace

DefaultsText parse_defaults_text(const std::string& text) { return Reader(text).run(); }

}  // namespace facet
