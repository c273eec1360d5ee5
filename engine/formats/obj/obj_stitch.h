// From OBJ text to a whole-file model, in named steps: cut the text into chunks at line ends,
// parse the chunks on every core (obj_chunk.h), then stitch them in order: relative indices
// resolved against the counts before each chunk, refusals with the file's line numbers, the
// mtllib / usemtl statements and smoothing groups carried across chunks, polygons triangulated.
// It does not build the scene's mesh (obj_mesh.h) or its materials (obj_materials.h).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/formats/obj/obj_chunk.h"
#include "engine/formats/obj/obj_materials.h"

namespace facet {

struct ObjModel {
  std::vector<ObjChunk> chunks;    // in file order; corners resolved, faces triangulated;
                                   //   their v / vt / vn arrays moved into those below
  std::vector<float> positions;    // x, y, z per `v` of the file
  std::vector<float> texcoords;    // u, v per `vt`
  std::vector<float> normals;      // x, y, z per `vn`
  std::vector<float> colors;       // r, g, b per `v`, or empty unless every `v` has them
  std::vector<uint32_t> unusable;  // `v` numbers (0-based) with a non-finite coordinate
  ObjCounts counts;                // v, vt, vn statements
  uint64_t faces = 0;              // `f` with 3 corners or more
  uint64_t short_faces = 0;        // `f` with 1 or 2 corners (dropped)
  uint64_t short_face_line = 0;    // line of the first
  uint64_t not_number_line = 0;    // line of the first `v` coordinate that is not a number, or 0
  std::string not_number_word;     // that coordinate, quoted
  uint64_t texcoord_not_numbers = 0, normal_not_numbers = 0;  // `vt`, `vn` words that are no number
  uint64_t line_statements = 0, point_statements = 0;
  uint64_t colored_vertices = 0;  // `v` statements with r g b
  bool has_smoothing = false;     // any `s`: then `s 0` / `s off` means flat
  uint64_t bad_normal_line = 0;   // first line whose vn index points at nothing, or 0
  // After triangulate_obj_faces: faces of more than 3 corners, and those it reports
  // (obj_triangulate.h: PolygonShape::kNotSimple and kNotFlat).
  uint64_t polygons = 0, polygons_not_simple = 0, polygons_not_flat = 0;
};

// Steps 1 and 2: the chunks of text [text, text + size) (whole lines each; a line end after '\'
// is never a cut), parsed on every core. `progress` (may be empty) gets the fraction of the bytes
// parsed now and then, always on the calling thread.
std::vector<ObjChunk> parse_obj_text(const char* text, size_t size,
                                     const std::function<void(float done)>& progress = {});

// Step 3: joins the parsed chunks into one model. Throws LoadError("PATH:LINE: problem") for the
// first problem in file order; relative indices that point before the first element and
// absolute ones past the last refuse the file, normal indices that point at nothing only set
// bad_normal_line.
ObjModel stitch_obj_chunks(const std::string& path, std::vector<ObjChunk> chunks);

// Step 4: reads the material libraries and gives every face its material, in file order.
void assign_obj_materials(ObjModel& model, MaterialLibrary& library);

// Step 5: the triangles of every face (obj_triangulate.h), on every core. A polygon with a corner
// whose position is unusable is fanned from that corner, so that the mesh drops it whole.
void triangulate_obj_faces(ObjModel& model);

}  // namespace facet
