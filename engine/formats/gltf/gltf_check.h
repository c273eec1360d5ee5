// What glTF forbids, checked on the parsed model before anything is read or allocated for it
// (glTF 2.0 and the glTF-Validator's errors that concern geometry): every index the file names
// points at something that exists; the node hierarchy is a set of disjoint trees (no cycle, no
// node with two parents, no root that is also a child, no child named twice); buffer views lie
// inside their buffers and accessors inside their buffer views, aligned, with a stride no shorter
// than an element; the buffer view of indices has no byteStride; image files lie in the model's
// folder. Then the geometry of the default scene is counted with its instancing multiplied out,
// and refused above a bound before any of it is built. Every refusal names the element and the
// index or the amount at fault (GltfError). The JSON text itself is checked before tinygltf reads
// it (gltf_json.h).
#pragma once
#include <cstdint>
#include <vector>

namespace tinygltf {
class Model;
}

namespace facet {

class GltfFolder;

// Most triangles the default scene may hold once every node instance is multiplied out. A glTF can
// draw one mesh under many nodes, so a small file can ask for any amount: this is counted from
// the accessors before a triangle is built. 2^31 triangles make 24 GiB of indices alone in the
// flat scene and far more while loading (docs/formats.md).
constexpr uint64_t kMaxInstancedTriangles = uint64_t(1) << 31;

// Throws GltfError at the first thing glTF forbids (above). `folder` resolves image URIs.
void check_gltf(const tinygltf::Model& model, const GltfFolder& folder);

// The nodes the load draws from: the default scene's (scene `scene`, else scene 0), else every
// node without a parent. Expects a checked model.
std::vector<int> gltf_root_nodes(const tinygltf::Model& model);

// The default scene's size with its instancing multiplied out, counted from the accessors.
struct GltfSceneSize {
  uint64_t node_instances = 0, triangles = 0, vertices = 0;  // saturating at UINT64_MAX
};
GltfSceneSize count_scene(const tinygltf::Model& model, const std::vector<int>& roots);

// GltfError when the counted scene has more than kMaxInstancedTriangles triangles or more than
// 2^32 - 1 vertices (32-bit indices).
void check_scene_size(const GltfSceneSize& size);

}  // namespace facet
