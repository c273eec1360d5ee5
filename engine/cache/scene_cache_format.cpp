// Writing and reading scene cache files (format in scene_cache_format.h). Arrays are a 64-bit
// count and the elements' raw bytes; strings a 64-bit length and their bytes. The reader
// bounds-checks every count before it reads, then copies the arrays out of the (memory-mapped)
// bytes it is given and checksums them in one pass on every core (scene_cache_pieces.h).
#include "engine/cache/scene_cache_format.h"

#include <cstring>
#include <memory>
#include <type_traits>

#include "engine/base/checksum.h"
#include "engine/cache/scene_cache_check.h"
#include "engine/cache/scene_cache_pieces.h"
#include "engine/meshlets/meshlets.h"

namespace facet {

namespace {

constexpr const char* kCorrupt = "checksum mismatch (corrupt)";

// The payload as pieces (scene_cache_pieces.h): the small fields gathered in one buffer, the
// arrays by pointer, so that they are checksummed on every core and written without a copy.
class Writer {
 public:
  void bytes(const void* p, size_t n) {
    if (!n) return;
    if (m_parts.empty() || m_parts.back().small_at == kExternal)
      m_parts.push_back({m_size, 0, nullptr, m_small.size()});
    m_small.insert(m_small.end(), static_cast<const uint8_t*>(p), static_cast<const uint8_t*>(p) + n);
    m_parts.back().size += n;
    m_size += n;
  }
  void u64(uint64_t v) { bytes(&v, sizeof v); }
  void text(const std::string& s) {
    u64(s.size());
    bytes(s.data(), s.size());
  }
  template <class T, class A>
  void array(const std::vector<T, A>& v) {
    static_assert(std::is_trivially_copyable<T>::value, "stored as raw bytes");
    u64(v.size());
    const uint64_t n = v.size() * sizeof(T);
    if (!n) return;
    m_parts.push_back({m_size, n, reinterpret_cast<const uint8_t*>(v.data()), kExternal});
    m_size += n;
  }
  void texts(const std::vector<std::string>& v) {
    u64(v.size());
    for (const std::string& s : v) text(s);
  }
  uint64_t size() const { return m_size; }
  // Valid while the scene and this writer are.
  std::vector<CachePiece> pieces() const {
    std::vector<CachePiece> out;
    for (const Part& p : m_parts)
      out.push_back({p.offset, p.size, p.small_at == kExternal ? p.from : m_small.data() + p.small_at, nullptr});
    return out;
  }

 private:
  static constexpr size_t kExternal = SIZE_MAX;  // a Part whose bytes are an array of the scene's
  struct Part {
    uint64_t offset, size;
    const uint8_t* from;  // an array's bytes, when small_at is kExternal
    size_t small_at;      // else where its bytes start in m_small
  };
  std::vector<uint8_t> m_small;
  std::vector<Part> m_parts;
  uint64_t m_size = 0;
};

// Walks the payload: small fields are copied at once, each array only claimed (ArrayClaims) and
// listed as a piece, to be copied on every core with the checksum (copy_and_checksum).
class Reader {
 public:
  Reader(const uint8_t* p, size_t n) : m_base(p), m_size(n) {}
  void bytes(void* out, size_t n) {
    need(n, "payload");
    std::memcpy(out, m_base + m_at, n);
    m_at += n;
  }
  uint64_t u64() {
    uint64_t v;
    bytes(&v, sizeof v);
    return v;
  }
  std::string text() {
    const uint64_t n = u64();
    need(n, "a string");
    std::string s(reinterpret_cast<const char*>(m_base + m_at), n);
    m_at += n;
    return s;
  }
  template <class T, class A>
  void array(std::vector<T, A>& out, const char* what) {
    const uint64_t n = u64();
    if (n > left() / sizeof(T)) throw CacheFormatError(std::string("truncated payload: ") + what);
    T* to = m_claims.claim(out, n);
    if (n) m_arrays.push_back({m_at, n * sizeof(T), m_base + m_at, reinterpret_cast<uint8_t*>(to)});
    m_at += n * sizeof(T);
  }
  std::vector<std::string> texts(const char* what) {
    const uint64_t n = u64();
    // Each string takes at least its 8-byte length: a count beyond that is a lie.
    if (n > left() / sizeof(uint64_t)) throw CacheFormatError(std::string("truncated payload: ") + what);
    std::vector<std::string> v;
    v.reserve(n);
    for (uint64_t i = 0; i < n; ++i) v.push_back(text());
    return v;
  }
  size_t left() const { return m_size - m_at; }

  // After the walk: sizes the claimed arrays, then copies them and returns the payload's checksum
  // (0 without `checksum`).
  uint64_t copy_arrays(bool checksum) {
    m_claims.size_all();
    std::vector<CachePiece> pieces;  // the arrays, and the small fields between them
    uint64_t at = 0;
    for (const CachePiece& a : m_arrays) {
      if (a.offset > at) pieces.push_back({at, a.offset - at, m_base + at, nullptr});
      pieces.push_back(a);
      at = a.offset + a.size;
    }
    if (m_size > at) pieces.push_back({at, m_size - at, m_base + at, nullptr});
    return copy_and_checksum(pieces, checksum);
  }

 private:
  void need(uint64_t n, const char* what) const {
    if (n > left()) throw CacheFormatError(std::string("truncated payload: ") + what);
  }
  const uint8_t* m_base;
  size_t m_size, m_at = 0;
  ArrayClaims m_claims;
  std::vector<CachePiece> m_arrays;
};

void write_payload(Writer& w, const Scene& s, const std::vector<std::string>& warnings, const std::string& source_path,
                   const std::vector<SourceFile>& depends) {
  w.text(source_path);
  w.u64(depends.size());
  for (const SourceFile& d : depends) {
    w.text(d.path);
    w.u64(d.size);
    w.u64((uint64_t)d.mtime_ns);
  }
  w.array(s.positions);
  w.array(s.normals);
  w.array(s.uvs);
  w.array(s.colors);
  w.array(s.indices);
  w.array(s.tri_material);
  w.array(s.materials);
  w.texts(s.material_names);
  w.array(s.textures);
  w.texts(s.texture_paths);
  w.array(s.texels);
  const Bounds& b = s.bounds;  // field by field: the struct has padding, and a bool
  const float bounds[10] = {b.min.x, b.min.y,    b.min.z,    b.max.x,    b.max.y,
                            b.max.z, b.center.x, b.center.y, b.center.z, b.radius};
  w.bytes(bounds, sizeof bounds);
  w.u64(b.closed ? 1 : 0);
  w.texts(warnings);
  w.array(s.meshlets->meshlets);
  w.array(s.meshlets->positions);
  w.array(s.meshlets->triangles);
  w.array(s.meshlets->triangle_ids);
  w.array(s.file_triangle);
}

// Fills `c` (which must stay where it is until r.copy_arrays: its arrays are claimed).
void read_payload(Reader& r, SceneCacheContents& c) {
  c.source_path = r.text();
  const uint64_t deps = r.u64();
  if (deps > r.left() / (3 * sizeof(uint64_t))) throw CacheFormatError("truncated payload: dependencies");
  for (uint64_t i = 0; i < deps; ++i) {
    SourceFile d;
    d.path = r.text();
    d.size = r.u64();
    d.mtime_ns = (int64_t)r.u64();
    c.depends.push_back(std::move(d));
  }
  Scene& s = c.scene;
  r.array(s.positions, "positions");
  r.array(s.normals, "normals");
  r.array(s.uvs, "uvs");
  r.array(s.colors, "vertex colours");
  r.array(s.indices, "indices");
  r.array(s.tri_material, "triangle materials");
  r.array(s.materials, "materials");
  s.material_names = r.texts("material names");
  r.array(s.textures, "textures");
  s.texture_paths = r.texts("texture paths");
  r.array(s.texels, "texels");
  float b[10];
  r.bytes(b, sizeof b);
  s.bounds.min = {b[0], b[1], b[2]};
  s.bounds.max = {b[3], b[4], b[5]};
  s.bounds.center = {b[6], b[7], b[8]};
  s.bounds.radius = b[9];
  s.bounds.closed = r.u64() != 0;
  s.warnings = r.texts("warnings");
  auto m = std::make_shared<Meshlets>();
  r.array(m->meshlets, "meshlets");
  r.array(m->positions, "meshlet positions");
  r.array(m->triangles, "meshlet triangles");
  r.array(m->triangle_ids, "meshlet triangle ids");
  r.array(s.file_triangle, "file triangle numbers");
  s.meshlets = std::move(m);
  if (r.left()) throw CacheFormatError("bytes after the payload's end");
}

}  // namespace

uint32_t scene_cache_layout() {
  // Each size in its own byte: a struct that grows or shrinks changes the value.
  return (uint32_t)sizeof(Vec3) | (uint32_t)sizeof(Material) << 8 | (uint32_t)sizeof(TextureDesc) << 16 |
         (uint32_t)(sizeof(Meshlet) + sizeof(Vec2) + sizeof(Rgba8)) << 24;
}

void write_scene_cache(platform::OutputFile& file, const Scene& scene, const std::vector<std::string>& warnings,
                       const std::string& source_path, const std::vector<SourceFile>& depends, uint64_t source_size,
                       int64_t source_mtime_ns) {
  if (!scene.meshlets) throw std::logic_error("write_scene_cache: scene has no meshlets");
  SceneCacheHeader h{};
  std::memcpy(h.magic, kSceneCacheMagic, sizeof h.magic);
  h.version = kSceneCacheVersion;
  h.layout = scene_cache_layout();
  h.source_size = source_size;
  h.source_mtime_ns = source_mtime_ns;
  Writer w;
  write_payload(w, scene, warnings, source_path, depends);
  h.payload_size = w.size();
  h.payload_checksum = write_and_checksum(w.pieces(), file, sizeof h);
  const std::string why = file.write_at(&h, sizeof h, 0);
  if (!why.empty()) throw std::runtime_error(why);
}

SceneCacheHeader read_scene_cache_header(const uint8_t* data, size_t size) {
  SceneCacheHeader h;
  if (size < sizeof h) throw CacheFormatError("truncated (shorter than its header)");
  std::memcpy(&h, data, sizeof h);
  if (std::memcmp(h.magic, kSceneCacheMagic, sizeof h.magic) != 0) throw CacheFormatError("not a facet scene cache");
  if (h.version != kSceneCacheVersion)
    throw CacheFormatError("format version " + std::to_string(h.version) + ", this facet reads " +
                           std::to_string(kSceneCacheVersion));
  if (h.layout != scene_cache_layout()) throw CacheFormatError("written by a build with other struct layouts");
  if (h.payload_size != size - sizeof h)
    throw CacheFormatError("truncated (" + std::to_string(size - sizeof h) + " of " + std::to_string(h.payload_size) +
                           " payload bytes)");
  return h;
}

SceneCacheContents read_scene_cache(const uint8_t* data, size_t size, bool verify_checksum) {
  const SceneCacheHeader h = read_scene_cache_header(data, size);
  const uint8_t* payload = data + sizeof h;
  SceneCacheContents c;
  Reader r(payload, h.payload_size);
  try {
    read_payload(r, c);
  } catch (const CacheFormatError&) {
    // A corrupt file is called corrupt, whatever its bad bytes made the walk trip over.
    if (verify_checksum && block_checksum(payload, h.payload_size) != h.payload_checksum)
      throw CacheFormatError(kCorrupt);
    throw;
  }
  const uint64_t sum = r.copy_arrays(verify_checksum);
  if (verify_checksum && sum != h.payload_checksum) throw CacheFormatError(kCorrupt);
  check_cached_scene(c.scene);
  return c;
}

}  // namespace facet
