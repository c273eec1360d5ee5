// The scene cache: a prepared Scene (every array the renderer uploads, meshlets included) kept in
// a file per model under $XDG_CACHE_HOME/facet/ (default ~/.cache/facet/), so that the next open
// maps it instead of parsing. A cache file is used only when it matches the model's absolute
// path, size and modification time (ns), the format version, and the size and time of every
// texture and MTL beside it; otherwise it is ignored with one warning and rebuilt. Files are
// written to a temporary name and renamed (concurrent processes never read half a file), and
// the folder is capped (oldest first out). Any cache problem is a warning, never a failed load.
// The file format is scene_cache_format.h.
#pragma once
#include <cstdint>
#include <string>

#include "engine/load/load_model.h"

namespace facet {

// The default cap on the cache folder's size, and the variable that overrides it (MiB): room for
// one 100 M-triangle model (4.9 GB prepared, docs/performance.md, "Memory") or many ordinary ones, and a
// small share of a workstation's disk.
constexpr uint64_t kDefaultSceneCacheCap = 8ull << 30;
constexpr const char* kSceneCacheCapVariable = "FACET_CACHE_MAX_MB";
// --no-cache's help: what the cache is, where, and its cap (render, view and bench).
extern const char* const kSceneCacheHelp;

// The folder: options.cache_dir, else facet/ in the user's cache folder (platform.h).
std::string scene_cache_dir(const LoadOptions& options);
// The cap in bytes: options.cache_max_bytes, else $FACET_CACHE_MAX_MB, else the default.
uint64_t scene_cache_cap(const LoadOptions& options);

using FreshLoad = Scene (*)(const std::string& path, const LoadOptions& options);

// load_model's frame around a format's loader `fresh`: the cache (when options.use_cache), the
// prepared meshlets, cancellation (options.cancel, checked at every progress report) and the
// stages reported. Throws what `fresh` throws, or LoadCancelled. The store is done before it
// returns; run_load_pipeline_shared (scene_cache_write.h) leaves it to a thread of its own.
Scene run_load_pipeline(const std::string& path, const LoadOptions& options, FreshLoad fresh);

}  // namespace facet
