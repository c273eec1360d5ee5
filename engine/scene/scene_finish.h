// What every model format does once its parser has filled positions, indices and whatever the
// file gave of normals, uvs and colours: faces on non-finite positions dropped (with a warning),
// normals computed or repaired, one default grey material for every triangle (neither PLY nor STL
// carries materials) and bounds. The closed-surface flag is the load's (load_pipeline.cpp), which
// may have the GPU decide it. Used by the PLY and STL readers; textures and materials from files
// are each format's own business.
#pragma once
#include <string>

#include "engine/scene/scene.h"

namespace facet {

// Completes `scene` (source set to path when empty). Throws LoadError("PATH: ...") when no
// triangle is left after dropping those that touch NaN or infinite positions.
void finish_scene(Scene& scene, const std::string& path);

// Keeps the first of each warning, in order: a problem repeated on many lines (every usemtl of
// an unknown material, every primitive of a bad glTF mesh) is said once. OBJ and glTF use it.
void drop_repeated_warnings(Scene& scene);

}  // namespace facet
