// The glTF's JSON text checked before tinygltf reads it, in one pass of a scanner of its own (no
// tree built; a data: URI of many megabytes is skipped at memchr speed):
// - every value where glTF keeps an index (a scene's nodes, a node's children and mesh, a
//   primitive's attributes, indices and material, a material's textures, a texture's sampler and
//   image, a buffer view's buffer, ...) is a whole number from 0 to 2^31 - 1. tinygltf would cut
//   a larger one to 32 bits (4294967296 becomes 0) and read -1, a fraction or a string as "none":
//   a file would be drawn with another mesh or material than it names;
// - byte counts, offsets and element counts are whole numbers from 0 to 2^53;
// - no node has both a matrix and a translation, rotation or scale (tinygltf drops the latter);
// - the lengths of the top-level arrays and the required extensions are gathered.
// Keys are decoded as JSON defines (a key spelled with \u escapes is the same key). GltfError
// names the place as a JSON pointer and the value.
#pragma once
#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace facet {

struct JsonFacts {
  bool parsed = false;                    // false: not JSON (tinygltf then says why)
  std::vector<std::string> required;      // extensionsRequired
  std::map<std::string, size_t> lengths;  // of the top-level arrays ("nodes", "accessors", ...)
};

// The checks above; GltfError at the first problem. Expects text whose nesting is bounded
// (check_json_depth, gltf_files.h): the scanner recurses once a level.
JsonFacts check_json(const char* text, size_t size);

// A second pass for when tinygltf refuses the file: tinygltf checks a few indices itself (a
// primitive's indices, an image's buffer view) without naming them; this finds the first index
// past the end of its array and names it (GltfError), or returns.
void check_json_references(const char* text, size_t size, const JsonFacts& facts);

}  // namespace facet
