// ASCII PLY bodies: one stream of blank-separated words (rows need not be lines), read in order.
// Numbers through std::from_chars (exact, locale-free, and in libstdc++ as fast as fast_float).
#include <charconv>
#include <cmath>
#include <string_view>

#include "engine/formats/format_messages.h"
#include "engine/formats/ply/ply_body.h"
#include "engine/load/load_model.h"

namespace facet {

namespace {

bool blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

class AsciiBody {
 public:
  AsciiBody(const std::string& path, const PlyHeader& header, const PlyLayout& layout, const char* data, size_t size,
            PlyMesh& mesh)
      : m_path(path),
        m_header(header),
        m_layout(layout),
        m_p(data + header.body_offset),
        m_end(data + size),
        m_mesh(mesh) {}

  // Returns the offset just past the last word read.
  size_t read(const char* data) {
    for (size_t ei = 0; ei < m_header.elements.size(); ++ei) read_element(ei);
    return (size_t)(m_p - data);
  }

 private:
  [[noreturn]] void refuse(const std::string& what) const {
    throw LoadError(m_path + ": " + word_or_quoted(m_element->name) + " " + std::to_string(m_row) + ": " + what);
  }
  std::string_view word() {
    while (m_p < m_end && blank(*m_p)) ++m_p;
    const char* b = m_p;
    while (m_p < m_end && !blank(*m_p)) ++m_p;
    if (m_p == b)
      refuse("the file ends inside this row (truncated; the header says " + std::to_string(m_element->count) +
             " rows)");
    return {b, (size_t)(m_p - b)};
  }
  double real(std::string_view w) {
    if (w.size() > 1 && w[0] == '+') w.remove_prefix(1);
    double v = 0;
    auto r = std::from_chars(w.data(), w.data() + w.size(), v);
    if (r.ec == std::errc::result_out_of_range) return w[0] == '-' ? -HUGE_VAL : HUGE_VAL;
    if (r.ec != std::errc() || r.ptr != w.data() + w.size()) refuse(quoted(w, 40) + " is not a number");
    return v;
  }
  int64_t integer(std::string_view w) {
    if (w.size() > 1 && w[0] == '+') w.remove_prefix(1);
    int64_t v = 0;
    auto r = std::from_chars(w.data(), w.data() + w.size(), v);
    if (r.ec != std::errc() || r.ptr != w.data() + w.size()) refuse(quoted(w, 40) + " is not an integer");
    return v;
  }
  // Refuses an integer that its declared type cannot hold (a uchar count of 300): the header
  // means the same in ASCII as in binary, where such a value would have wrapped.
  void check_fits(const PlyProperty& p, const char* what, PlyType type, int64_t v) {
    const PlyRange r = ply_type_range(type);
    if (v < r.lo || v > r.hi)
      refuse("list " + word_or_quoted(p.name) + ": " + what + " " + std::to_string(v) + " does not fit its type " +
             ply_type_name(type) + " (" + std::to_string(r.lo) + ".." + std::to_string(r.hi) + ")");
  }
  void read_element(size_t ei);
  void read_list(const PlyProperty& p, PlyRole role);

  const std::string& m_path;
  const PlyHeader& m_header;
  const PlyLayout& m_layout;
  const char* m_p;
  const char* m_end;
  PlyMesh& m_mesh;
  const PlyElement* m_element = nullptr;
  uint64_t m_row = 0;
};

void AsciiBody::read_list(const PlyProperty& p, PlyRole role) {
  int64_t c = integer(word());
  if (c < 0) refuse("list " + word_or_quoted(p.name) + " has a negative length (" + std::to_string(c) + ")");
  check_fits(p, "count", p.count_type, c);
  // Every entry takes at least two bytes (a digit and a blank) but the file's last.
  if ((uint64_t)c > (uint64_t)(m_end - m_p) / 2 + 1)
    refuse("list " + word_or_quoted(p.name) + " of " + std::to_string(c) + " entries runs past the end of the file");
  if (role != PlyRole::Indices) {
    for (int64_t j = 0; j < c; ++j) word();
    return;
  }
  if (c < 3) {
    if (m_mesh.short_faces++ == 0) m_mesh.first_short_face = m_row;
    for (int64_t j = 0; j < c; ++j) word();
    return;
  }
  const int64_t nv = (int64_t)m_header.elements[m_layout.vertex_element].count;
  uint32_t first = 0, prev = 0;
  for (int64_t j = 0; j < c; ++j) {
    int64_t i = integer(word());
    check_fits(p, "index", p.type, i);
    if (i < 0 || i >= nv) refuse("index " + std::to_string(i) + " out of range (" + std::to_string(nv) + " vertices)");
    if (j == 0) first = (uint32_t)i;
    if (j >= 2) m_mesh.indices.insert(m_mesh.indices.end(), {first, prev, (uint32_t)i});
    prev = (uint32_t)i;
  }
}

void AsciiBody::read_element(size_t ei) {
  const PlyElement& e = m_header.elements[ei];
  m_element = &e;
  m_row = 0;
  const std::vector<PlyRole>& roles = m_layout.roles[ei];
  const bool vertices = ei == m_layout.vertex_element;
  if (e.properties.empty()) return;
  // Each row takes at least two bytes a property (but the file's last): checked before the
  // vertex arrays are sized, since a header may claim 10^18 rows.
  const uint64_t left = (uint64_t)(m_end - m_p);
  if (e.count > (left + 1) / (2 * e.properties.size()))
    throw LoadError(m_path + ": " + word_or_quoted(e.name) + ": the header says " + std::to_string(e.count) +
                    " rows, more than the " + std::to_string(left) + " bytes left can hold (truncated file?)");
  if (vertices) allocate_vertex_arrays(m_mesh, m_layout, e.count);
  for (; m_row < e.count; ++m_row)
    for (size_t pi = 0; pi < e.properties.size(); ++pi) {
      const PlyProperty& p = e.properties[pi];
      if (p.is_list) {
        read_list(p, roles[pi]);
      } else if (vertices && roles[pi] != PlyRole::Skip) {
        store_vertex_value(m_mesh, m_row, roles[pi], p.type, real(word()));
      } else {
        word();
      }
    }
}

}  // namespace

size_t read_ply_ascii_body(const std::string& path, const PlyHeader& header, const PlyLayout& layout, const char* data,
                           size_t size, PlyMesh& mesh) {
  return AsciiBody(path, header, layout, data, size, mesh).read(data);
}

}  // namespace facet
