// Loading one Wavefront OBJ (+ its MTL files and textures) into a complete Scene with our own
// parallel parser: the file mapped, parsed in chunks on every core, stitched in order, then the
// mesh and the materials built. A file is either loaded (with warnings for what was dropped or
// replaced) or refused with one LoadError naming the file, and the line where one applies.
// load_model (load_model.h) is the entry point for every format; this is its OBJ path.
// Our own parser rather than tinyobjloader (Debian's libtinyobjloader-dev, the tests' oracle):
// it parses on one core, accepts bad input silently (out-of-range indices, "nan" read as
// 0, no line numbers) and cuts an n-corner polygon in O(n^2); no Debian package parses OBJ on
// several cores.
#pragma once
#include <string>

#include "engine/load/load_model.h"

namespace facet {

// Throws LoadError("PATH: problem") or LoadError("PATH:LINE: problem") when the file cannot be
// shown. Other exceptions (std::bad_alloc) pass through: load_model turns them into LoadError.
Scene load_obj(const std::string& path, const LoadOptions& options);

}  // namespace facet
