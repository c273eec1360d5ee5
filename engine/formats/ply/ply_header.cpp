// PLY header parsing: lines end in \n, \r\n or a lone \r (Rhino writes the last); words are split
// by blanks and tabs. What the specification does not define is refused with its line number, and
// so is what facet would read wrongly (a name given twice, a second vertex or face element).
// Names and words from the file are quoted in messages (format_messages.h).
#include "engine/formats/ply/ply_header.h"

#include <charconv>
#include <cstdio>
#include <string_view>

#include "engine/formats/format_messages.h"
#include "engine/load/load_model.h"

namespace facet {

namespace {

// A header larger than this is not a PLY header but a binary file that happens to start "ply".
constexpr size_t kMaxHeaderBytes = 1 << 20;

struct TypeName {
  const char* name;
  PlyType type;
};
constexpr TypeName kTypeNames[] = {
    {"char", PlyType::Int8},      {"int8", PlyType::Int8},       {"uchar", PlyType::UInt8},
    {"uint8", PlyType::UInt8},    {"short", PlyType::Int16},     {"int16", PlyType::Int16},
    {"ushort", PlyType::UInt16},  {"uint16", PlyType::UInt16},   {"int", PlyType::Int32},
    {"int32", PlyType::Int32},    {"uint", PlyType::UInt32},     {"uint32", PlyType::UInt32},
    {"float", PlyType::Float32},  {"float32", PlyType::Float32}, {"double", PlyType::Float64},
    {"float64", PlyType::Float64}};

std::string str(std::string_view w) { return std::string(w); }

std::vector<std::string_view> split_words(std::string_view line) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    size_t b = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > b) words.push_back(line.substr(b, i - b));
  }
  return words;
}

class HeaderParser {
 public:
  HeaderParser(const std::string& path, const char* data, size_t size)
      : m_path(path), m_data(data), m_size(size < kMaxHeaderBytes ? size : kMaxHeaderBytes) {}

  PlyHeader parse();

 private:
  [[noreturn]] void refuse(const std::string& what) const {
    throw LoadError(m_path + ":" + std::to_string(m_line) + ": " + what);
  }
  PlyType type_of(std::string_view word) const {
    for (const TypeName& t : kTypeNames)
      if (word == t.name) return t.type;
    refuse("unknown property type " + quoted(word));
  }
  // The next line (without its terminator), or false at the end of the scanned bytes.
  bool next_line(std::string_view& line);
  void statement(const std::vector<std::string_view>& w);
  void element(const std::vector<std::string_view>& w);
  void property(const std::vector<std::string_view>& w);
  [[noreturn]] void refuse_no_end(size_t binary_at) const;
  // Whether "end_header" occurs after the current line. The place found is kept until the lines
  // pass it, so a header of a million odd lines is searched once, not once a line.
  bool end_header_follows() {
    if (m_end_mark != std::string_view::npos && m_end_mark < m_at)
      m_end_mark = std::string_view(m_data, m_size).find("end_header", m_at);
    return m_end_mark != std::string_view::npos;
  }

  const std::string& m_path;
  const char* m_data;
  size_t m_size;
  size_t m_at = 0;
  int m_line = 0;
  bool m_has_format = false, m_done = false;
  bool m_lone_cr = false;  // lines end in a lone \r (then \r\n is not one terminator)
  PlyHeader m_header;
  size_t m_end_mark = 0;  // where end_header_follows() last found "end_header"; npos: nowhere after
};

bool HeaderParser::next_line(std::string_view& line) {
  if (m_at >= m_size) return false;
  size_t b = m_at;
  while (m_at < m_size && m_data[m_at] != '\n' && m_data[m_at] != '\r') ++m_at;
  line = std::string_view(m_data + b, m_at - b);
  if (m_at < m_size && m_data[m_at] == '\r') {
    ++m_at;
    // After end_header in a file whose lines end in a lone \r, a \n is the body's first byte.
    if (!m_lone_cr && m_at < m_size && m_data[m_at] == '\n') ++m_at;
  } else if (m_at < m_size) {
    ++m_at;
  }
  ++m_line;
  return true;
}

void HeaderParser::statement(const std::vector<std::string_view>& w) {
  const std::string_view key = w[0];
  if (key == "comment" || key == "obj_info") return;
  if (key == "format") {
    if (w.size() != 3) refuse("expected 'format ascii|binary_little_endian|binary_big_endian 1.0'");
    if (w[1] == "ascii")
      m_header.format = PlyFormat::Ascii;
    else if (w[1] == "binary_little_endian")
      m_header.format = PlyFormat::BinaryLittleEndian;
    else if (w[1] == "binary_big_endian")
      m_header.format = PlyFormat::BinaryBigEndian;
    else
      refuse("unknown format " + quoted(w[1]));
    if (w[2] != "1.0") refuse("unsupported PLY version " + quoted(w[2]) + " (only 1.0)");
    m_has_format = true;
  } else if (key == "element") {
    element(w);
  } else if (key == "property") {
    property(w);
  } else if (key == "end_header") {
    m_done = true;
  } else {
    // With no end_header after it, a line that starts with a number is the body, begun without one.
    const bool ends = end_header_follows();
    const bool number = key[0] == '-' || key[0] == '+' || key[0] == '.' || (key[0] >= '0' && key[0] <= '9');
    if (!ends && number)
      refuse("the PLY header has no end_header line: the body seems to start on this line (" + quoted(key, 40) +
             " is a number, not a header keyword)");
    refuse("unknown header keyword " + quoted(key) + (ends ? "" : ", and no end_header line follows"));
  }
}

void HeaderParser::element(const std::vector<std::string_view>& w) {
  if (w.size() != 3) refuse("expected 'element NAME COUNT'");
  PlyElement e;
  e.name = str(w[1]);
  e.header_line = m_line;
  // facet reads the first vertex and the first face element: the rows of a second one would be
  // dropped without a word, so such a file is refused (no writer known to facet splits them).
  if (e.name == "vertex" || e.name == "face")
    for (const PlyElement& before : m_header.elements)
      if (before.name == e.name)
        refuse("a second " + e.name + " element (the first is on line " + std::to_string(before.header_line) +
               "); facet reads one vertex and one face element, and would drop this one's rows");
  auto r = std::from_chars(w[2].data(), w[2].data() + w[2].size(), e.count);
  if (r.ec != std::errc() || r.ptr != w[2].data() + w[2].size())
    refuse("element " + word_or_quoted(e.name) + ": count " + quoted(w[2]) +
           " is not a non-negative integer that fits 64 bits");
  m_header.elements.push_back(std::move(e));
}

void HeaderParser::property(const std::vector<std::string_view>& w) {
  if (m_header.elements.empty()) refuse("property before any element");
  PlyProperty p;
  p.header_line = m_line;
  if (w.size() == 5 && w[1] == "list") {
    p.is_list = true;
    p.count_type = type_of(w[2]);
    p.type = type_of(w[3]);
    p.name = str(w[4]);
    if (!ply_type_is_integer(p.count_type))
      refuse("list " + word_or_quoted(p.name) + ": count type " + quoted(w[2]) + " is not an integer type");
  } else if (w.size() == 3 && w[1] != "list") {
    p.type = type_of(w[1]);
    p.name = str(w[2]);
  } else {
    refuse("expected 'property TYPE NAME' or 'property list COUNT_TYPE TYPE NAME'");
  }
  PlyElement& e = m_header.elements.back();
  // Two properties of one name: which one a reader takes is arbitrary, so the file's meaning is
  // unclear and it is refused.
  for (const PlyProperty& before : e.properties)
    if (before.name == p.name)
      refuse("element " + word_or_quoted(e.name) + " has a second property " + word_or_quoted(p.name) +
             " (the first is on line " + std::to_string(before.header_line) + ")");
  e.properties.push_back(std::move(p));
}

void HeaderParser::refuse_no_end(size_t binary_at) const {
  std::string what = m_path + ": the PLY header has no end_header line";
  if (binary_at != std::string_view::npos) {
    throw LoadError(what + ": line " + std::to_string(m_line) + " holds binary data (" +
                    binary_byte(std::string_view(m_data, m_size), binary_at) + ") after " + std::to_string(m_line - 1) +
                    " header lines");
  }
  throw LoadError(what + " (looked through " +
                  (m_size == kMaxHeaderBytes ? std::string("its first megabyte, the most a header may take")
                                             : "all " + std::to_string(m_size) + " bytes of the file") +
                  ", " + std::to_string(m_line) + " lines)");
}

PlyHeader HeaderParser::parse() {
  std::string_view line;
  if (!next_line(line) || line != "ply") throw LoadError(m_path + ": not a PLY file (the first line is not 'ply')");
  m_lone_cr = m_at >= 1 && m_data[m_at - 1] == '\r';
  while (!m_done) {
    if (!next_line(line)) refuse_no_end(std::string_view::npos);
    const size_t binary = first_binary_byte(line);
    // A control byte in a header that ends later is the line's own problem (refused below); with
    // no end_header after it, the header never ended and this is the body.
    if (binary != std::string_view::npos && !end_header_follows())
      refuse_no_end((size_t)(line.data() - m_data) + binary);
    std::vector<std::string_view> words = split_words(line);
    if (!words.empty()) statement(words);
  }
  if (!m_has_format) refuse("the header has no format line");
  m_header.body_offset = m_at;
  return std::move(m_header);
}

}  // namespace

size_t ply_type_size(PlyType type) {
  switch (type) {
    case PlyType::Int8:
    case PlyType::UInt8:
      return 1;
    case PlyType::Int16:
    case PlyType::UInt16:
      return 2;
    case PlyType::Int32:
    case PlyType::UInt32:
    case PlyType::Float32:
      return 4;
    case PlyType::Float64:
      return 8;
  }
  return 0;
}

bool ply_type_is_integer(PlyType type) { return type != PlyType::Float32 && type != PlyType::Float64; }

const char* ply_type_name(PlyType type) {
  static const char* kNames[] = {"char", "uchar", "short", "ushort", "int", "uint", "float", "double"};
  return kNames[(int)type];
}

PlyRange ply_type_range(PlyType type) {
  switch (type) {
    case PlyType::Int8:
      return {INT8_MIN, INT8_MAX};
    case PlyType::UInt8:
      return {0, UINT8_MAX};
    case PlyType::Int16:
      return {INT16_MIN, INT16_MAX};
    case PlyType::UInt16:
      return {0, UINT16_MAX};
    case PlyType::Int32:
      return {INT32_MIN, INT32_MAX};
    default:
      return {0, UINT32_MAX};
  }
}

bool PlyElement::has_lists() const {
  for (const PlyProperty& p : properties)
    if (p.is_list) return true;
  return false;
}

size_t PlyElement::scalar_bytes() const {
  size_t n = 0;
  for (const PlyProperty& p : properties)
    if (!p.is_list) n += ply_type_size(p.type);
  return n;
}

PlyHeader parse_ply_header(const std::string& path, const char* data, size_t size) {
  return HeaderParser(path, data, size).parse();
}

}  // namespace facet
