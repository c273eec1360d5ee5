// From the stitched OBJ model (obj_stitch.h) to the scene's single indexed mesh: identical
// (v, vt, vn) corners become one vertex, smoothing groups split vertices where normals must not
// be shared, faces touching non-finite positions are dropped, and normals the file lacks are
// computed (area-weighted). Vertex colours come along when every `v` has them.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "engine/formats/obj/obj_stitch.h"
#include "engine/scene/scene.h"

namespace facet {

// tri_material value of a face with no (known) material, replaced once materials are built.
constexpr uint32_t kNoMaterial = UINT32_MAX;

struct ObjMeshStats {
  size_t nonfinite_faces = 0;         // dropped: a corner's position is NaN or infinite
  size_t computed_normals = 0;        // vertices whose normal was computed rather than read
  bool file_normals_ignored = false;  // some vn index pointed at nothing
};

// A `v` line's r g b (0..1) as the scene's colour (0..255, alpha 255; NaN reads as 0).
Rgba8 obj_vertex_color(const float* rgb);

// Fills scene.positions, normals, uvs, colors, indices and tri_material (the face's material
// number, or kNoMaterial). Throws LoadError("PATH: ...") past 2^32 - 1 vertices.
ObjMeshStats build_obj_mesh(const std::string& path, const ObjModel& model, Scene& scene,
                            const std::function<void(float, const char*)>& progress);

}  // namespace facet
