// load_ply: a PLY file (ASCII or binary, either byte order) into a complete Scene, or one
// LoadError. What is read: vertex x y z; nx ny nz; u v / s t / texture_u texture_v /
// texture_s texture_t; red green blue [alpha]; face vertex_indices (or vertex_index) lists of any
// integer type, fan-triangulated. Every other property and element is skipped. No materials or
// textures (PLY has none): every triangle gets the default grey.
#pragma once
#include <string>

#include "engine/load/load_model.h"

namespace facet {

// Throws LoadError("PATH: problem"), naming the element and row where one applies.
Scene load_ply(const std::string& path, const LoadOptions& options = {});

}  // namespace facet
