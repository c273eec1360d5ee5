// MappedFile (see mapped_file.h): stat, open, mmap, with the errno text in every refusal.
#include "engine/base/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "engine/load/load_model.h"

namespace facet {

namespace {

[[noreturn]] void refuse(const std::string& path, const std::string& what) {
  throw LoadError(path + ": " + what);
}

}  // namespace

MappedFile::MappedFile(const std::string& path, bool read_ahead) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) refuse(path, std::strerror(errno));
  if (S_ISDIR(st.st_mode)) refuse(path, "is a directory, not a model file");
  if (!S_ISREG(st.st_mode)) refuse(path, "not a regular file");
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) refuse(path, std::string("cannot open: ") + std::strerror(errno));
  if (fstat(fd, &st) != 0 || st.st_size == 0) {  // the size now, not at the first stat
    ::close(fd);
    return;
  }
  void* p = mmap(nullptr, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  int mmap_errno = errno;
  ::close(fd);  // the mapping keeps the file
  if (p == MAP_FAILED)
    refuse(path, std::string("cannot map the file into memory (") + std::strerror(mmap_errno) +
                     ", " + std::to_string(st.st_size) + " bytes)");
  // No MAP_POPULATE: it would map every page on this one thread, while the parsing threads'
  // faults (16 pages each, by fault-around) are spread over all cores.
  madvise(p, (size_t)st.st_size, read_ahead ? MADV_WILLNEED : MADV_SEQUENTIAL);
  m_data = (const char*)p;
  m_size = (size_t)st.st_size;
}

MappedFile::~MappedFile() {
  if (m_data) munmap(const_cast<char*>(m_data), m_size);
}

}  // namespace facet
