// The glTF's JSON checked before tinygltf reads it (gltf_json.h).
#include "engine/formats/gltf/gltf_json.h"

#include <cstdint>
#include <cstring>
#include <string_view>

#include "engine/formats/gltf/gltf_accessors.h"
#include "engine/formats/gltf/gltf_files.h"
#include "engine/formats/gltf/gltf_json_places.h"
#include "engine/formats/gltf/gltf_json_scan.h"
#include "engine/formats/gltf/gltf_messages.h"

namespace facet {

namespace {

std::string str(uint64_t v) { return std::to_string(v); }

// Largest size or count (bytes, elements): 2^53, the last whole number a JSON reader keeps exactly.
constexpr uint64_t kMaxJsonSize = uint64_t(1) << 53;

// What is checked at each value the scanner reads (the places above), and what is gathered.
// With `counts` (the lengths from a first pass), indices are also checked against them.
class JsonCheck {
 public:
  explicit JsonCheck(const std::map<std::string, size_t>* counts) : m_counts(counts) {}
  std::vector<std::string> required;      // extensionsRequired
  std::map<std::string, size_t> lengths;  // of the top-level arrays

  // Whether the string value about to be read is wanted decoded (string() then; else skipped()).
  bool wants_string() const { return in_required() || place_here(); }
  void string(const std::string& v) {
    if (in_required()) required.push_back(v);
    if (const Place* p = place_here()) refuse(*p, "is " + quoted(v, 40));
    next();
  }
  void skipped() { next(); }
  void literal(const char* word) {
    if (const Place* p = place_here()) refuse(*p, std::string("is ") + word);
    next();
  }
  // A number: its text, whether it is written as an integer, its sign, and its magnitude (when
  // it fits 64 bits).
  void number(std::string_view text, bool integer, bool negative, uint64_t v, bool overflow) {
    if (const Place* p = place_here()) {
      const std::string shown = text.size() <= 40
                                    ? std::string(text)
                                    : std::string(text.substr(0, 40)) + "... (" + str(text.size()) + " characters)";
      if (!integer || overflow || (negative && v != 0) || v > (p->target ? (uint64_t)INT32_MAX : kMaxJsonSize))
        refuse(*p, "is " + shown);
      if (p->target && !p->local && m_counts) {
        auto it = m_counts->find(p->target);
        const size_t n = it == m_counts->end() ? 0 : it->second;
        if (v >= n) {
          const std::string target = p->target;
          const std::string kind = target == "meshes" ? "mesh" : target.substr(0, target.size() - 1);
          throw GltfError(pointer() + ": " + kind + " " + str(v) + " does not exist (the file has " + str(n) + ")");
        }
      }
    }
    next();
  }
  void start(bool array) {
    if (const Place* p = place_here()) refuse(*p, array ? "is an array" : "is an object");
    if (!array && m_top == Top::kNodes && m_frames.size() == 2 && m_frames[1].array)
      m_matrix = m_trs = false;  // a node
    m_frames.push_back({array, "", 0});
  }
  void key(const std::string& k) {
    m_frames.back().key = k;
    if (m_frames.size() == 1) {
      auto it = compiled_places().find(k);
      m_places = it == compiled_places().end() ? nullptr : &it->second;
      m_top = k == "nodes" ? Top::kNodes : k == "extensionsRequired" ? Top::kRequired : Top::kOther;
    }
    // tinygltf keeps a node's matrix and drops its translation, rotation and scale silently.
    if (m_top == Top::kNodes && m_frames.size() == 3 && m_frames[1].array) {
      m_matrix |= k == "matrix";
      m_trs |= k == "translation" || k == "rotation" || k == "scale";
      if (m_matrix && m_trs)
        throw GltfError("node " + str(m_frames[1].index) +
                        " has both a matrix and a translation, rotation or scale (glTF allows one or the other)");
    }
  }
  void end() {
    if (m_frames.size() == 2 && m_frames.back().array) lengths[m_frames[0].key] = m_frames.back().index;
    m_frames.pop_back();
    if (m_frames.empty()) {
      m_places = nullptr;
      m_top = Top::kOther;
    }
    next();
  }

 private:
  struct Frame {
    bool array;
    std::string key;  // an object's current key
    size_t index;     // an array's current element
  };

  static bool matches(const Part& part, const Frame& f) {
    if (part.element || f.array) return part.element && f.array;
    if (part.any) return true;
    for (const std::string& k : part.keys)
      if (k == f.key) return true;
    return false;
  }

  bool in_required() const { return m_top == Top::kRequired && m_frames.size() == 2 && m_frames[1].array; }

  // The place of the value now read, when glTF keeps an index or a size there. (The top-level key
  // picked the candidates; their first part is that key.)
  const Place* place_here() const {
    if (!m_places) return nullptr;
    for (const CompiledPlace& p : *m_places) {
      if (p.parts.size() != m_frames.size()) continue;
      size_t k = 1;
      while (k < p.parts.size() && matches(p.parts[k], m_frames[k])) ++k;
      if (k == p.parts.size()) return p.place;
    }
    return nullptr;
  }

  // The place now read as a JSON pointer ("/meshes/0/primitives/1/material").
  std::string pointer() const {
    std::string s;
    for (const Frame& f : m_frames) s += "/" + (f.array ? str(f.index) : word_or_quoted(f.key, 32));
    return s;
  }

  [[noreturn]] void refuse(const Place& p, const std::string& what) const {
    throw GltfError("the JSON's " + pointer() + " " + what +
                    (!p.target ? ", not a size (glTF: a whole number from 0; facet reads up to 2^53)"
                               : ", not an index (glTF: a whole number from 0 to " + str(INT32_MAX) + ")"));
  }

  void next() {
    if (!m_frames.empty() && m_frames.back().array) ++m_frames.back().index;
  }

  enum class Top { kOther, kNodes, kRequired };  // the top-level key now read

  const std::map<std::string, size_t>* m_counts;
  std::vector<Frame> m_frames;
  const std::vector<CompiledPlace>* m_places = nullptr;  // under the top-level key now read
  Top m_top = Top::kOther;
  bool m_matrix = false, m_trs = false;  // the node now read has them
};

}  // namespace

JsonFacts check_json(const char* text, size_t size) {
  JsonCheck check(nullptr);
  JsonFacts facts;
  facts.parsed = JsonScanner<JsonCheck>(text, size, check).run();
  facts.required = std::move(check.required);
  facts.lengths = std::move(check.lengths);
  return facts;
}

void check_json_references(const char* text, size_t size, const JsonFacts& facts) {
  if (!facts.parsed) return;
  JsonCheck check(&facts.lengths);
  JsonScanner<JsonCheck>(text, size, check).run();
}

}  // namespace facet
