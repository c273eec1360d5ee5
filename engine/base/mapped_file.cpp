// MappedFile (see mapped_file.h): the path's status, then the mapping (platform.h), with the
// system's reason in every refusal.
#include "engine/base/mapped_file.h"

#include "engine/base/platform.h"
#include "engine/load/load_model.h"

namespace facet {

namespace {

[[noreturn]] void refuse(const std::string& path, const std::string& what) { throw LoadError(path + ": " + what); }

}  // namespace

MappedFile::MappedFile(const std::string& path, bool read_ahead) {
  const platform::FileStatus st = platform::file_status(path);
  if (!st.exists) refuse(path, st.error);
  if (st.directory) refuse(path, "is a directory, not a model file");
  if (!st.regular) refuse(path, "not a regular file");
  std::string error;
  const platform::FileMapping mapping = platform::map_file(path, read_ahead, error);
  if (!error.empty()) refuse(path, error);
  m_data = mapping.data;
  m_size = (size_t)mapping.size;
}

MappedFile::~MappedFile() { platform::unmap_file({m_data, m_size}); }

}  // namespace facet
