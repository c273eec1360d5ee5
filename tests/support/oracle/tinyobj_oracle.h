// The differential tests' oracle: an OBJ loaded by a path independent of facet's own parser (a
// validating scan, tinyobjloader 2.0.0rc10 from Debian's libtinyobjloader-dev, and a mesh
// building of its own), so test_obj_differential can compare positions, indices,
// texcoords, normals and per-triangle materials. Materials come by name only (material_names,
// "<default>" last when needed); no textures, bounds or colours.
#pragma once
#include <string>

#include "engine/load/load_model.h"

namespace facet::oracle {

// Throws LoadError with the message facet's loader gives for the same file.
Scene load_with_tinyobj(const std::string& path);

}  // namespace facet::oracle
