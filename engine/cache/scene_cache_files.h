// The file-system side of the scene cache (load_pipeline.h): a model's key (absolute path, size,
// modification time), a read-only mapping of a cache file, the
// atomic write (temporary file, then rename) and the oldest-first eviction under the cap.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "engine/cache/scene_cache_format.h"

namespace facet {

struct FileStamp {
  uint64_t size = 0;
  int64_t mtime_ns = -1;  // -1: the file does not exist (or cannot be examined)
};
FileStamp stamp_of(const std::string& path);

// The model's absolute path (symbolic links resolved), or "" when it has none.
std::string absolute_path(const std::string& path);

// The cache file for a model: DIR/<checksum of its absolute path>.fscene.
std::string cache_file_path(const std::string& dir, const std::string& model_abs);

// Makes `dir` and its parents; throws std::runtime_error("cannot create DIR: reason").
void make_dirs(const std::string& dir);

// Writes `scene` (with `warnings` for its warnings; read from model_abs, stamped `source`, and
// from `depends`) as `path` through a temporary file in the same folder and a rename; throws
// std::runtime_error with the reason (the temporary file is removed).
void write_cache_file(const std::string& path, const Scene& scene, const std::vector<std::string>& warnings,
                      const std::string& model_abs, const std::vector<SourceFile>& depends, FileStamp source);

// Removes the oldest cache files (by modification time; a cache hit touches its file) until the
// folder's cache files total at most `cap` bytes. `keep` is removed last. Temporary files
// abandoned for an hour (a writer that died) go too.
void evict_cache_files(const std::string& dir, uint64_t cap, const std::string& keep);

// Marks a cache file as just used (its modification time), for the eviction order.
void touch_cache_file(const std::string& path);

}  // namespace facet
