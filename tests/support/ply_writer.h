// Writing small PLY files in tests: the same rows as ASCII text or as binary in either byte
// order, so one mesh can be read three ways and compared.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

namespace facet::test {

class PlyBody {
 public:
  enum Format { Ascii, LittleEndian, BigEndian };
  explicit PlyBody(Format format) : m_format(format) {}

  static const char* format_line(Format f) {
    return f == Ascii          ? "format ascii 1.0\n"
           : f == LittleEndian ? "format binary_little_endian 1.0\n"
                               : "format binary_big_endian 1.0\n";
  }

  // One value, typed as in the header (uint8_t for uchar, int32_t for int, float, ...).
  template <class T>
  PlyBody& put(T v) {
    if (m_format == Ascii) {
      if constexpr (std::is_floating_point_v<T>)
        m_bytes += std::to_string(v);
      else
        m_bytes += std::to_string((long long)v);
      m_bytes += ' ';
      return *this;
    }
    char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    if (m_format == BigEndian)
      for (size_t i = 0; i < sizeof(T) / 2; ++i) std::swap(b[i], b[sizeof(T) - 1 - i]);
    m_bytes.append(b, sizeof(T));
    return *this;
  }
  // Ends a row (a newline in ASCII, nothing in binary).
  PlyBody& end_row() {
    if (m_format == Ascii) m_bytes += '\n';
    return *this;
  }
  const std::string& bytes() const { return m_bytes; }

 private:
  Format m_format;
  std::string m_bytes;
};

}  // namespace facet::test
