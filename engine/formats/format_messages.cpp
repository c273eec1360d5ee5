// Quoting the file's strings, escaping paths and counting repeated warnings (format_messages.h).
#include "engine/formats/format_messages.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "engine/scene/scene.h"

namespace facet {

namespace {

void hex_byte(std::string& out, unsigned char c) {
  static const char* k = "0123456789ABCDEF";
  out += "\\x";
  out += k[c >> 4];
  out += k[c & 15];
}

// Length of the well-formed UTF-8 character at s[i] (1..4), or 0 when the bytes there are not one.
size_t utf8_length(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return i + k < s.size() ? (unsigned char)s[i + k] : 0u; };
  const unsigned c = b(0);
  const auto cont = [&](size_t k, unsigned lo = 0x80, unsigned hi = 0xBF) { return b(k) >= lo && b(k) <= hi; };
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c == 0xE0) return cont(1, 0xA0) && cont(2) ? 3 : 0;
  if (c == 0xED) return cont(1, 0x80, 0x9F) && cont(2) ? 3 : 0;  // no surrogates
  if (c >= 0xE1 && c <= 0xEF) return cont(1) && cont(2) ? 3 : 0;
  if (c == 0xF0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (c >= 0xF1 && c <= 0xF3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (c == 0xF4) return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

// A character a terminal acts on rather than shows: C0 and C1 controls, DEL, and the
// bidirectional overrides and isolates (U+202A..U+202E, U+2066..U+2069).
bool acts_on_terminal(std::string_view s, size_t i, size_t n) {
  const unsigned char c = (unsigned char)s[i];
  if (n == 1) return c < 0x20 || c == 0x7F;
  if (n == 2) return c == 0xC2 && (unsigned char)s[i + 1] < 0xA0;
  if (n == 3 && c == 0xE2) {
    const unsigned char c1 = (unsigned char)s[i + 1], c2 = (unsigned char)s[i + 2];
    return (c1 == 0x80 && c2 >= 0xAA && c2 <= 0xAE) || (c1 == 0x81 && c2 >= 0xA6 && c2 <= 0xA9);
  }
  return false;
}

// Escapes s[0, max_bytes) (whole characters) into `out`; whether all of `s` fitted.
bool escape_into(std::string& out, std::string_view s, size_t max_bytes, bool escape_quotes) {
  size_t i = 0;
  while (i < s.size()) {
    size_t n = utf8_length(s, i);
    const size_t take = n ? n : 1;
    if (i + take > max_bytes) return false;
    const char c = s[i];
    if (n == 0 || acts_on_terminal(s, i, n)) {
      if (c == '\n') {
        out += "\\n";
      } else if (c == '\t') {
        out += "\\t";
      } else if (c == '\r') {
        out += "\\r";
      } else {
        for (size_t k = 0; k < take; ++k) hex_byte(out, (unsigned char)s[i + k]);
      }
    } else if (escape_quotes && (c == '\\' || c == '\'')) {
      out += '\\';
      out += c;
    } else {
      out.append(s.substr(i, take));
    }
    i += take;
  }
  return true;
}

}  // namespace

std::string quoted(std::string_view s, size_t max_bytes) {
  std::string out = "'";
  const bool whole = escape_into(out, s, max_bytes, true);
  out += '\'';
  if (!whole) out += "... (" + std::to_string(s.size()) + " bytes)";
  return out;
}

std::string word_or_quoted(std::string_view s, size_t max_bytes) {
  const bool word = !s.empty() && s.size() <= max_bytes && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
  return word ? std::string(s) : quoted(s, max_bytes);
}

std::string shown_path(std::string_view path) {
  std::string out;
  escape_into(out, path, path.size(), false);
  return out;
}

size_t first_binary_byte(std::string_view text) {
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = (unsigned char)text[i];
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F) return i;
  }
  return std::string_view::npos;
}

std::string binary_byte(std::string_view data, size_t at) {
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02X", (unsigned)(unsigned char)data[at]);
  return "byte " + std::to_string(at) + " is " + hex;
}

std::string safe_line(std::string_view s, size_t max_bytes) {
  size_t start = s.find_first_not_of(" \n\r\t");
  if (start == std::string::npos) return "";
  size_t end = s.find_first_of("\r\n", start);
  std::string_view line = s.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
  std::string out;
  if (!escape_into(out, line, max_bytes, false)) out += "... (" + std::to_string(line.size()) + " bytes)";
  return out;
}

namespace {

// What stays the same between warnings of one kind from code that does not count its own: the
// words, with quoted names ('...'), parenthesised details ((...)) and numbers (N) set aside. It is
// both the key such warnings are counted by and how their count line names them.
std::string form_of(const std::string& message) {
  std::string form;
  int depth = 0;
  bool in_quote = false;
  for (size_t i = 0; i < message.size(); ++i) {
    const char c = message[i];
    const bool starts_quote = c == '\'' && (i == 0 || message[i - 1] == ' ' || message[i - 1] == '(');
    const bool digit = c >= '0' && c <= '9';
    if (in_quote) {
      in_quote = c != '\'';
    } else if (depth == 0 && starts_quote) {
      in_quote = true;
      form += "'...'";
    } else if (c == '(') {
      if (depth++ == 0) form += "(...)";
    } else if (c == ')' && depth > 0) {
      --depth;
    } else if (depth == 0 && !(digit && !form.empty() && form.back() == 'N')) {
      form += digit ? 'N' : c;
    }
  }
  return form;
}

}  // namespace

void FormatWarnings::keep(const std::string& key, const std::string& name, std::string message) {
  auto [it, added] = m_at.emplace(key, m_kinds.size());
  if (added) m_kinds.push_back({name, 0});
  if (++m_kinds[it->second].count <= kShown) m_kept.push_back(std::move(message));
}

void FormatWarnings::add(const std::string& kind, const std::string& text) { keep(kind, kind, m_path + ": " + text); }

void FormatWarnings::add_at_line(const std::string& kind, uint64_t line, const std::string& text) {
  keep(kind, kind, m_path + ":" + std::to_string(line) + ": " + text);
}

void FormatWarnings::add_foreign(const std::string& message) {
  std::string safe = safe_line(message, kMaxForeignMessageBytes);
  // The file's path is in every count line already (and its digits are no number to set aside).
  const bool ours = safe.rfind(m_path + ": ", 0) == 0;
  const std::string form = form_of(ours ? safe.substr(m_path.size() + 2) : safe);
  // A leading "\x01" keeps forms apart from the kinds readers name.
  const std::string key = "\x01" + form;
  if (!m_at.count(key) && m_foreign_forms == kMaxForeignForms) {
    keep("\x02", "other warnings", std::move(safe));
    return;
  }
  if (!m_at.count(key)) ++m_foreign_forms;
  keep(key, "warnings of the form \"" + safe_line(form, 120) + "\"", std::move(safe));
}

size_t FormatWarnings::count(const std::string& kind) const {
  auto it = m_at.find(kind);
  return it == m_at.end() ? 0 : m_kinds[it->second].count;
}

void FormatWarnings::finish(std::vector<std::string>& out) {
  for (std::string& w : m_kept) out.push_back(std::move(w));
  for (const Kind& k : m_kinds)
    if (k.count > kShown)
      out.push_back(m_path + ": " + std::to_string(k.count - kShown) + " more " + k.name + " (" +
                    std::to_string(k.count) + " in all; the first " + std::to_string(kShown) + " are named)");
  m_kept.clear();
  m_kinds.clear();
  m_at.clear();
  m_foreign_forms = 0;
}

void FormatWarnings::finish(Scene& scene) { finish(scene.warnings); }

}  // namespace facet
