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

// A face corner with a chunk-relative part (rare: most files write absolute indices), kept aside
// so that the corner arrays stay one 32-bit number a part. Such a part holds, in its corner
// array, the number of elements of its kind read so far in this chunk plus the relative index.
struct ObjRelative {
  uint32_t corner;  // index into the corner arrays
  uint32_t line;    // chunk-local line of its `f`
  uint32_t bits;    // bit k set: part k (v, vt, vn) is chunk-relative
};

// Faces, as few records as the file allows: one record for a run of consecutive triangles with the
// same smoothing group and usemtl (most of a file), one record for each polygon. Their corners
// are consecutive in the corner arrays.
struct ObjFace {
  uint64_t first_corner;  // into ObjChunk::corner_v
  uint32_t corner_count;  // a polygon's corners, or 3 per triangle of a run
  uint32_t smoothing;     // smoothing group, or kInheritSmoothing: set before this chunk (the
                          //   stitch resolves it)
  int32_t usemtl;         // index into ObjChunk::statements of the last usemtl, or -1 (inherited);
                          //   after the stitch: the material number, or -1 for none
  bool triangles;         // a run of corner_count / 3 triangles, else one polygon
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
  bool first = false;  // starts the file (UTF-16 detection)

  std::vector<float> positions;    // x, y, z per `v`
  std::vector<float> colors;       // r, g, b per `v` that has all three, in order
  std::vector<uint32_t> unusable;  // chunk-local `v` numbers with a non-number or non-finite coordinate
  std::vector<float> texcoords;    // u, v per `vt`
  std::vector<float> normals;      // x, y, z per `vn`
  // Face corners, one array per part. Before the stitch: each part as written (> 0: 1-based
  // absolute; 0: absent; relative parts, which may read 0 or less: see ObjRelative). After the
  // stitch: 0-based indices into the whole file, -1 = absent. corner_vt / corner_vn end after the
  // last corner that names a vt / vn (empty in a file without them): the corners past their end
  // have none.
  std::vector<int32_t> corner_v;
  std::vector<int32_t> corner_vt;
  std::vector<int32_t> corner_vn;
  std::vector<ObjRelative> relative;  // corners with a chunk-relative part, in order
  std::vector<ObjFace> faces;
  std::vector<ObjStatement> statements;

  uint32_t lines = 0;                           // lines started in this chunk
  uint64_t face_statements = 0;                 // `f` with 3 corners or more
  uint64_t relative_corners = 0;                // corners with a chunk-relative part (none: a faster stitch)
  uint64_t polygon_faces = 0;                   // faces of more than 3 corners (none: no triangulation)
  bool texcoord_parts = false;                  // a face's corner names a vt
  bool normal_parts = false;                    // a face's corner names a vn
  uint64_t short_faces = 0;                     // `f` with 1 or 2 corners (dropped)
  uint32_t short_face_line = 0;                 // chunk-local line of the first
  uint32_t not_number_line = 0;                 // chunk-local line of the first `v` word that is no number
  std::string not_number_word;                  // that word, quoted (format_messages.h)
  uint64_t texcoord_not_numbers = 0;            // `vt` words that are no number (read as 0)
  uint64_t normal_not_numbers = 0;              // `vn` words that are no number (read as 0)
  uint64_t line_statements = 0;                 // `l`
  uint64_t point_statements = 0;                // `p`
  bool has_smoothing = false;                   // any `s`
  uint32_t last_smoothing = kInheritSmoothing;  // in force at the chunk's end
  ObjMaxIndex max_index[3];                     // v, vt, vn
  ObjChunkError error;

  // Filled by the stitch: the triangles of the chunk's faces, in order. Where every face is a
  // triangle the triangles are the corners themselves: the two arrays stay empty (all_triangles)
  // rather than spell out 16 bytes a triangle of counting. Read through the functions below.
  bool all_triangles = false;
  std::vector<uint32_t> triangles;       // 3 indices into the corner arrays per triangle
  std::vector<uint32_t> triangle_faces;  // per triangle: its record in faces
  uint64_t polygons_not_simple = 0;      // polygons fanned: their outline crosses or touches itself
  uint64_t polygons_not_flat = 0;        // polygons cut on a plane some corners lie off

  size_t corner_count() const { return corner_v.size(); }
  // Part vt / vn of corner i after the stitch, -1 = absent.
  int32_t texcoord_of(size_t i) const { return i < corner_vt.size() ? corner_vt[i] : -1; }
  int32_t normal_of(size_t i) const { return i < corner_vn.size() ? corner_vn[i] : -1; }

  size_t triangle_count() const { return all_triangles ? corner_v.size() / 3 : triangle_faces.size(); }
  // Corner k (0, 1, 2) of triangle t, an index into the corner arrays.
  uint32_t triangle_corner(size_t t, int k) const {
    return all_triangles ? (uint32_t)(3 * t + (size_t)k) : triangles[3 * t + (size_t)k];
  }
  // fn(t, corners, face) for every triangle t in order: its three corners (indices into the
  // corner arrays) and the face record it comes from.
  template <class Fn>
  void each_triangle(Fn&& fn) const {
    if (!all_triangles) {
      for (size_t t = 0; t < triangle_faces.size(); ++t) fn(t, &triangles[3 * t], faces[triangle_faces[t]]);
      return;
    }
    size_t t = 0;
    for (const ObjFace& f : faces) {
      for (uint32_t k = 0; k < f.corner_count; k += 3, ++t) {
        const uint32_t c[3] = {(uint32_t)(f.first_corner + k), (uint32_t)(f.first_corner + k + 1),
                               (uint32_t)(f.first_corner + k + 2)};
        fn(t, c, f);
      }
    }
  }

  // Appends a corner; has_vt / has_vn: the part is present (a relative part may read 0).
  void add_corner(int32_t v, int32_t vt, int32_t vn, bool has_vt, bool has_vn) {
    const size_t i = corner_v.size();
    corner_v.push_back(v);
    if (has_vt) {
      if (corner_vt.size() != i) corner_vt.resize(i, 0);
      corner_vt.push_back(vt);
    }
    if (has_vn) {
      if (corner_vn.size() != i) corner_vn.resize(i, 0);
      corner_vn.push_back(vn);
    }
  }
  // Drops the corners from `first` on (a face that is not kept).
  void drop_corners(size_t first) {
    corner_v.resize(first);
    if (corner_vt.size() > first) corner_vt.resize(first);
    if (corner_vn.size() > first) corner_vn.resize(first);
    while (!relative.empty() && relative.back().corner >= first) relative.pop_back();
  }
  // Records the face of the corners from `first` on (n >= 3): it joins the last record when both
  // are triangles with the same smoothing and usemtl.
  void add_face(size_t first, uint32_t n, uint32_t smoothing, int32_t usemtl) {
    ++face_statements;
    if (n == 3 && !faces.empty()) {
      ObjFace& last = faces.back();
      if (last.triangles && last.smoothing == smoothing && last.usemtl == usemtl &&
          last.first_corner + last.corner_count == first) {
        last.corner_count += 3;
        return;
      }
    }
    polygon_faces += n > 3;
    ObjFace& f = faces.emplace_back();
    f.first_corner = first;
    f.corner_count = n;
    f.smoothing = smoothing;
    f.usemtl = usemtl;
    f.triangles = n == 3;
  }

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
