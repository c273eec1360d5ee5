// The scene cache's file format (load_pipeline.h decides where files go and when they are used):
// a fixed header, then the payload, every array of a prepared Scene (meshlets included) as a
// count and its raw bytes, in host byte order. Reading checks everything a file could get wrong
// (size, magic, version, struct layout, checksum, every count and every index) and throws
// CacheFormatError naming the first problem; it never returns a scene the renderer could not draw.
// Not here: keys, directories, eviction (load_pipeline.cpp).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/base/platform.h"
#include "engine/scene/scene.h"

namespace facet {

// Bump whenever what a cache file holds or means changes (a new Scene array, another meshlet
// builder): files of other versions are then ignored and rebuilt.
constexpr uint32_t kSceneCacheVersion = 5;

struct SceneCacheHeader {
  char magic[8];              // kSceneCacheMagic
  uint32_t version;           // kSceneCacheVersion
  uint32_t layout;            // sizes of the raw structs stored (scene_cache_layout())
  uint64_t source_size;       // the model file's size in bytes when the cache was written
  int64_t source_mtime_ns;    // its modification time, ns since the epoch
  uint64_t payload_size;      // bytes after the header
  uint64_t payload_checksum;  // BlockChecksum (checksum.h) of those bytes
};
static_assert(sizeof(SceneCacheHeader) == 48, "no padding: written as raw bytes");
constexpr char kSceneCacheMagic[8] = {'F', 'A', 'C', 'E', 'T', 'S', 'C', '\n'};

struct SceneCacheContents {
  std::string source_path;          // absolute path of the model the scene came from
  std::vector<SourceFile> depends;  // the other files its load read or looked for (Scene::source_files)
  Scene scene;                      // meshlets included; source left empty
};

// Why a cache file cannot be used ("truncated", "checksum mismatch", ...).
class CacheFormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

uint32_t scene_cache_layout();

// Writes header and payload to `file` from its start (write_and_checksum,
// scene_cache_pieces.h: the room reserved, then the payload checksummed and written on every core,
// the arrays straight from the scene; the header, with the checksum, last): `scene` (its meshlets
// must be set; its source is not stored, and `warnings` stand for its warnings) read from
// `source_path`, which had `source_size` bytes and modification time `source_mtime_ns`, and from
// `depends`. Throws std::runtime_error with the reason when the room or a write fails.
void write_scene_cache(platform::OutputFile& file, const Scene& scene, const std::vector<std::string>& warnings,
                       const std::string& source_path, const std::vector<SourceFile>& depends, uint64_t source_size,
                       int64_t source_mtime_ns);

// The header of a cache file of `size` bytes, checked for magic, version, layout and a payload
// size matching the file: throws CacheFormatError otherwise.
SceneCacheHeader read_scene_cache_header(const uint8_t* data, size_t size);

// The whole file: header, checksum (unless verify_checksum is false: the fuzz target reaches the
// payload parser that way), then payload, then checks that every index is in range.
SceneCacheContents read_scene_cache(const uint8_t* data, size_t size, bool verify_checksum = true);

}  // namespace facet
