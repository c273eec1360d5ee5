// What every model reader says about a file, made safe to print: the file's own strings quoted
// (control characters and bytes that are not UTF-8 escaped, cut short), paths escaped, and
// warnings that repeat for many elements (faces, materials, lines) given a few times, then as a
// count. Readers build their messages with these; docs/formats.md states the rules.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace facet {

struct Scene;

// Longest piece of a string from the file that a message repeats, in bytes.
constexpr size_t kMaxQuotedBytes = 80;
// Longest message taken from code that builds its own (MTL problems, texture failures), in bytes:
// what is past it is cut, so that no message echoes more than a few hundred bytes of the file.
constexpr size_t kMaxForeignMessageBytes = 500;
// Forms of such messages counted apart; the rest are counted together as "other warnings", so
// that messages whose forms differ every time (names with quotes in them) cannot flood either.
constexpr size_t kMaxForeignForms = 8;

// `s` between single quotes, at most `max_bytes` of it (then "... (N bytes)"), with control
// characters, C1 controls and bytes that are not UTF-8 written as \n, \t, \r or \xNN, and
// backslashes and quotes escaped: safe to print to a terminal, never longer than about 4x max_bytes.
std::string quoted(std::string_view s, size_t max_bytes = kMaxQuotedBytes);

// `s` as it is when it is a plain word (letters, digits and underscores: POSITION, TEXCOORD_0,
// KHR_mesh_quantization, at most `max_bytes`), else quoted().
std::string word_or_quoted(std::string_view s, size_t max_bytes = kMaxQuotedBytes);

// A message from elsewhere (tinygltf, another reader's step) reduced to its first line, at most
// `max_bytes`, with control characters escaped as in quoted() (no quotes around it).
std::string safe_line(std::string_view s, size_t max_bytes = 200);

// Where the first byte of `text` that no text file holds is (a control character other than a
// tab or a line end, or DEL), or npos: how a reader tells a binary file from a text one.
size_t first_binary_byte(std::string_view text);
// "byte 81 is 0x00": the byte at `at` of `data`, for a message about where text stopped.
std::string binary_byte(std::string_view data, size_t at);

// A path as messages show it: whole (the user chose it), control characters escaped, no quotes,
// so that a name holding a newline or an escape sequence cannot forge or hide a line.
std::string shown_path(std::string_view path);

// Warnings of one load by kind: the first kShown of each kind are kept, in the order given;
// finish() adds them with one line a kind for the rest ("N more KIND (M in all; ...)").
class FormatWarnings {
 public:
  static constexpr size_t kShown = 3;
  // `path`: the file the warnings are about, as given (it is shown through shown_path).
  explicit FormatWarnings(const std::string& path) : m_path(shown_path(path)) {}
  // `kind`: a few words naming what repeats ("faces naming missing vertices"), used in the count
  // line; `text`: the warning without the path.
  void add(const std::string& kind, const std::string& text);
  // The same, for a warning about one line of the file: "PATH:LINE: text".
  void add_at_line(const std::string& kind, uint64_t line, const std::string& text);
  // A whole warning built by code that does not count its own: escaped and cut to
  // kMaxForeignMessageBytes, and counted with those of the same form (the same words once quoted
  // names, parenthesised details and numbers are set aside), whose count line shows that form:
  // "N more warnings of the form \"material library '...' cannot be read (...)\"".
  void add_foreign(const std::string& message);
  // Every warning given so far of `kind`.
  size_t count(const std::string& kind) const;
  // Appends the kept warnings, then a count line for each kind with more, and starts afresh.
  void finish(std::vector<std::string>& out);
  void finish(Scene& scene);

 private:
  struct Kind {
    std::string name;  // what the count line calls them
    size_t count = 0;  // warnings given
  };
  // Counts one warning under `key` (named `name` when first seen); keeps it while few.
  void keep(const std::string& key, const std::string& name, std::string message);

  std::string m_path;                  // shown_path of the file
  std::vector<std::string> m_kept;     // in the order given
  std::vector<Kind> m_kinds;           // in the order first seen
  std::map<std::string, size_t> m_at;  // key (a kind, or a foreign message's form) -> index in m_kinds
  size_t m_foreign_forms = 0;          // forms of foreign messages seen
};

}  // namespace facet
