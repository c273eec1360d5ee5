// Reading glTF accessors (tinygltf's Model) into plain arrays, every byte range checked against
// its buffer view and buffer first: a file that points outside its buffers is refused with the
// accessor named, never read out of bounds. Sparse accessors are applied. Meshes, nodes and
// materials are gltf_loader.cpp's.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace tinygltf {
class Model;
}

namespace facet {

// A problem with the file's content; gltf_loader.cpp prefixes the path.
class GltfError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Accessor `index` as `components` floats per element (1..4), normalised integers converted to
// 0..1 or -1..1 as glTF defines; `what` names the use in messages ("POSITION of mesh 0 ...").
// Throws GltfError when the accessor does not exist, has another element size, or reads past
// its data.
std::vector<float> read_accessor_floats(const tinygltf::Model& model, int index, int components,
                                        const std::string& what);

// Accessor `index` as vertex indices (unsigned byte, short or int scalars), each checked to be
// below `vertex_count`.
std::vector<uint32_t> read_accessor_indices(const tinygltf::Model& model, int index, size_t vertex_count,
                                            const std::string& what);

// Element count of accessor `index` (GltfError when it does not exist).
size_t accessor_count(const tinygltf::Model& model, int index, const std::string& what);

// Whether accessor `index` has any data: a buffer view or sparse values (without either, every
// element is zero).
bool accessor_has_data(const tinygltf::Model& model, int index, const std::string& what);

}  // namespace facet
