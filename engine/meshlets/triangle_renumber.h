// A loaded scene's triangles renumbered in the order of its patch meshlets (meshlets.h), so that
// meshlet slot i holds scene triangle i, as it does for runs: the keys a frame writes then carry
// the slot, no device array has to say which scene triangle a slot holds, and the slots' packed
// indices are read from the triangle corners, which are then in slot order. Those two arrays would
// be 8 of a closed scan's 27.2 bytes a triangle on the device. The file's
// numbering is kept beside the scene (Scene::file_triangle) for what reports triangles to the
// user (the frame outputs, the viewer's pick, Python's Mesh.triangles): their numbers stay the
// file's.
//
// Depth ties go to the lower index in the scene's order (design.md), the renumbered one; the
// CPU backend, the CUDA backend and the OpenGL reference all draw that same order.
#pragma once
#include "engine/meshlets/meshlets.h"
#include "engine/scene/scene.h"

namespace facet {

// Whether `m`, built for `scene`, is patches that renumbering would put in slot order: a scene
// not renumbered before (one material a triangle, or none), whose meshlets say which scene
// triangle each slot holds.
bool renumbers(const Scene& scene, const Meshlets& m);

// Renumbers scene's triangles (indices, tri_material) in slot order, on every core and in place
// (the arrays keep their addresses: an upload made before, UploadPart::Shading, is recognised
// and remapped on the device rather than sent again). Moves m.triangle_ids into
// scene.file_triangle and leaves m.triangle_ids empty. Nothing happens unless renumbers(scene, m).
// Holds a copy of the index triples (12 bytes a triangle) for a moment.
void renumber_in_slot_order(Scene& scene, Meshlets& m);

// `m`, built for `scene`, kept as its meshlets (Scene::meshlets), the triangles renumbered first
// (renumber_in_slot_order): the last step of preparing a scene, for a load and for
// prepare_in_slot_order alike.
void keep_meshlets_in_slot_order(Scene& scene, Meshlets m);

// A scene made in memory rather than loaded (the generators' spheres) prepared as a load prepares
// a file's: its meshlets built for `grouping` (Renderer::meshlet_grouping) and kept in
// scene.meshlets, its triangles renumbered in slot order where they are patches.
void prepare_in_slot_order(Scene& scene, MeshletGrouping grouping);

}  // namespace facet
