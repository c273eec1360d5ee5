// The OBJ mesh on every core, for the common case of scanned models: no texcoords, no usable
// file normals and no smoothing groups, so a vertex is its position alone. It numbers vertices
// in order of first use, exactly as the sequential builder (obj_mesh.h) does, so both give the
// same scene; build_obj_mesh uses it whenever the case applies. Normals are not computed here.
#pragma once
#include "engine/formats/obj/obj_mesh.h"

namespace facet {

// Whether every corner of the model is its position alone (the case above).
bool obj_vertices_are_positions(const ObjModel& model, bool use_file_normals);

// Fills scene.positions, colors, indices and tri_material; returns the faces dropped for
// non-finite positions. Only for models where obj_vertices_are_positions holds.
size_t build_obj_mesh_by_position(const ObjModel& model, Scene& scene);

}  // namespace facet
