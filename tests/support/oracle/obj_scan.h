// A validating pass over an OBJ file's text, run before tinyobjloader parses it. tinyobjloader
// accepts some bad input silently (out-of-range or 32-bit-overflowing indices, "nan" read as 0,
// no line numbers), so this pass finds what must be refused, with the line, and what must be
// repaired later (non-finite vertices, normal indices that point at nothing). It builds nothing.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace facet::oracle {

struct ObjScan {
  size_t v_count = 0, vt_count = 0, vn_count = 0;  // v, vt, vn statements
  size_t face_count = 0;                           // f statements with 3 or more corners
  size_t short_face_count = 0;                     // f statements with 1 or 2 corners (tinyobjloader drops them)
  size_t short_face_line = 0;                      // line of the first of those
  size_t line_count = 0;                           // l statements
  size_t point_count = 0;                          // p statements
  bool has_smoothing = false;                      // any s statement: then s 0 / s off means flat
  size_t bad_normal_line = 0;                      // first f line whose vn index points at nothing, or 0
  std::vector<uint32_t> nonfinite_vertices;        // 0-based v indices whose x, y or z is not a number
  // Byte offsets (from the start of the scanned text) of each `vw` (skin weight) statement's 'v'.
  // facet does not use skin weights, and tinyobjloader 2.0.0rc10 converts their joint ids to int
  // unchecked (undefined behaviour for 1e20, inf or nan: found by the fuzzer), so the loader
  // turns these lines into comments before tinyobjloader reads the text.
  std::vector<size_t> skin_weight_offsets;
};

// Throws LoadError("PATH:LINE: problem") for text that cannot be an OBJ (UTF-16, binary data)
// and for face indices that are 0, malformed, overflow 32 bits or point at no vertex / texcoord.
ObjScan scan_obj(const std::string& path, const char* data, size_t size);

}  // namespace facet::oracle
