// The differential tests' oracle: an OBJ loaded the way facet loaded it before it had its own
// parser (its validating scan, tinyobjloader 2.0.0rc10 from Debian's libtinyobjloader-dev, and
// the mesh building of that time), so test_obj_differential can compare positions, indices,
// texcoords, normals and per-triangle materials. Materials come by name only (material_names,
// "<default>" last when needed); no textures, bounds or colours.
#pragma once
#include <string>

#include "engine/load/load_model.h"

namespace facet::oracle {

// Throws LoadError as facet's loader did then.
Scene load_with_tinyobj(const std::string& path);

}  // namespace facet::oracle
