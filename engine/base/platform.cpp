// The POSIX and Linux implementation of platform.h: with platform_reads.cpp (files opened, mapped
// or read under a cap), the only files in facet that call the operating system directly (stat,
// open, mmap, madvise, mkstemp, fallocate, pwrite, rename, /proc, getrusage, setpriority, mallopt,
// dlopen). A Windows port replaces these two with files on the Win32 API (SHGetKnownFolderPath,
// GetModuleFileNameW, CreateFileMapping, MoveFileEx, SetThreadPriority, ...) behind the same
// declarations; nothing outside them changes.
#include "engine/base/platform.h"

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <malloc.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <system_error>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14; older kernels answer EINVAL, which is harmless here
#endif

namespace facet::platform {

namespace {

std::string reason() { return std::strerror(errno); }

FileStatus status_from(const struct stat& st) {
  FileStatus s;
  s.exists = true;
  s.regular = S_ISREG(st.st_mode);
  s.directory = S_ISDIR(st.st_mode);
  s.size = (uint64_t)st.st_size;
  s.mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
  s.device = (uint64_t)st.st_dev;
  s.inode = (uint64_t)st.st_ino;
  return s;
}

FileStatus status_failed() {
  FileStatus s;
  s.error = reason();
  return s;
}

// Six letters and digits for a temporary file's name: the process, a count and the clock mixed
// (splitmix64), so that two writers beside one target rarely pick the same name (O_EXCL decides).
std::string unique_suffix() {
  static std::atomic<uint64_t> count{0};
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  uint64_t x = ((uint64_t)getpid() << 32) ^ (count.fetch_add(1) * 0x9E3779B97F4A7C15ull) ^
               ((uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec);
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  static const char kLetters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::string s;
  for (int i = 0; i < 6; ++i, x /= 62) s += kLetters[x % 62];
  return s;
}

double ms(const timeval& t) { return 1e3 * (double)t.tv_sec + 1e-3 * (double)t.tv_usec; }

}  // namespace

// ---- User folders and this process ----

std::string user_config_dir() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  if (xdg && xdg[0] == '/') return xdg;
  const char* home = std::getenv("HOME");
  if (home && home[0]) return std::string(home) + "/.config";
  return "";
}

std::string user_cache_dir() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && xdg[0] == '/') return xdg;
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : "/tmp") + "/.cache";
}

std::string executable_path() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : exe.string();
}

long process_id() { return (long)getpid(); }

size_t resident_memory_bytes() {
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long size = 0, resident = 0;
  int n = std::fscanf(f, "%lu %lu", &size, &resident);
  std::fclose(f);
  return n == 2 ? (size_t)resident * (size_t)sysconf(_SC_PAGESIZE) : 0;
}

CpuTimes process_cpu_times() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return {ms(usage.ru_utime), ms(usage.ru_stime), usage.ru_minflt};
}

void lower_thread_priority(int nice) {
  // PRIO_PROCESS with a thread's id: Linux keeps a nice value per thread.
  setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice);
}

bool nvidia_driver_installed() {
  // The kernel module's entry, where the Linux driver runs: found without loading anything.
  struct stat entry;
  if (stat("/proc/driver/nvidia/version", &entry) == 0) return true;
  // Elsewhere (WSL's driver has no module here) the library, by the name the CUDA runtime loads
  // it by; loading it is the runtime's first step too.
  return dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL) != nullptr;
}

// ---- Memory ----

bool populate_for_writing(void* begin, size_t bytes) { return madvise(begin, bytes, MADV_POPULATE_WRITE) == 0; }

void keep_freed_memory_in_heap() {
#if defined(__GLIBC__)
  // The main heap maps no block of its own, and -1, which mallopt documents, turns the trimming of
  // its top off. (Another thread's arena still maps a block it cannot hold.)
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, -1);
#endif
}

bool trim_heap(size_t at_least) {
#if defined(__GLIBC__)
  if (mallinfo2().fordblks < at_least) return false;
  malloc_trim(0);
  return true;
#else
  (void)at_least;
  return false;
#endif
}

// ---- Files and folders ----

FileStatus file_status(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return status_failed();
  return status_from(st);
}

FileStatus file_status(std::FILE* file) {
  struct stat st {};
  if (fstat(fileno(file), &st) != 0) return status_failed();
  return status_from(st);
}

std::string real_path(const std::string& path) {
  char buf[PATH_MAX];
  return realpath(path.c_str(), buf) ? std::string(buf) : std::string();
}

std::string make_directory(const std::string& path) {
  if (mkdir(path.c_str(), 0755) != 0 && errno != EEXIST) return reason();
  return "";
}

std::vector<std::string> list_directory(const std::string& path) {
  std::vector<std::string> names;
  DIR* d = opendir(path.c_str());
  if (!d) return names;
  while (const dirent* e = readdir(d))
    if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) names.push_back(e->d_name);
  closedir(d);
  return names;
}

bool remove_file(const std::string& path) { return unlink(path.c_str()) == 0 || errno == ENOENT; }

std::string rename_file(const std::string& from, const std::string& to) {
  return rename(from.c_str(), to.c_str()) == 0 ? std::string() : reason();
}

void touch_file(const std::string& path) { utimensat(AT_FDCWD, path.c_str(), nullptr, 0); }

OutputFile::~OutputFile() {
  if (m_file >= 0) ::close((int)m_file);
}

std::string OutputFile::create_unique(std::string& name) {
  const int fd = mkstemp(&name[0]);
  if (fd < 0) return reason();
  m_file = fd;
  return "";
}

std::string OutputFile::reserve(uint64_t at, uint64_t bytes) {
  const int fd = (int)m_file;
  int failed;
  while ((failed = ::fallocate(fd, 0, (off_t)at, (off_t)bytes)) != 0 && errno == EINTR) {}
  if (failed == 0) return "";
  if (errno != EOPNOTSUPP && errno != ENOSYS)
    return "cannot reserve " + std::to_string(bytes >> 20) + " MiB: " + std::strerror(errno);
  if (::ftruncate(fd, (off_t)(at + bytes)) != 0) return reason();
  return "";
}

std::string OutputFile::write_at(const void* data, uint64_t bytes, uint64_t at) {
  const uint8_t* from = static_cast<const uint8_t*>(data);
  while (bytes) {
    const ssize_t done = ::pwrite((int)m_file, from, bytes, (off_t)at);
    if (done < 0 && errno == EINTR) continue;
    if (done <= 0) {
      if (done == 0) errno = EIO;
      return reason();
    }
    from += done;
    bytes -= (uint64_t)done;
    at += (uint64_t)done;
  }
  return "";
}

std::string OutputFile::close() {
  const int fd = (int)m_file;
  m_file = -1;
  if (fd < 0) return "";
  return ::close(fd) == 0 ? std::string() : reason();
}

ReplacingFile::ReplacingFile(std::string target) : m_target(std::move(target)) {}

ReplacingFile::~ReplacingFile() { abandon(); }

std::string ReplacingFile::open() {
  if (m_file >= 0) return std::strerror(EBUSY);
  struct stat st {};
  if (stat(m_target.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return std::strerror(EISDIR);
    if (!S_ISREG(st.st_mode)) {  // a device or a FIFO: its own bytes, nothing to rename over it
      const int fd = ::open(m_target.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
      if (fd < 0) return reason();
      m_file = fd;
      return "";
    }
    char resolved[PATH_MAX];
    if (realpath(m_target.c_str(), resolved)) m_target = resolved;  // a link's file is replaced, not the link
  }
  const size_t slash = m_target.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : m_target.substr(0, slash + 1);
  std::string name = slash == std::string::npos ? m_target : m_target.substr(slash + 1);
  if (name.size() > 200) name.resize(200);  // the temporary name's own 12 more stay within NAME_MAX
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string temp = dir + "." + name + ".tmp-" + unique_suffix();
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
      m_file = fd;
      m_temp = std::move(temp);
      return "";
    }
    if (errno != EEXIST) return reason();
  }
  return std::strerror(EEXIST);
}

std::string ReplacingFile::write(const void* data, uint64_t bytes) {
  if (m_file < 0) return std::strerror(EBADF);
  const uint8_t* from = static_cast<const uint8_t*>(data);
  while (bytes) {
    const ssize_t done = ::write((int)m_file, from, std::min<uint64_t>(bytes, 1u << 30));
    if (done < 0 && errno == EINTR) continue;
    if (done <= 0) {
      if (done == 0) errno = EIO;
      const std::string why = reason();
      abandon();
      return why;
    }
    from += done;
    bytes -= (uint64_t)done;
  }
  return "";
}

std::string ReplacingFile::commit() {
  if (m_file < 0) return std::strerror(EBADF);
  const int fd = (int)m_file;
  m_file = -1;
  std::string why;
  if (::close(fd) != 0)
    why = reason();
  else if (!m_temp.empty() && rename(m_temp.c_str(), m_target.c_str()) != 0)
    why = reason();
  else
    m_temp.clear();  // in the target's place now
  abandon();
  return why;
}

void ReplacingFile::abandon() {
  if (m_file >= 0) ::close((int)m_file);
  m_file = -1;
  if (!m_temp.empty()) unlink(m_temp.c_str());
  m_temp.clear();
}

}  // namespace facet::platform
