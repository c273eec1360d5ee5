// Room for a chunk's parsed arrays before its parse (obj_chunk.h), from a sample of its lines:
// growing a vector by doubling copies it and touches twice its pages, about a tenth of the parse.
// A wrong estimate costs one more growth, or some unused address space; never a
// different result.
#pragma once
#include "engine/formats/obj/obj_chunk.h"

namespace facet {

// Reserves positions, texcoords, normals, faces and corners for chunk.begin .. chunk.end.
void reserve_obj_chunk(ObjChunk& chunk);

}  // namespace facet
