// Reading a PLY body (after ply_header.h has parsed the header) into flat arrays: the vertex
// element's positions, normals, texture coordinates and colours, and the face element's index
// lists fan-triangulated. Every other property and element is skipped. Binary bodies whose rows
// have a fixed size (every list the same length, as in all-triangle meshes) are read in
// parallel; other binary bodies and ASCII bodies row by row. No Scene here (ply_loader.h).
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/base/big_array.h"
#include "engine/formats/ply/ply_header.h"
#include "kernels/base/hd.h"
#include "kernels/frame/params.h"

namespace facet {

// What a property means to facet. Colours: 8-bit integers as read, floats 0..1 scaled to 255.
enum class PlyRole : uint8_t { Skip, X, Y, Z, NX, NY, NZ, U, V, Red, Green, Blue, Alpha, Indices };

struct PlyLayout {
  std::vector<std::vector<PlyRole>> roles;  // [element][property]: Skip for what facet ignores
  size_t vertex_element = 0;                // index into PlyHeader::elements
  size_t face_element = 0;
  bool has_normals = false, has_uvs = false, has_colors = false;
};

struct PlyMesh {
  BigVector<Vec3> positions;      // one per vertex row
  BigVector<Vec3> normals;        // one per vertex row, or empty (not normalised)
  BigVector<Vec2> uvs;            // one per vertex row, or empty
  BigVector<Rgba8> colors;        // one per vertex row, or empty (alpha 255 when absent)
  BigVector<uint32_t> indices;    // 3 per triangle, faces fanned in file order
  uint64_t short_faces = 0;       // faces with fewer than 3 indices (skipped)
  uint64_t first_short_face = 0;  // row of the first of them
};

// Throws LoadError("PATH: ELEMENT ROW: problem") for a body that does not match its header
// (truncated, list past the end, a count that is negative, an index out of range, a word that
// is not a number). `data` is the whole file, the body starts at header.body_offset; `path` is
// the path as messages show it (shown_path). Returns the offset just past the last row read:
// what follows is not read (ply_checks.h warns about it).
size_t read_ply_binary_body(const std::string& path, const PlyHeader& header, const PlyLayout& layout, const char* data,
                            size_t size, PlyMesh& mesh);
size_t read_ply_ascii_body(const std::string& path, const PlyHeader& header, const PlyLayout& layout, const char* data,
                           size_t size, PlyMesh& mesh);

// Shared by both bodies: sizes the vertex arrays the layout asks for, once the body is known to
// hold `rows` rows (colours start opaque black: a file may give red, green, blue but no alpha).
// They are filled on every core (big_array.h): a scan's arrays are gigabytes.
inline void allocate_vertex_arrays(PlyMesh& m, const PlyLayout& layout, uint64_t rows) {
  auto sized = [&](auto& v, const auto& value) {
    v.clear();
    resize_on_every_core(v, rows, value);
  };
  sized(m.positions, Vec3{0, 0, 0});
  if (layout.has_normals) sized(m.normals, Vec3{0, 0, 0});
  if (layout.has_uvs) sized(m.uvs, Vec2{0, 0});
  if (layout.has_colors) sized(m.colors, Rgba8{0, 0, 0, 255});
}

// Shared by both bodies: stores one vertex property's value (read as double) in row `row`.
inline void store_vertex_value(PlyMesh& m, uint64_t row, PlyRole role, PlyType type, double v) {
  auto color = [&](double c) -> uint8_t {
    if (!(c == c)) return 0;  // NaN
    if (!ply_type_is_integer(type))
      c = c * 255.0 + 0.5;
    else if (type == PlyType::UInt16 || type == PlyType::Int16)
      c = c / 257.0 + 0.5;
    return (uint8_t)(c < 0 ? 0 : c > 255 ? 255 : c);
  };
  // A double beyond float's range becomes an infinity (converting it as is would be undefined),
  // so that faces on it are dropped like those on any non-finite vertex.
  constexpr double kFloatMax = 3.4028234663852886e38;
  v = v > kFloatMax ? INFINITY : v < -kFloatMax ? -INFINITY : v;
  switch (role) {
    case PlyRole::X:
      m.positions[row].x = (float)v;
      break;
    case PlyRole::Y:
      m.positions[row].y = (float)v;
      break;
    case PlyRole::Z:
      m.positions[row].z = (float)v;
      break;
    case PlyRole::NX:
      m.normals[row].x = (float)v;
      break;
    case PlyRole::NY:
      m.normals[row].y = (float)v;
      break;
    case PlyRole::NZ:
      m.normals[row].z = (float)v;
      break;
    case PlyRole::U:
      m.uvs[row].x = (float)v;
      break;
    case PlyRole::V:
      m.uvs[row].y = (float)v;
      break;
    case PlyRole::Red:
      m.colors[row].r = color(v);
      break;
    case PlyRole::Green:
      m.colors[row].g = color(v);
      break;
    case PlyRole::Blue:
      m.colors[row].b = color(v);
      break;
    case PlyRole::Alpha:
      m.colors[row].a = color(v);
      break;
    default:
      break;
  }
}

}  // namespace facet
