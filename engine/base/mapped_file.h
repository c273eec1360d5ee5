// A whole file mapped read-only into memory (platform.h): the model readers (OBJ, PLY, STL) and the
// scene cache read the bytes where the page cache holds them, with no copy, from whichever
// thread parses them. Owns the mapping (RAII). It does not parse anything.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace facet {

class MappedFile {
 public:
  // Throws LoadError("PATH: problem") when the path is missing, not a regular file, unreadable
  // or cannot be mapped. An empty file maps to size() == 0.
  // `read_ahead`: the kernel reads the whole file ahead at once (a reader that jumps about the
  // file, or parses it on many threads), rather than page by page in order.
  explicit MappedFile(const std::string& path, bool read_ahead = false);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const char* data() const { return m_data; }
  const uint8_t* bytes() const { return reinterpret_cast<const uint8_t*>(m_data); }
  size_t size() const { return m_size; }

 private:
  const char* m_data = nullptr;
  size_t m_size = 0;
};

}  // namespace facet
