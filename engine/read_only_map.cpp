// mmap of a whole regular file, with the checks load_model makes of an OBJ (folder, not a
// regular file, unreadable, empty) in the same words.
#include "engine/read_only_map.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "engine/loader.h"

namespace facet {

ReadOnlyMap::ReadOnlyMap(const std::string& path) {
  auto refuse = [&](const std::string& what) { throw LoadError(path + ": " + what); };
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) refuse(std::strerror(errno));
  if (S_ISDIR(st.st_mode)) refuse("is a directory, not a model file");
  if (!S_ISREG(st.st_mode)) refuse("not a regular file");
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) refuse(std::string("cannot open: ") + std::strerror(errno));
  if (fstat(fd, &st) != 0 || st.st_size == 0) {
    ::close(fd);
    refuse("the file is empty");
  }
  // No MAP_POPULATE: it maps every page on this one thread, while the parsing threads' faults
  // (16 pages each, by fault-around) are spread over all cores.
  void* p = mmap(nullptr, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  int e = errno;
  ::close(fd);  // the mapping keeps the file open
  if (p == MAP_FAILED) refuse(std::string("cannot map: ") + std::strerror(e));
  // A file not yet in the page cache is read ahead while the header is parsed.
  madvise(p, (size_t)st.st_size, MADV_WILLNEED);
  m_data = static_cast<const char*>(p);
  m_size = (size_t)st.st_size;
}

ReadOnlyMap::~ReadOnlyMap() {
  if (m_data) munmap(const_cast<char*>(m_data), m_size);
}

}  // namespace facet
