// The checks a scene read from a cache file must pass before anyone draws it: every array its
// stated size, every index inside the array it points into, meshlets that hold each triangle
// once. A cache file passes its checksum only if facet wrote it, but a file can be forged (the
// fuzz target does): these make a forged file a refused file, never an out-of-bounds read.
#pragma once
#include "engine/scene/scene.h"

namespace facet {

// Throws CacheFormatError (scene_cache_format.h) naming the first problem.
void check_cached_scene(const Scene& scene);

}  // namespace facet
