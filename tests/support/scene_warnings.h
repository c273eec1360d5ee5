// What tests ask of a load's warnings: how many mention a piece of text, and whether any does.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "engine/scene/scene.h"

namespace facet::test {

inline int warnings_containing(const std::vector<std::string>& warnings, const std::string& part) {
  int n = 0;
  for (const std::string& w : warnings) n += w.find(part) != std::string::npos;
  return n;
}
inline int warnings_containing(const Scene& s, const std::string& part) {
  return warnings_containing(s.warnings, part);
}
inline bool any_warning_contains(const Scene& s, const std::string& part) { return warnings_containing(s, part) > 0; }
// The scene cache's own warnings, of which a load gives at most one.
inline int cache_warnings(const Scene& s) { return warnings_containing(s, "scene cache"); }
inline int cache_warnings(const std::vector<std::string>& warnings) {
  return warnings_containing(warnings, "scene cache");
}

}  // namespace facet::test
