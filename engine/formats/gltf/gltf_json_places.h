// Where glTF keeps an index or a byte count in its JSON, as paths from the root, for the JSON
// check (gltf_json.cpp) to match each value it reads against.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace facet {

// A place in the JSON where glTF keeps an index into the top-level array `target` (or, with no
// target, a byte count, offset or element count), as the path from the root: "*" an array's
// element, "?" any key, "a|b" either key. `local`: an index into an array of its own parent (an
// animation's samplers), checked by check_gltf.
struct Place {
  std::vector<std::string> parts;
  const char* target = nullptr;
  bool local = false;
};

// A Place's part as matched: an array's element, any key, or one of a few keys.
struct Part {
  bool element = false, any = false;
  std::vector<std::string> keys;
};
struct CompiledPlace {
  std::vector<Part> parts;
  const Place* place;
};

// The places, by the top-level key they are under, each part split into its alternatives.
const std::map<std::string, std::vector<CompiledPlace>>& compiled_places();

}  // namespace facet
