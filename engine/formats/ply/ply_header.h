// The header of a PLY file (ply / format / element / property ... / end_header): which elements
// the body holds, in order, with their row counts and property types, and where the body starts.
// Reading the body is ply_body.h; turning it into a Scene is ply_loader.h. The format is small
// enough that a reader of our own (about 150 lines) beats a dependency: no Debian package reads
// PLY in parallel or from a memory map.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace facet {

enum class PlyFormat { Ascii, BinaryLittleEndian, BinaryBigEndian };

// The eight scalar types of the PLY specification (char..double, or int8..float64).
enum class PlyType : uint8_t { Int8, UInt8, Int16, UInt16, Int32, UInt32, Float32, Float64 };

// Bytes one value of `type` occupies in a binary body.
size_t ply_type_size(PlyType type);
bool ply_type_is_integer(PlyType type);
// The name headers most often give `type` (uchar, int, float, ...), for messages.
const char* ply_type_name(PlyType type);
// The values an integer type holds ([lo, hi]); ASCII values are checked against them too, so a
// count or index means the same in both encodings.
struct PlyRange {
  int64_t lo, hi;
};
PlyRange ply_type_range(PlyType type);

struct PlyProperty {
  std::string name;
  PlyType type = PlyType::Float32;  // the value type (the entry type for a list)
  bool is_list = false;
  PlyType count_type = PlyType::UInt8;  // lists only: the type of the entry count (an integer)
  int header_line = 0;                  // line of its `property` statement, for messages
};

struct PlyElement {
  std::string name;
  uint64_t count = 0;  // rows in the body
  std::vector<PlyProperty> properties;
  int header_line = 0;  // line of its `element` statement, for messages

  bool has_lists() const;
  // Bytes of one row in a binary body when it has no lists (else the bytes of its scalars only).
  size_t scalar_bytes() const;
};

struct PlyHeader {
  PlyFormat format = PlyFormat::Ascii;
  std::vector<PlyElement> elements;  // in body order
  size_t body_offset = 0;            // first byte after the end_header line
};

// Parses the header at the start of `data`. Throws LoadError("PATH:LINE: problem") for anything
// the specification does not allow (and "PATH: not a PLY file" when the magic is missing), and
// for what facet would otherwise read wrongly: a property name given twice in one element, a
// second vertex or face element. `path` is the path as messages show it (shown_path).
PlyHeader parse_ply_header(const std::string& path, const char* data, size_t size);

}  // namespace facet
