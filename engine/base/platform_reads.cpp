// The platform layer's reads (platform.h): a file opened or mapped whole, or a small file read
// under a cap, each only when it is a regular file and opened without blocking, so that no FIFO or
// device named by a model or a user can hang a reader. The rest of the layer is platform.cpp.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "engine/base/platform.h"

namespace facet::platform {

std::FILE* open_regular_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return nullptr;
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    errno = EINVAL;
    return nullptr;
  }
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);  // reads of a regular file block as usual
  std::FILE* file = fdopen(fd, "rb");
  if (!file) ::close(fd);
  return file;
}

std::string read_small_file(const std::string& path, uint64_t max_bytes, std::string& text) {
  text.clear();
  // O_NONBLOCK: opening a FIFO with no writer returns at once; fstat then refuses it.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return std::string(std::strerror(errno));
  struct stat st {};
  std::string why;
  if (fstat(fd, &st) != 0)
    why = std::string(std::strerror(errno));
  else if (S_ISDIR(st.st_mode))
    why = "is a folder, not a file";
  else if (!S_ISREG(st.st_mode))
    why = "is not a regular file (a FIFO, a device or a socket)";
  else if ((uint64_t)st.st_size > max_bytes)
    why = "is " + std::to_string((uint64_t)st.st_size) + " bytes; at most " + std::to_string(max_bytes) + " are read";
  if (why.empty()) {
    text.resize((size_t)st.st_size);
    size_t done = 0;
    for (;;) {
      if (done == text.size()) {  // grown since fstat, or at its end: one byte more tells
        if (done > max_bytes) break;
        text.resize(std::min<uint64_t>(max_bytes + 1, done + 65536));
      }
      const ssize_t got = ::read(fd, &text[done], text.size() - done);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) {
        why = std::string(std::strerror(errno));
        break;
      }
      if (got == 0) break;
      done += (size_t)got;
    }
    text.resize(done);
    if (why.empty() && done > max_bytes) why = "grew past " + std::to_string(max_bytes) + " bytes while it was read";
  }
  ::close(fd);
  if (!why.empty()) text.clear();
  return why;
}

FileMapping map_file(const std::string& path, bool read_ahead, std::string& error) {
  // O_NONBLOCK: a path swapped for a FIFO since the caller's stat must not wait for a writer.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    error = std::string("cannot open: ") + std::strerror(errno);
    return {};
  }
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    error = "not a regular file";
    ::close(fd);
    return {};
  }
  if (st.st_size == 0) {  // the size now, not at the caller's stat
    ::close(fd);
    return {};
  }
  void* p = mmap(nullptr, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  int mmap_errno = errno;
  ::close(fd);  // the mapping keeps the file
  if (p == MAP_FAILED) {
    error = std::string("cannot map the file into memory (") + std::strerror(mmap_errno) + ", " +
            std::to_string(st.st_size) + " bytes)";
    return {};
  }
  // No MAP_POPULATE: it would map every page on this one thread, while the parsing threads'
  // faults (16 pages each, by fault-around) are spread over all cores.
  madvise(p, (size_t)st.st_size, read_ahead ? MADV_WILLNEED : MADV_SEQUENTIAL);
  return {(const char*)p, (uint64_t)st.st_size};
}

void unmap_file(FileMapping mapping) {
  if (mapping.data) munmap(const_cast<char*>(mapping.data), mapping.size);
}

}  // namespace facet::platform
