// load_stl: an STL file (binary, or ASCII `solid ... endsolid`) into a complete Scene, or one
// LoadError. A binary file may itself start with "solid": a file whose size is exactly 84 + 50
// times the triangle count in its header is binary whatever it starts with. Corners at exactly
// the same position become one vertex (so a closed part is a closed mesh), and the file's facet
// normals are ignored in favour of area-weighted vertex normals (scene_finish.h): many writers
// leave them zero, and welded smooth normals suit the scans and prints STL mostly carries (a CAD
// part's sharp edges shade soft). No colours (the binary attribute word has no agreed meaning).
#pragma once
#include <string>

#include "engine/load/load_model.h"

namespace facet {

// Throws LoadError("PATH: problem") or, in ASCII files, LoadError("PATH:LINE: problem").
Scene load_stl(const std::string& path, const LoadOptions& options = {});

// Corners (3 per triangle, in order) to shared vertices: equal positions (bit for bit, with -0
// taken as 0) become one. Fills positions and indices (one per corner).
void weld_corners(const std::vector<Vec3>& corners, BigVector<Vec3>& positions, BigVector<uint32_t>& indices);

}  // namespace facet
