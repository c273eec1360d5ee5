// Writing and reading scene cache files (format in scene_cache_format.h). Arrays are a 64-bit
// count and the elements' raw bytes; strings a 64-bit length and their bytes. The reader copies
// out of the (memory-mapped) bytes it is given and bounds-checks every count before it reads.
#include "engine/scene_cache_format.h"

#include <cstring>
#include <memory>
#include <type_traits>

#include "engine/checksum.h"
#include "engine/meshlets.h"
#include "engine/parallel.h"
#include "engine/scene_cache_check.h"

namespace facet {

namespace {

class Writer {
 public:
  explicit Writer(std::FILE* out) : m_out(out) {}
  void bytes(const void* p, size_t n) {
    if (n && std::fwrite(p, 1, n, m_out) != n) throw std::runtime_error("write failed");
    m_sum.add(p, n);
    m_size += n;
  }
  void u64(uint64_t v) { bytes(&v, sizeof v); }
  void text(const std::string& s) {
    u64(s.size());
    bytes(s.data(), s.size());
  }
  template <class T>
  void array(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable<T>::value, "stored as raw bytes");
    u64(v.size());
    bytes(v.data(), v.size() * sizeof(T));
  }
  void texts(const std::vector<std::string>& v) {
    u64(v.size());
    for (const std::string& s : v) text(s);
  }
  uint64_t size() const { return m_size; }
  uint64_t checksum() const { return m_sum.value(); }

 private:
  std::FILE* m_out;
  BlockChecksum m_sum;
  uint64_t m_size = 0;
};

// Bytes per chunk of a parallel copy out of the mapped file.
constexpr uint64_t kCopyChunk = uint64_t(8) << 20;

class Reader {
 public:
  Reader(const uint8_t* p, size_t n) : m_p(p), m_left(n) {}
  void bytes(void* out, size_t n) {
    need(n, "payload");
    // Large arrays are copied on every core: a cache hit is mostly this copy and the checksum.
    parallel_for(n, kCopyChunk, [&](uint64_t begin, uint64_t end, unsigned) {
      std::memcpy(static_cast<uint8_t*>(out) + begin, m_p + begin, end - begin);
    });
    m_p += n;
    m_left -= n;
  }
  uint64_t u64() {
    uint64_t v;
    bytes(&v, sizeof v);
    return v;
  }
  std::string text() {
    const uint64_t n = u64();
    need(n, "a string");
    std::string s(reinterpret_cast<const char*>(m_p), n);
    m_p += n;
    m_left -= n;
    return s;
  }
  template <class T>
  std::vector<T> array(const char* what) {
    const uint64_t n = u64();
    if (n > m_left / sizeof(T)) throw CacheFormatError(std::string("truncated payload: ") + what);
    std::vector<T> v(n);
    bytes(v.data(), n * sizeof(T));
    return v;
  }
  std::vector<std::string> texts(const char* what) {
    const uint64_t n = u64();
    // Each string takes at least its 8-byte length: a count beyond that is a lie.
    if (n > m_left / sizeof(uint64_t)) throw CacheFormatError(std::string("truncated payload: ") + what);
    std::vector<std::string> v;
    v.reserve(n);
    for (uint64_t i = 0; i < n; ++i) v.push_back(text());
    return v;
  }
  size_t left() const { return m_left; }

 private:
  void need(uint64_t n, const char* what) const {
    if (n > m_left) throw CacheFormatError(std::string("truncated payload: ") + what);
  }
  const uint8_t* m_p;
  size_t m_left;
};

void write_payload(Writer& w, const Scene& s, const std::string& source_path,
                   const std::vector<CacheDependency>& depends) {
  w.text(source_path);
  w.u64(depends.size());
  for (const CacheDependency& d : depends) {
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
  const float bounds[10] = {b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z,
                            b.center.x, b.center.y, b.center.z, b.radius};
  w.bytes(bounds, sizeof bounds);
  w.u64(b.closed ? 1 : 0);
  w.texts(s.warnings);
  w.array(s.meshlets->meshlets);
  w.array(s.meshlets->positions);
  w.array(s.meshlets->triangles);
  w.array(s.meshlets->triangle_ids);
}

SceneCacheContents read_payload(Reader& r) {
  SceneCacheContents c;
  c.source_path = r.text();
  const uint64_t deps = r.u64();
  if (deps > r.left() / (3 * sizeof(uint64_t))) throw CacheFormatError("truncated payload: dependencies");
  for (uint64_t i = 0; i < deps; ++i) {
    CacheDependency d;
    d.path = r.text();
    d.size = r.u64();
    d.mtime_ns = (int64_t)r.u64();
    c.depends.push_back(std::move(d));
  }
  Scene& s = c.scene;
  s.positions = r.array<Vec3>("positions");
  s.normals = r.array<Vec3>("normals");
  s.uvs = r.array<Vec2>("uvs");
  s.colors = r.array<Rgba8>("vertex colours");
  s.indices = r.array<uint32_t>("indices");
  s.tri_material = r.array<uint32_t>("triangle materials");
  s.materials = r.array<Material>("materials");
  s.material_names = r.texts("material names");
  s.textures = r.array<TextureDesc>("textures");
  s.texture_paths = r.texts("texture paths");
  s.texels = r.array<Rgba8>("texels");
  float b[10];
  r.bytes(b, sizeof b);
  s.bounds.min = {b[0], b[1], b[2]};
  s.bounds.max = {b[3], b[4], b[5]};
  s.bounds.center = {b[6], b[7], b[8]};
  s.bounds.radius = b[9];
  s.bounds.closed = r.u64() != 0;
  s.warnings = r.texts("warnings");
  auto m = std::make_shared<Meshlets>();
  m->meshlets = r.array<Meshlet>("meshlets");
  m->positions = r.array<Vec3>("meshlet positions");
  m->triangles = r.array<uint32_t>("meshlet triangles");
  m->triangle_ids = r.array<uint32_t>("meshlet triangle ids");
  s.meshlets = std::move(m);
  if (r.left()) throw CacheFormatError("bytes after the payload's end");
  return c;
}

}  // namespace

uint32_t scene_cache_layout() {
  // Each size in its own byte: a struct that grows or shrinks changes the value.
  return (uint32_t)sizeof(Vec3) | (uint32_t)sizeof(Material) << 8 | (uint32_t)sizeof(TextureDesc) << 16 |
         (uint32_t)(sizeof(Meshlet) + sizeof(Vec2) + sizeof(Rgba8)) << 24;
}

void write_scene_cache(std::FILE* out, const Scene& scene, const std::string& source_path,
                       const std::vector<CacheDependency>& depends, uint64_t source_size,
                       int64_t source_mtime_ns) {
  if (!scene.meshlets) throw std::logic_error("write_scene_cache: scene has no meshlets");
  SceneCacheHeader h{};
  std::memcpy(h.magic, kSceneCacheMagic, sizeof h.magic);
  h.version = kSceneCacheVersion;
  h.layout = scene_cache_layout();
  h.source_size = source_size;
  h.source_mtime_ns = source_mtime_ns;
  if (std::fwrite(&h, sizeof h, 1, out) != 1) throw std::runtime_error("write failed");
  Writer w(out);
  write_payload(w, scene, source_path, depends);
  h.payload_size = w.size();
  h.payload_checksum = w.checksum();
  if (std::fseek(out, 0, SEEK_SET) != 0 || std::fwrite(&h, sizeof h, 1, out) != 1)
    throw std::runtime_error("write failed");
}

SceneCacheHeader read_scene_cache_header(const uint8_t* data, size_t size) {
  SceneCacheHeader h;
  if (size < sizeof h) throw CacheFormatError("truncated (shorter than its header)");
  std::memcpy(&h, data, sizeof h);
  if (std::memcmp(h.magic, kSceneCacheMagic, sizeof h.magic) != 0)
    throw CacheFormatError("not a facet scene cache");
  if (h.version != kSceneCacheVersion)
    throw CacheFormatError("format version " + std::to_string(h.version) + ", this facet reads " +
                           std::to_string(kSceneCacheVersion));
  if (h.layout != scene_cache_layout()) throw CacheFormatError("written by a build with other struct layouts");
  if (h.payload_size != size - sizeof h)
    throw CacheFormatError("truncated (" + std::to_string(size - sizeof h) + " of " +
                           std::to_string(h.payload_size) + " payload bytes)");
  return h;
}

SceneCacheContents read_scene_cache(const uint8_t* data, size_t size, bool verify_checksum) {
  const SceneCacheHeader h = read_scene_cache_header(data, size);
  const uint8_t* payload = data + sizeof h;
  if (verify_checksum && block_checksum(payload, h.payload_size) != h.payload_checksum)
    throw CacheFormatError("checksum mismatch (corrupt)");
  Reader r(payload, h.payload_size);
  SceneCacheContents c = read_payload(r);
  check_cached_scene(c.scene);
  return c;
}

}  // namespace facet
