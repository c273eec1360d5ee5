// From tinyobjloader's shapes (per-corner v/vt/vn indices, already triangulated) to the scene's
// single indexed mesh: identical (v, vt, vn) corners become one vertex, smoothing groups split
// vertices where normals must not be shared, faces touching non-finite positions are dropped,
// and normals the file lacks are computed (area-weighted).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <tiny_obj_loader.h>

#include "engine/scene/scene.h"
#include "tests/support/oracle/obj_scan.h"

namespace facet::oracle {

// tri_material value of a face with no (known) material, replaced once materials are built.
constexpr uint32_t kNoMaterial = UINT32_MAX;

struct ObjMeshStats {
  size_t nonfinite_faces = 0;         // dropped: a corner's position is NaN or infinite
  size_t computed_normals = 0;        // vertices whose normal was computed rather than read
  bool file_normals_ignored = false;  // some vn index pointed at nothing
};

// Fills scene.positions, normals, uvs, indices and tri_material (tinyobjloader's material id,
// or kNoMaterial). Throws LoadError("PATH: ...") only if an index slipped past scan_obj.
ObjMeshStats build_obj_mesh(const std::string& path, const tinyobj::attrib_t& attrib,
                            const std::vector<tinyobj::shape_t>& shapes, const ObjScan& scan, Scene& scene,
                            const std::function<void(float, const char*)>& progress);

}  // namespace facet::oracle
