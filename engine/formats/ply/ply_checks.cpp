// The PLY header against the file around it (ply_checks.h).
#include "engine/formats/ply/ply_checks.h"

#include <cstdint>

#include "engine/load/load_model.h"

namespace facet {

namespace {

// Bytes after the last declared row looked at to say what they hold (words and lines in ASCII,
// whether they are only blanks): enough for any real file's leftovers, and a bound on the time a
// tail of gigabytes (a sparse file) costs.
constexpr size_t kMaxTrailingScanBytes = size_t(16) << 20;

// Bytes of the smallest row of `e`: in binary its scalars and list counts (lists may be empty);
// in ASCII a one-digit word and a blank a property.
uint64_t min_row_bytes(const PlyElement& e, PlyFormat format) {
  if (format == PlyFormat::Ascii) return 2 * (uint64_t)e.properties.size();
  uint64_t n = e.scalar_bytes();
  for (const PlyProperty& p : e.properties)
    if (p.is_list) n += ply_type_size(p.count_type);
  return n;
}

bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

// Line ends in data[from, to) (\n, \r\n or a lone \r, as in the header); data[to] exists.
uint64_t line_ends(const char* data, size_t from, size_t to) {
  uint64_t n = 0;
  for (size_t i = from; i < to; ++i) n += data[i] == '\n' || (data[i] == '\r' && data[i + 1] != '\n');
  return n;
}

}  // namespace

void check_ply_counts_fit(const std::string& path, const PlyHeader& header, size_t file_size) {
  const uint64_t body = file_size - header.body_offset;
  uint64_t left = body;  // after the smallest rows of the elements checked so far
  const bool ascii = header.format == PlyFormat::Ascii;
  for (const PlyElement& e : header.elements) {
    const uint64_t row = min_row_bytes(e, header.format);
    if (row == 0) continue;
    // ASCII: the file's last word needs no blank after it.
    const uint64_t fit = (ascii ? left + 1 : left) / row;
    const std::string bytes =
        "the " + std::to_string(left) + " bytes left" + (left == body ? "" : " after the smallest rows before it") +
        " hold at most " + std::to_string(fit) + " (at least " + std::to_string(row) + " bytes a row" +
        (ascii ? ": a digit and a blank a property" : "") + "; line " + std::to_string(e.header_line) + ")";
    // Indices are 32-bit: said first, since it holds whatever the file's size.
    if (e.name == "vertex" && e.count > UINT32_MAX)
      throw LoadError(path + ": too many vertices (" + std::to_string(e.count) + "; at most 2^32 - 1); " + bytes);
    if (e.count > fit)
      throw LoadError(path + ": " + word_or_quoted(e.name) + ": the header says " + std::to_string(e.count) +
                      " rows, " + bytes + " (truncated file, or a wrong count?)");
    left -= e.count * row < left ? e.count * row : left;
  }
}

void check_ply_index_type(const std::string& path, const PlyHeader& header, const PlyLayout& layout) {
  const uint64_t vertices = header.elements[layout.vertex_element].count;
  const PlyElement& f = header.elements[layout.face_element];
  for (size_t pi = 0; pi < f.properties.size(); ++pi) {
    if (layout.roles[layout.face_element][pi] != PlyRole::Indices) continue;
    const PlyProperty& p = f.properties[pi];
    const uint64_t largest = (uint64_t)ply_type_range(p.type).hi;
    if (vertices == 0 || vertices - 1 <= largest) continue;
    throw LoadError(path + ":" + std::to_string(p.header_line) + ": face list " + word_or_quoted(p.name) + " holds " +
                    ply_type_name(p.type) + " indices (at most " + std::to_string(largest) +
                    ") but the vertex element has " + std::to_string(vertices) + " vertices: vertices past " +
                    std::to_string(largest) +
                    " cannot be named, so the writer cut the indices and the faces would come out wrong");
  }
}

void warn_ply_trailing_data(const PlyHeader& header, const char* data, size_t size, size_t end,
                            FormatWarnings& warnings) {
  // Only this much of what follows is looked at: a tail of gigabytes is reported by its size.
  const size_t scan_end = size - end > kMaxTrailingScanBytes ? end + kMaxTrailingScanBytes : size;
  size_t first = end;
  while (first < scan_end && blank(data[first])) ++first;
  if (first >= size) return;
  const PlyElement& final_element = header.elements.back();
  const std::string after = "after the last row the header declares (element " + word_or_quoted(final_element.name) +
                            ", " + std::to_string(final_element.count) + " rows); the header's counts are what is read";
  if (header.format != PlyFormat::Ascii || first >= scan_end) {
    warnings.add("data after the declared rows",
                 "ignored " + std::to_string(size - end) + " bytes from byte " + std::to_string(end) + ", " + after);
    return;
  }
  uint64_t words = 0;
  size_t last = first;  // the last word's first byte
  for (size_t i = first; i < scan_end;) {
    while (i < scan_end && blank(data[i])) ++i;
    if (i >= scan_end) break;
    ++words;
    last = i;
    while (i < scan_end && !blank(data[i])) ++i;
  }
  const std::string what =
      std::to_string(words) + " words on " + std::to_string(1 + line_ends(data, first, last)) + " lines";
  warnings.add_at_line("data after the declared rows", 1 + line_ends(data, 0, first),
                       "ignored " +
                           (scan_end == size ? what
                                             : std::to_string(size - first) + " bytes (" + what + " in the first " +
                                                   std::to_string(kMaxTrailingScanBytes >> 20) + " MiB of them)") +
                           " from here, " + after);
}

}  // namespace facet
