// One chunk of an OBJ file's text, parsed on its own (any number of chunks in parallel), and what
// the parse leaves for the stitch (obj_stitch.h): the chunk's v / vt / vn values, its faces with
// their corners as written, and its mtllib / usemtl statements in order. A chunk does not know
// how many vertices came before it, so relative indices and line numbers stay chunk-local here.
// It does not triangulate or build the mesh.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace facet {

// A face corner. Before the stitch: each part as written (> 0: 1-based absolute; < 0: the
// number of elements of its kind read so far in this chunk plus the relative index, flagged in
// `relative`; 0: absent). After the stitch: 0-based indices into the whole file, -1 = absent.
struct ObjCorner {
  int32_t v = 0, vt = 0, vn = 0;
  uint32_t relative = 0;  // bit k set: part k (v, vt, vn) is chunk-relative (before the stitch)
};

// A polygon statement (`f`), 3 corners or more.
struct ObjFace {
  uint64_t first_corner;  // into ObjChunk::corners
  uint32_t corner_count;
  uint32_t line;          // chunk-local line (1 = the chunk's first line)
  uint32_t smoothing;     // smoothing group, or kInheritSmoothing: set before this chunk (the
                          //   stitch resolves it)
  int32_t usemtl;         // index into ObjChunk::statements of the last usemtl, or -1 (inherited);
                          //   after the stitch: the material number, or -1 for none
};

constexpr uint32_t kInheritSmoothing = UINT32_MAX;  // no `s` statement yet in this chunk

// `mtllib` and `usemtl`, kept in file order: materials are looked up when usemtl is read.
struct ObjStatement {
  bool is_usemtl;    // else mtllib
  uint32_t line;     // chunk-local
  std::string text;  // usemtl: the name; mtllib: the rest of the line
};

// The first problem that refuses the file, chunk-local.
struct ObjChunkError {
  uint32_t line = 0;  // 0 = none
  std::string what;
};

// The largest absolute index of one kind, checked against the file's totals at the end.
struct ObjMaxIndex {
  int64_t value = 0;
  uint32_t line = 0;  // chunk-local line where it was first seen
};

struct ObjChunk {
  const char* begin = nullptr;  // the chunk's text
  const char* end = nullptr;
  bool first = false;           // starts the file (UTF-16 detection)

  std::vector<float> positions;   // x, y, z per `v`
  std::vector<float> colors;      // r, g, b per `v` that has all three, in order
  std::vector<uint32_t> unusable; // chunk-local `v` numbers with a non-number or non-finite coordinate
  std::vector<float> texcoords;   // u, v per `vt`
  std::vector<float> normals;     // x, y, z per `vn`
  std::vector<ObjCorner> corners;
  std::vector<ObjFace> faces;
  std::vector<ObjStatement> statements;

  uint32_t lines = 0;               // lines started in this chunk
  uint64_t relative_corners = 0;    // corners with a chunk-relative part (none: a faster stitch)
  uint64_t polygon_faces = 0;       // faces of more than 3 corners (none: no triangulation)
  bool texcoord_parts = false;      // a face's corner names a vt
  bool normal_parts = false;        // a face's corner names a vn
  uint64_t short_faces = 0;         // `f` with 1 or 2 corners (dropped)
  uint32_t short_face_line = 0;     // chunk-local line of the first
  uint64_t line_statements = 0;     // `l`
  uint64_t point_statements = 0;    // `p`
  bool has_smoothing = false;       // any `s`
  uint32_t last_smoothing = kInheritSmoothing;  // in force at the chunk's end
  ObjMaxIndex max_index[3];         // v, vt, vn
  ObjChunkError error;

  // Filled by the stitch: the triangles of the chunk's faces, in order. Where every face is a
  // triangle the triangles are the faces and corners themselves: the two arrays stay empty
  // (all_triangles) rather than spell out 16 bytes a triangle of counting. Read through the
  // triangle_* functions below.
  bool all_triangles = false;
  std::vector<uint32_t> triangles;       // 3 indices into corners per triangle
  std::vector<uint32_t> triangle_faces;  // per triangle: its index into faces

  size_t triangle_count() const { return all_triangles ? faces.size() : triangle_faces.size(); }
  // Corner k (0, 1, 2) of triangle t, an index into corners.
  uint32_t triangle_corner(size_t t, int k) const {
    return all_triangles ? (uint32_t)(3 * t + (size_t)k) : triangles[3 * t + (size_t)k];
  }
  // The face triangle t comes from, an index into faces.
  uint32_t triangle_face(size_t t) const { return all_triangles ? (uint32_t)t : triangle_faces[t]; }

  size_t vertex_count() const { return positions.size() / 3; }
  size_t texcoord_count() const { return texcoords.size() / 2; }
  size_t normal_count() const { return normals.size() / 3; }
};

// How many v, vt, vn statements the file has before a chunk.
struct ObjCounts {
  uint64_t v = 0, vt = 0, vn = 0;
};

// Parses chunk.begin .. chunk.end (whole lines) into chunk. Never throws for bad text: the
// first problem goes to chunk.error and parsing stops there. With `before` (the counts ahead of
// the chunk), relative indices are checked as they are read, so a relative index that points
// before the file's first element becomes the chunk's error with its full message; the stitch
// parses a chunk again this way only when it found such an index.
void parse_obj_chunk(ObjChunk& chunk, const ObjCounts* before = nullptr);

}  // namespace facet
