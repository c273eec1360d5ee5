// load_stl: decide binary or ASCII, read the triangles' corners (binary in parallel: fixed
// 50-byte records), weld equal positions into shared vertices, finish the scene (scene_finish).
#include "engine/formats/stl/stl_loader.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "engine/base/mapped_file.h"
#include "engine/base/parallel.h"
#include "engine/formats/format_messages.h"
#include "engine/scene/scene_finish.h"

namespace facet {

namespace {

constexpr size_t kHeaderBytes = 84;             // 80-byte comment + uint32 triangle count
constexpr size_t kRecordBytes = 50;             // normal, 3 corners (12 floats), uint16 attribute
constexpr uint64_t kRecordsPerChunk = 1 << 15;  // parallel work item: cheap to hand out, even spread
// Bytes at the start of a file that starts with "solid" looked at for what no ASCII STL holds
// (NUL and other control bytes): a binary header and the first records, where floats put them.
constexpr size_t kTextSampleBytes = 4096;

float le_float(const char* p) {
  uint32_t u;
  std::memcpy(&u, p, 4);
  if constexpr (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) u = __builtin_bswap32(u);
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

uint32_t le_u32(const char* p) {
  uint32_t u;
  std::memcpy(&u, p, 4);
  if constexpr (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) u = __builtin_bswap32(u);
  return u;
}

std::vector<Vec3> read_binary(const char* data, uint64_t n) {
  std::vector<Vec3> corners(n * 3);
  parallel_for(n, kRecordsPerChunk, [&](uint64_t b, uint64_t e, unsigned) {
    for (uint64_t t = b; t < e; ++t) {
      const char* r = data + kHeaderBytes + t * kRecordBytes + 12;  // past the facet normal
      for (int k = 0; k < 3; ++k)
        corners[t * 3 + k] = {le_float(r + 12 * k), le_float(r + 12 * k + 4), le_float(r + 12 * k + 8)};
    }
  });
  return corners;
}

// ASCII STL, word by word: solid NAME, then facets (facet normal x y z / outer loop / vertex x y
// z ... / endloop / endfacet) until endsolid; several solids in one file are read in turn.
class AsciiStl {
 public:
  AsciiStl(const std::string& path, const char* data, size_t size) : m_path(path), m_p(data), m_end(data + size) {}
  std::vector<Vec3> read(size_t& short_facets);

 private:
  [[noreturn]] void refuse(const std::string& what) const {
    // At the end of a file that ends in a newline, the last line is the one before it.
    int line = m_p == m_end && m_line > 1 && m_end[-1] == '\n' ? m_line - 1 : m_line;
    throw LoadError(m_path + ":" + std::to_string(line) + ": " + what);
  }
  std::string_view word() {
    while (m_p < m_end && (*m_p == ' ' || *m_p == '\t' || *m_p == '\r' || *m_p == '\n')) {
      if (*m_p == '\n') ++m_line;
      ++m_p;
    }
    const char* b = m_p;
    while (m_p < m_end && *m_p != ' ' && *m_p != '\t' && *m_p != '\r' && *m_p != '\n') ++m_p;
    return {b, (size_t)(m_p - b)};
  }
  void expect(std::string_view want) {
    std::string_view w = word();
    if (w != want)
      refuse("expected '" + std::string(want) + "', found " +
             (w.empty() ? std::string("the end of the file") : shown(w)));
  }
  static std::string shown(std::string_view w) { return quoted(w, 40); }
  float number() {
    std::string_view w = word();
    if (w.size() > 1 && w[0] == '+') w.remove_prefix(1);
    float v = 0;
    auto r = std::from_chars(w.data(), w.data() + w.size(), v);
    if (r.ec == std::errc::result_out_of_range) return w[0] == '-' ? -HUGE_VALF : HUGE_VALF;
    if (w.empty() || r.ec != std::errc() || r.ptr != w.data() + w.size()) refuse(shown(w) + " is not a number");
    return v;
  }
  void skip_line() {
    while (m_p < m_end && *m_p != '\n') ++m_p;
  }

  const std::string& m_path;
  const char* m_p;
  const char* m_end;
  int m_line = 1;
};

std::vector<Vec3> AsciiStl::read(size_t& short_facets) {
  std::vector<Vec3> corners, loop;
  expect("solid");
  skip_line();  // the solid's name
  for (;;) {
    std::string_view w = word();
    if (w == "endsolid") {
      skip_line();
      w = word();
      if (w.empty()) break;
      if (w != "solid") refuse("expected 'solid' or the end of the file, found " + shown(w));
      skip_line();
      continue;
    }
    if (w != "facet")
      refuse(w.empty() ? "the file ends before 'endsolid'" : "expected 'facet' or 'endsolid', found " + shown(w));
    expect("normal");
    for (int k = 0; k < 3; ++k) number();  // ignored: normals are computed (stl_loader.h)
    expect("outer");
    expect("loop");
    loop.clear();
    for (w = word(); w == "vertex"; w = word()) {
      float x = number(), y = number();
      loop.push_back({x, y, number()});
    }
    if (w != "endloop")
      refuse("expected 'vertex' or 'endloop', found " + (w.empty() ? std::string("the end of the file") : shown(w)));
    expect("endfacet");
    if (loop.size() < 3) ++short_facets;
    for (size_t k = 2; k < loop.size(); ++k) corners.insert(corners.end(), {loop[0], loop[k - 1], loop[k]});
  }
  return corners;
}

bool starts_with_solid(const char* data, size_t size) {
  size_t i = 0;
  while (i < size && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n')) ++i;
  return size - i >= 5 && std::memcmp(data + i, "solid", 5) == 0;
}

// The first byte in the file's first kTextSampleBytes that no ASCII STL holds, or SIZE_MAX: a
// "solid" file with one is binary.
size_t first_binary_byte(const char* data, size_t size) {
  const size_t at = facet::first_binary_byte(std::string_view(data, size < kTextSampleBytes ? size : kTextSampleBytes));
  return at == std::string_view::npos ? SIZE_MAX : at;
}

// A binary file's corners, its size checked against the count in its header: a file too short for
// it is refused, one longer is read as far as the count says, with a warning (the header's count
// is what binary STL readers go by). `why`: why the file was taken as binary, for messages.
std::vector<Vec3> read_binary_checked(const std::string& path, const char* data, size_t size, const std::string& why,
                                      FormatWarnings& warnings) {
  const uint64_t n = le_u32(data + 80);
  const uint64_t expected = kHeaderBytes + kRecordBytes * n;
  const uint64_t room = (size - kHeaderBytes) / kRecordBytes;  // whole 50-byte records after the header
  const std::string says = "its header says " + std::to_string(n) + " triangles (" + std::to_string(expected) +
                           " bytes), the file has " + std::to_string(size) + " bytes";
  if (expected > size) throw LoadError(path + ": binary STL" + why + " truncated: " + says);
  if (n == 0 && room == 0) throw LoadError(path + ": no triangles to show (the STL has no facets)");
  if (n == 0)
    throw LoadError(path + ": no triangles to show: binary STL" + why + ": " + says + ", room for " +
                    std::to_string(room) + " (a writer that did not fill in the count?)");
  if (expected < size)
    warnings.add("bytes after the triangles", "binary STL" + why + ": ignored " + std::to_string(size - expected) +
                                                  " bytes after the " + std::to_string(n) + " triangles (from byte " +
                                                  std::to_string(expected) + "): " + says);
  return read_binary(data, n);
}

}  // namespace

namespace {

uint32_t key_bits(float f) {
  if (f == 0.0f) f = 0.0f;  // -0 and 0 are one position
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

uint64_t hash_position(const Vec3& p) {
  uint64_t h = key_bits(p.x) * 0x9E3779B97F4A7C15ull;
  h ^= key_bits(p.y) + 0x7F4A7C159E3779B9ull + (h << 6) + (h >> 2);
  h ^= key_bits(p.z) * 0xC2B2AE3D27D4EB4Full + (h << 6) + (h >> 2);
  return h ^ (h >> 29);
}

bool same_position(const Vec3& a, const Vec3& b) {
  return key_bits(a.x) == key_bits(b.x) && key_bits(a.y) == key_bits(b.y) && key_bits(a.z) == key_bits(b.z);
}

}  // namespace

void weld_corners(const std::vector<Vec3>& corners, BigVector<Vec3>& positions, BigVector<uint32_t>& indices) {
  // Open addressing, at most half full: one probe on average. Sequential: welding is a few
  // percent of loading even for the largest STL files met (tens of millions of corners).
  size_t capacity = 16;
  while (capacity < corners.size() * 2) capacity *= 2;
  const uint32_t kEmpty = UINT32_MAX;
  std::vector<uint32_t> table(capacity, kEmpty);
  positions.clear();
  indices.resize(corners.size());
  for (size_t c = 0; c < corners.size(); ++c) {
    const Vec3& p = corners[c];
    size_t slot = hash_position(p) & (capacity - 1);
    while (table[slot] != kEmpty && !same_position(positions[table[slot]], p)) slot = (slot + 1) & (capacity - 1);
    if (table[slot] == kEmpty) {
      table[slot] = (uint32_t)positions.size();
      positions.push_back(p);
    }
    indices[c] = table[slot];
  }
}

Scene load_stl(const std::string& path, const LoadOptions& options) {
  auto progress = [&](float f, const char* stage) {
    if (options.progress) options.progress(f, stage);
  };
  progress(0.0f, "reading");
  MappedFile file(path, true);
  const std::string shown = shown_path(path);  // the path in messages
  if (file.size() == 0) throw LoadError(shown + ": the file is empty");
  const char* data = file.data();
  const size_t size = file.size();
  Scene scene;
  scene.source = path;
  FormatWarnings warnings(path);
  std::vector<Vec3> corners;
  progress(0.1f, "parsing");
  // Binary when the size is what the count in the header asks for, or when the file does not
  // start with "solid", or when it does but is not text (many binary writers put "solid" in the
  // header): then a count that disagrees with the size is reported as such, not as broken ASCII.
  const bool solid = starts_with_solid(data, size);
  const size_t binary_at = solid ? first_binary_byte(data, size) : SIZE_MAX;
  const bool exact = size >= kHeaderBytes && size == kHeaderBytes + kRecordBytes * (uint64_t)le_u32(data + 80);
  if (size >= kHeaderBytes && (exact || !solid || binary_at != SIZE_MAX)) {
    const std::string why =
        exact || !solid
            ? ""
            : " (it starts with 'solid' but is not text: " + binary_byte(std::string_view(data, size), binary_at) + ")";
    corners = read_binary_checked(shown, data, size, why, warnings);
  } else if (solid && binary_at == SIZE_MAX) {
    size_t short_facets = 0;
    corners = AsciiStl(shown, data, size).read(short_facets);
    if (short_facets)
      warnings.add("facets with fewer than 3 vertices",
                   "ignored " + std::to_string(short_facets) + " facets with fewer than 3 vertices");
  } else {
    throw LoadError(shown + ": not an STL file (" + std::to_string(size) +
                    " bytes: too short for a binary STL, which takes 84 at least, and " +
                    (solid ? "not ASCII text: " + binary_byte(std::string_view(data, size), binary_at)
                           : std::string("no 'solid' for an ASCII one")) +
                    ")");
  }
  if (corners.empty()) throw LoadError(shown + ": no triangles to show (the STL has no facets)");
  if (corners.size() >= UINT32_MAX) throw LoadError(shown + ": too many triangles for 32-bit indices");
  warnings.finish(scene);
  progress(0.4f, "building");
  weld_corners(corners, scene.positions, scene.indices);
  std::vector<Vec3>().swap(corners);
  finish_scene(scene, path);
  progress(1.0f, "done");
  return scene;
}

}  // namespace facet
