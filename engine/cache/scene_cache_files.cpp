// The scene cache's files (scene_cache_files.h): POSIX calls (stat, mkstemp, rename),
// each failure turned into a message with the path and strerror.
#include "engine/cache/scene_cache_files.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <cstdio>
#include <stdexcept>

#include "engine/base/checksum.h"

namespace facet {

namespace {

constexpr const char* kCacheSuffix = ".fscene";
// A temporary file this old was left by a process that died while writing: removed on eviction.
constexpr int64_t kAbandonedTempNs = 3600ll * 1000000000;

std::string reason() { return std::strerror(errno); }

bool ends_with(const std::string& s, const std::string& end) {
  return s.size() >= end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
}

std::string folder_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

FileStamp stamp_of(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return {};
  return {(uint64_t)st.st_size, (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec};
}

std::string absolute_path(const std::string& path) {
  char buf[PATH_MAX];
  return realpath(path.c_str(), buf) ? std::string(buf) : std::string();
}

std::string cache_file_path(const std::string& dir, const std::string& model_abs) {
  char name[17];
  std::snprintf(name, sizeof name, "%016llx", (unsigned long long)checksum64(model_abs.data(), model_abs.size()));
  return dir + "/" + name + kCacheSuffix;
}

std::vector<CacheDependency> scene_dependencies(const Scene& scene, const std::string& model_abs) {
  std::vector<std::string> paths;
  for (const std::string& t : scene.texture_paths)
    if (t != "<checker>") paths.push_back(absolute_path(t).empty() ? t : absolute_path(t));
  const std::string dir = folder_of(model_abs);
  if (DIR* d = opendir(dir.c_str())) {
    while (const dirent* e = readdir(d)) {
      std::string name = e->d_name, lower = name;
      std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return (char)std::tolower(c); });
      if (ends_with(lower, ".mtl")) paths.push_back(dir + "/" + name);
    }
    closedir(d);
  }
  std::sort(paths.begin(), paths.end());
  paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
  std::vector<CacheDependency> deps;
  for (const std::string& p : paths) {
    const FileStamp s = stamp_of(p);
    deps.push_back({p, s.size, s.mtime_ns});
  }
  return deps;
}

void make_dirs(const std::string& dir) {
  for (size_t at = 1; at <= dir.size(); ++at) {
    if (at < dir.size() && dir[at] != '/') continue;
    const std::string part = dir.substr(0, at);
    if (mkdir(part.c_str(), 0755) != 0 && errno != EEXIST)
      throw std::runtime_error("cannot create " + part + ": " + reason());
  }
  struct stat st {};
  if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw std::runtime_error("cannot create " + dir + ": not a folder");
}

void write_cache_file(const std::string& path, const Scene& scene, const std::vector<std::string>& warnings,
                      const std::string& model_abs, const std::vector<CacheDependency>& depends,
                      FileStamp source) {
  std::string temp = path + ".tmp-XXXXXX";
  const int fd = mkstemp(&temp[0]);
  if (fd < 0) throw std::runtime_error("cannot write in " + folder_of(path) + ": " + reason());
  try {
    write_scene_cache(fd, scene, warnings, model_abs, depends, source.size, source.mtime_ns);
  } catch (const std::exception& e) {
    ::close(fd);
    unlink(temp.c_str());
    throw std::runtime_error("cannot write " + temp + ": " + e.what());
  }
  if (::close(fd) != 0 || rename(temp.c_str(), path.c_str()) != 0) {
    const std::string why = reason();
    unlink(temp.c_str());
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
  DIR* d = opendir(dir.c_str());
  if (!d) return;
  const int64_t now_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                             std::chrono::system_clock::now().time_since_epoch()).count();
  while (const dirent* e = readdir(d)) {
    const std::string path = dir + "/" + e->d_name;
    const FileStamp s = stamp_of(path);
    if (path.find(std::string(kCacheSuffix) + ".tmp-") != std::string::npos && s.mtime_ns >= 0 &&
        s.mtime_ns < now_ns - kAbandonedTempNs)
      unlink(path.c_str());
    if (!ends_with(path, kCacheSuffix)) continue;
    if (s.mtime_ns < 0) continue;
    files.push_back({path == keep, s.mtime_ns, s.size, path});
    total += s.size;
  }
  closedir(d);
  // Oldest first; the file just written last of all.
  std::sort(files.begin(), files.end(), [](const Entry& a, const Entry& b) {
    return a.keep != b.keep ? b.keep : a.mtime_ns != b.mtime_ns ? a.mtime_ns < b.mtime_ns : a.path < b.path;
  });
  for (const Entry& f : files) {
    if (total <= cap) break;
    if (unlink(f.path.c_str()) == 0 || errno == ENOENT) total -= f.size;
  }
}

void touch_cache_file(const std::string& path) { utimensat(AT_FDCWD, path.c_str(), nullptr, 0); }

}  // namespace facet
