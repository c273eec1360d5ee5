// What the glTF reader says about a file: its own strings quoted safely (control characters and
// bytes that are not UTF-8 escaped, cut short), and warnings that repeat for many elements (one a
// material, one a primitive) given a few times, then as a count.
#pragma once
#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace facet {

struct Scene;

// Longest piece of a string from the file that a message repeats, in bytes.
constexpr size_t kMaxQuotedBytes = 80;

// `s` between single quotes, at most `max_bytes` of it (then "... (N bytes)"), with control
// characters, C1 controls and bytes that are not UTF-8 written as \n, \t, \r or \xNN, and
// backslashes and quotes escaped: safe to print to a terminal, never longer than about 4x max_bytes.
std::string quoted(const std::string& s, size_t max_bytes = kMaxQuotedBytes);

// `s` as it is when it is a plain word (letters, digits and underscores: POSITION, TEXCOORD_0,
// KHR_mesh_quantization, at most `max_bytes`), else quoted().
std::string word_or_quoted(const std::string& s, size_t max_bytes = kMaxQuotedBytes);

// A message from elsewhere (tinygltf) reduced to its first line, at most `max_bytes`, with
// control characters escaped as in quoted() (no quotes around it).
std::string safe_line(const std::string& s, size_t max_bytes = 200);

// Warnings of one load by kind: the first kShown of each kind are kept, in the order given;
// finish() adds them to the scene with one line a kind for the rest ("... and N more").
class GltfWarnings {
 public:
  static constexpr size_t kShown = 3;
  explicit GltfWarnings(std::string path) : m_path(std::move(path)) {}
  // `kind`: a few words naming what repeats ("textures that cannot be read"); `text`: the
  // warning without the path.
  void add(const std::string& kind, const std::string& text);
  void finish(Scene& scene);

 private:
  std::string m_path;
  std::vector<std::string> m_kept;
  std::vector<std::string> m_kinds;        // in the order first seen
  std::map<std::string, size_t> m_counts;  // warnings of each kind
};

}  // namespace facet
