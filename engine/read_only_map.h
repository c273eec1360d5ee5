// A whole file mapped read-only into memory, for the PLY and STL readers: the bytes are read
// from the page cache by whichever thread parses them, with no copy. Refusals name the file.
#pragma once
#include <cstddef>
#include <string>

namespace facet {

class ReadOnlyMap {
 public:
  // Throws LoadError("PATH: problem") when the file is missing, a folder, unreadable or empty.
  explicit ReadOnlyMap(const std::string& path);
  ~ReadOnlyMap();
  ReadOnlyMap(const ReadOnlyMap&) = delete;
  ReadOnlyMap& operator=(const ReadOnlyMap&) = delete;

  const char* data() const { return m_data; }
  size_t size() const { return m_size; }

 private:
  const char* m_data = nullptr;
  size_t m_size = 0;
};

}  // namespace facet
