// The scene cache's files (scene_cache_files.h): the file system's calls (platform.h: status,
// a unique temporary file, rename), each failure turned into a message with the path and the
// system's reason.
#include "engine/cache/scene_cache_files.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>

#include "engine/base/checksum.h"
#include "engine/base/platform.h"

namespace facet {

namespace {

constexpr const char* kCacheSuffix = ".fscene";
// A temporary file this old was left by a process that died while writing: removed on eviction.
constexpr int64_t kAbandonedTempNs = 3600ll * 1000000000;

bool ends_with(const std::string& s, const std::string& end) {
  return s.size() >= end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
}

std::string folder_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

FileStamp stamp_of(const std::string& path) {
  const platform::FileStatus st = platform::file_status(path);
  if (!st.exists) return {};
  return {st.size, st.mtime_ns};
}

std::string absolute_path(const std::string& path) { return platform::real_path(path); }

std::string cache_file_path(const std::string& dir, const std::string& model_abs) {
  char name[17];
  std::snprintf(name, sizeof name, "%016llx", (unsigned long long)checksum64(model_abs.data(), model_abs.size()));
  return dir + "/" + name + kCacheSuffix;
}

void make_dirs(const std::string& dir) {
  for (size_t at = 1; at <= dir.size(); ++at) {
    if (at < dir.size() && dir[at] != '/') continue;
    const std::string part = dir.substr(0, at);
    const std::string why = platform::make_directory(part);
    if (!why.empty()) throw std::runtime_error("cannot create " + part + ": " + why);
  }
  if (!platform::file_status(dir).directory) throw std::runtime_error("cannot create " + dir + ": not a folder");
}

void write_cache_file(const std::string& path, const Scene& scene, const std::vector<std::string>& warnings,
                      const std::string& model_abs, const std::vector<SourceFile>& depends, FileStamp source) {
  std::string temp = path + ".tmp-XXXXXX";
  platform::OutputFile file;
  std::string why = file.create_unique(temp);
  if (!why.empty()) throw std::runtime_error("cannot write in " + folder_of(path) + ": " + why);
  try {
    write_scene_cache(file, scene, warnings, model_abs, depends, source.size, source.mtime_ns);
  } catch (const std::exception& e) {
    file.close();
    platform::remove_file(temp);
    throw std::runtime_error("cannot write " + temp + ": " + e.what());
  }
  why = file.close();
  if (why.empty()) why = platform::rename_file(temp, path);
  if (!why.empty()) {
    platform::remove_file(temp);
    throw std::runtime_error("cannot write " + path + ": " + why);
  }
}

void evict_cache_files(const std::string& dir, uint64_t cap, const std::string& keep) {
  struct Entry {
    bool keep;
    int64_t mtime_ns;
    uint64_t size;
    std::string path;
  };
  std::vector<Entry> files;
  uint64_t total = 0;
  const int64_t now_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  for (const std::string& name : platform::list_directory(dir)) {
    const std::string path = dir + "/" + name;
    const FileStamp s = stamp_of(path);
    if (path.find(std::string(kCacheSuffix) + ".tmp-") != std::string::npos && s.mtime_ns >= 0 &&
        s.mtime_ns < now_ns - kAbandonedTempNs)
      platform::remove_file(path);
    if (!ends_with(path, kCacheSuffix)) continue;
    if (s.mtime_ns < 0) continue;
    files.push_back({path == keep, s.mtime_ns, s.size, path});
    total += s.size;
  }
  // Oldest first; the file just written last of all.
  std::sort(files.begin(), files.end(), [](const Entry& a, const Entry& b) {
    return a.keep != b.keep ? b.keep : a.mtime_ns != b.mtime_ns ? a.mtime_ns < b.mtime_ns : a.path < b.path;
  });
  for (const Entry& f : files) {
    if (total <= cap) break;
    if (platform::remove_file(f.path)) total -= f.size;
  }
}

void touch_cache_file(const std::string& path) { platform::touch_file(path); }

}  // namespace facet
