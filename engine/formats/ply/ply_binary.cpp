// Binary PLY bodies, both byte orders. Elements whose rows have a fixed size are read in
// parallel (a row's place is its number times the row size); a face element whose lists all have
// the length of its first row's is read the same way, its counts checked in parallel (while the
// lists are fanned, where the index list is the only list). Anything else is walked row by row,
// which is also what finds and names a broken row.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>
#include <mutex>
#include <type_traits>

#include "engine/base/parallel.h"
#include "engine/formats/format_messages.h"
#include "engine/formats/ply/ply_binary_values.h"
#include "engine/formats/ply/ply_body.h"
#include "engine/load/load_model.h"

namespace facet {

namespace {

using ply_binary::decode_int;
using ply_binary::decode_real;
using ply_binary::load;

// Rows per parallel work item: large enough that handing out work costs nothing, small enough
// that 16 cores share a 1 M-row element evenly.
constexpr uint64_t kRowsPerChunk = 1 << 15;

// The lowest-row problem the workers found, whatever order they ran in: a chunk is skipped only
// when it starts after a row already known to be bad, so the same file always gets the same
// message.
class RowError {
 public:
  void record(uint64_t row, std::string what) {
    std::lock_guard<std::mutex> lock(m_mutex);
    if (row < m_row) {
      m_row = row;
      m_what = std::move(what);
    }
  }
  bool before(uint64_t row) const { return m_row.load(std::memory_order_relaxed) < row; }
  void raise(const std::string& path, const std::string& element) const {
    if (m_row != kNoRow)
      throw LoadError(path + ": " + word_or_quoted(element) + " " + std::to_string(m_row) + ": " + m_what);
  }

 private:
  static constexpr uint64_t kNoRow = std::numeric_limits<uint64_t>::max();
  std::mutex m_mutex;
  std::atomic<uint64_t> m_row{kNoRow};
  std::string m_what;
};

struct Body {
  const std::string& path;
  const PlyHeader& header;
  const PlyLayout& layout;
  const char* data;
  size_t size;
  bool swap;
  PlyMesh& mesh;
  uint32_t vertex_count;
};

// Writes the fan of one face's k indices (at p, `t`-typed) as triangles starting at out; returns
// an error text or "" when every index names a vertex.
std::string fan(const Body& b, const char* p, PlyType t, uint64_t k, uint32_t* out) {
  const size_t step = ply_type_size(t);
  uint32_t first = 0, prev = 0;
  for (uint64_t j = 0; j < k; ++j) {
    int64_t i = decode_int(p + j * step, t, b.swap);
    if (i < 0 || i >= (int64_t)b.vertex_count)
      return "index " + std::to_string(i) + " out of range (" + std::to_string(b.vertex_count) + " vertices)";
    if (j == 0) first = (uint32_t)i;
    if (j >= 2) {
      out[0] = first;
      out[1] = prev;
      out[2] = (uint32_t)i;
      out += 3;
    }
    prev = (uint32_t)i;
  }
  return {};
}

// Rows [r0, r1) of a fixed-size face element: the k indices (type T) at list_offset of each row
// fanned into k - 2 triangles. Stops at the first index out of range, recording it. Where
// `ragged` is given, each row's list count (count_type, just before the list) is checked to be k
// too, and a row where it is not sets it and stops: the caller then reads the element row by row.
template <class T>
void fan_rows(const Body& b, const char* rows, size_t stride, size_t list_offset, uint64_t k, PlyType count_type,
              uint64_t r0, uint64_t r1, RowError& error, std::atomic<bool>* ragged) {
  uint32_t* out = &b.mesh.indices[r0 * (k - 2) * 3];
  const uint64_t nv = b.vertex_count;
  const size_t count_offset = list_offset - ply_type_size(count_type);
  for (uint64_t r = r0; r < r1; ++r) {
    const char* p = rows + r * stride + list_offset;
    const char* count = rows + r * stride + count_offset;  // a uchar, the usual type, read directly
    if (ragged && (count_type == PlyType::UInt8 ? (int64_t)(uint8_t)*count : decode_int(count, count_type, b.swap)) !=
                      (int64_t)k) {
      ragged->store(true, std::memory_order_relaxed);
      return;
    }
    uint32_t first = 0, prev = 0;
    for (uint64_t j = 0; j < k; ++j) {
      const int64_t i = (int64_t)load<T>(p + j * sizeof(T), b.swap);
      if ((uint64_t)i >= nv) {  // negative indices wrap to huge
        error.record(r, "index " + std::to_string(i) + " out of range (" + std::to_string(nv) + " vertices)");
        return;
      }
      if (j >= 2) {
        out[0] = first;
        out[1] = prev;
        out[2] = (uint32_t)i;
        out += 3;
      } else if (j == 0) {
        first = (uint32_t)i;
      }
      prev = (uint32_t)i;
    }
  }
}

// What read_face_rows returns when a row's list count differed from the first row's.
constexpr size_t kRagged = SIZE_MAX;

// The rows of the vertex element `ei` at `at` (scalars only, `stride` bytes a row), in parallel.
// Float positions and normals are copied as they are (what the double round trip of
// store_vertex_value gives them too); anything else goes through store_vertex_value.
size_t read_vertex_rows(const Body& b, size_t ei, size_t at, size_t stride) {
  const PlyElement& e = b.header.elements[ei];
  const std::vector<PlyRole>& roles = b.layout.roles[ei];
  struct Column {
    size_t offset;
    size_t pi;
    Vec3* floats;         // the array a float property is copied into, or null
    float Vec3::*member;  // its coordinate, or null: x, y and z copied at once from offset
  };
  std::vector<Column> columns;
  for (size_t pi = 0, o = 0; pi < e.properties.size(); o += ply_type_size(e.properties[pi].type), ++pi) {
    const PlyRole role = roles[pi];
    if (role == PlyRole::Skip) continue;
    Column c{o, pi, nullptr, &Vec3::x};
    const bool position = role == PlyRole::X || role == PlyRole::Y || role == PlyRole::Z;
    const bool normal = role == PlyRole::NX || role == PlyRole::NY || role == PlyRole::NZ;
    if (e.properties[pi].type == PlyType::Float32 && (position || normal)) {
      c.floats = position ? b.mesh.positions.data() : b.mesh.normals.data();
      const int axis = position ? (int)role - (int)PlyRole::X : (int)role - (int)PlyRole::NX;
      c.member = axis == 0 ? &Vec3::x : axis == 1 ? &Vec3::y : &Vec3::z;
    }
    // x, y, z (or nx, ny, nz) side by side in the machine's byte order: one 12-byte copy a row.
    auto before = [&](size_t back, float Vec3::*m) {
      const Column& p = columns[columns.size() - back];
      return p.floats == c.floats && p.member == m && p.offset + 4 * back == o;
    };
    if (!b.swap && c.floats && c.member == &Vec3::z && columns.size() >= 2 && before(2, &Vec3::x) &&
        before(1, &Vec3::y)) {
      columns.pop_back();
      columns.back() = Column{o - 8, pi, c.floats, nullptr};
    } else {
      columns.push_back(c);
    }
  }
  static_assert(sizeof(Vec3) == 12, "a Vec3 is the file's three floats");
  parallel_for(e.count, kRowsPerChunk, [&](uint64_t r0, uint64_t r1, unsigned) {
    for (uint64_t r = r0; r < r1; ++r) {
      const char* row = b.data + at + r * stride;
      for (const Column& c : columns) {
        const PlyType type = e.properties[c.pi].type;
        if (c.floats && !c.member)
          std::memcpy(&c.floats[r], row + c.offset, sizeof(Vec3));
        else if (c.floats)
          c.floats[r].*c.member = load<float>(row + c.offset, b.swap);
        else
          store_vertex_value(b.mesh, r, roles[c.pi], type, decode_real(row + c.offset, type, b.swap));
      }
    }
  });
  return at + e.count * stride;
}

// The rows of the face element `ei` at `at`, fixed size, in parallel: the index lists fanned.
// list_len[pi]: the length every row's list pi has (0 for scalars). With check_counts (the
// element's only list is the indices) each row's count is checked here, in the same pass, rather
// than by uniform_lists beforehand. Returns the end of the element, or kRagged when a row's count
// differed (nothing raised: the caller reads the element row by row).
size_t read_face_rows(const Body& b, size_t ei, size_t at, size_t stride, const std::vector<uint64_t>& list_len,
                      bool check_counts) {
  const PlyElement& e = b.header.elements[ei];
  const std::vector<PlyRole>& roles = b.layout.roles[ei];
  size_t list_offset = 0;
  uint64_t k = 0;
  PlyType list_type = PlyType::UInt32, count_type = PlyType::UInt8;
  for (size_t pi = 0, o = 0; pi < e.properties.size(); ++pi) {
    const PlyProperty& p = e.properties[pi];
    if (!p.is_list) {
      o += ply_type_size(p.type);
      continue;
    }
    if (roles[pi] == PlyRole::Indices) {
      list_offset = o + ply_type_size(p.count_type);
      list_type = p.type;
      count_type = p.count_type;
      k = list_len[pi];
    }
    o += ply_type_size(p.count_type) + list_len[pi] * ply_type_size(p.type);
  }
  const uint64_t tris = k >= 3 ? k - 2 : 0;
  b.mesh.indices.resize(e.count * tris * 3);  // unwritten (BigVector): the rows' fans below write it whole
  if (!tris) b.mesh.short_faces = e.count;
  RowError error;
  std::atomic<bool> ragged{false};
  std::atomic<bool>* check = check_counts ? &ragged : nullptr;
  parallel_for(e.count, kRowsPerChunk, [&](uint64_t r0, uint64_t r1, unsigned) {
    if (!tris || error.before(r0) || ragged.load(std::memory_order_relaxed)) return;
    const char* rows = b.data + at;
    auto fan = [&](auto zero) {
      fan_rows<decltype(zero)>(b, rows, stride, list_offset, k, count_type, r0, r1, error, check);
    };
    switch (list_type) {
      case PlyType::Int8:
        return fan(int8_t());
      case PlyType::UInt8:
        return fan(uint8_t());
      case PlyType::Int16:
        return fan(int16_t());
      case PlyType::UInt16:
        return fan(uint16_t());
      case PlyType::Int32:
        return fan(int32_t());
      default:
        return fan(uint32_t());
    }
  });
  if (ragged.load()) return kRagged;
  error.raise(b.path, e.name);
  return at + e.count * stride;
}

// Whether every row of face element `ei` has the list lengths of its first row (then its rows
// have a fixed size, returned in stride, and list_len holds the lengths). False sends the
// element to walk_rows, which also names the row of any problem found here. True with
// check_counts set means only that the rows fit: read_face_rows checks the counts.
bool uniform_lists(const Body& b, size_t ei, size_t at, size_t& stride, std::vector<uint64_t>& list_len,
                   bool& check_counts) {
  const PlyElement& e = b.header.elements[ei];
  if (e.count == 0) return false;
  list_len.assign(e.properties.size(), 0);
  std::vector<size_t> count_at;  // offsets of the list counts in a row
  std::vector<size_t> count_pi;
  size_t o = 0;
  for (size_t pi = 0; pi < e.properties.size(); ++pi) {
    const PlyProperty& p = e.properties[pi];
    if (!p.is_list) {
      o += ply_type_size(p.type);
      continue;
    }
    if (b.size - at < o + ply_type_size(p.count_type)) return false;
    int64_t c = decode_int(b.data + at + o, p.count_type, b.swap);
    if (c < 0 || (uint64_t)c > (b.size - at) / ply_type_size(p.type)) return false;
    count_at.push_back(o);
    count_pi.push_back(pi);
    list_len[pi] = (uint64_t)c;
    o += ply_type_size(p.count_type) + (size_t)c * ply_type_size(p.type);
  }
  stride = o;
  if (e.count > (b.size - at) / stride) return false;
  // A lone index list of 3 or more is checked by read_face_rows as it fans (one pass, not two).
  check_counts =
      count_pi.size() == 1 && b.layout.roles[ei][count_pi[0]] == PlyRole::Indices && list_len[count_pi[0]] >= 3;
  if (check_counts) return true;
  std::atomic<bool> uniform{true};
  parallel_for(e.count, kRowsPerChunk, [&](uint64_t r0, uint64_t r1, unsigned) {
    for (uint64_t r = r0; r < r1 && uniform.load(std::memory_order_relaxed); ++r)
      for (size_t j = 0; j < count_at.size(); ++j) {
        const PlyProperty& p = e.properties[count_pi[j]];
        if (decode_int(b.data + at + r * stride + count_at[j], p.count_type, b.swap) != (int64_t)list_len[count_pi[j]])
          uniform = false;
      }
  });
  return uniform;
}

[[noreturn]] void refuse_row(const Body& b, const PlyElement& e, uint64_t row, const std::string& what) {
  throw LoadError(b.path + ": " + word_or_quoted(e.name) + " " + std::to_string(row) + ": " + what);
}

// Element `ei` row by row: vertex values stored, face lists fanned, everything else stepped over.
size_t walk_rows(const Body& b, size_t ei, size_t at) {
  const PlyElement& e = b.header.elements[ei];
  const std::vector<PlyRole>& roles = b.layout.roles[ei];
  const bool vertices = ei == b.layout.vertex_element;
  const std::string truncated =
      "the file ends inside this row (truncated; the header says " + std::to_string(e.count) + " rows)";
  for (uint64_t r = 0; r < e.count; ++r)
    for (size_t pi = 0; pi < e.properties.size(); ++pi) {
      const PlyProperty& p = e.properties[pi];
      if (!p.is_list) {
        if (b.size - at < ply_type_size(p.type)) refuse_row(b, e, r, truncated);
        if (vertices && roles[pi] != PlyRole::Skip)
          store_vertex_value(b.mesh, r, roles[pi], p.type, decode_real(b.data + at, p.type, b.swap));
        at += ply_type_size(p.type);
        continue;
      }
      if (b.size - at < ply_type_size(p.count_type)) refuse_row(b, e, r, truncated);
      int64_t c = decode_int(b.data + at, p.count_type, b.swap);
      at += ply_type_size(p.count_type);
      if (c < 0)
        refuse_row(b, e, r, "list " + word_or_quoted(p.name) + " has a negative length (" + std::to_string(c) + ")");
      if ((uint64_t)c > (b.size - at) / ply_type_size(p.type))
        refuse_row(
            b, e, r,
            "list " + word_or_quoted(p.name) + " of " + std::to_string(c) + " entries runs past the end of the file");
      if (roles[pi] == PlyRole::Indices && c < 3) {
        if (b.mesh.short_faces++ == 0) b.mesh.first_short_face = r;
      } else if (roles[pi] == PlyRole::Indices) {
        size_t first = b.mesh.indices.size();
        b.mesh.indices.resize(first + ((size_t)c - 2) * 3);
        std::string what = fan(b, b.data + at, p.type, (uint64_t)c, &b.mesh.indices[first]);
        if (!what.empty()) refuse_row(b, e, r, what);
      }
      at += (size_t)c * ply_type_size(p.type);
    }
  return at;
}

}  // namespace

size_t read_ply_binary_body(const std::string& path, const PlyHeader& header, const PlyLayout& layout, const char* data,
                            size_t size, PlyMesh& mesh) {
  const uint32_t nv = (uint32_t)header.elements[layout.vertex_element].count;
  Body b{path, header, layout, data, size, header.format == PlyFormat::BinaryBigEndian, mesh, nv};
  size_t at = header.body_offset;
  for (size_t ei = 0; ei < header.elements.size(); ++ei) {
    const PlyElement& e = header.elements[ei];
    // The fewest bytes a row can take: a bound on the rows the rest of the file can hold, checked
    // before anything is allocated for them (a header may claim 10^18 rows).
    size_t min_row = e.scalar_bytes();
    for (const PlyProperty& p : e.properties)
      if (p.is_list) min_row += ply_type_size(p.count_type);
    if (min_row == 0) continue;
    if (e.count > (size - at) / min_row)
      throw LoadError(path + ": " + word_or_quoted(e.name) + ": the header says " + std::to_string(e.count) +
                      " rows, the " + std::to_string(size - at) + " bytes left hold at most " +
                      std::to_string((size - at) / min_row) + " (truncated file?)");
    const bool wanted = ei == layout.vertex_element || ei == layout.face_element;
    if (ei == layout.vertex_element) allocate_vertex_arrays(mesh, layout, e.count);
    size_t stride = 0, end = kRagged;
    bool check_counts = false;
    std::vector<uint64_t> list_len(e.properties.size(), 0);
    if (!e.has_lists()) {
      at = wanted ? read_vertex_rows(b, ei, at, min_row) : at + e.count * min_row;
      continue;
    }
    if (ei == layout.face_element && uniform_lists(b, ei, at, stride, list_len, check_counts))
      end = read_face_rows(b, ei, at, stride, list_len, check_counts);
    if (end == kRagged) {  // rows of several sizes: what the parallel read wrote is read again
      mesh.indices.clear();
      mesh.short_faces = 0;
      end = walk_rows(b, ei, at);
    }
    at = end;
  }
  return at;
}

}  // namespace facet
