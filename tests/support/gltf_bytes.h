// Bytes for glTF files written by tests: base64 for data: URIs, and arrays appended to a buffer
// as they lie in memory (little-endian, as glTF's buffers are).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace facet::test {

inline std::string base64(const std::string& bytes) {
  static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (size_t i = 0; i < bytes.size(); i += 3) {
    uint32_t v = (uint8_t)bytes[i] << 16;
    if (i + 1 < bytes.size()) v |= (uint8_t)bytes[i + 1] << 8;
    if (i + 2 < bytes.size()) v |= (uint8_t)bytes[i + 2];
    out += k[(v >> 18) & 63];
    out += k[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? k[(v >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? k[v & 63] : '=';
  }
  return out;
}

template <class T>
inline void append(std::string& buf, const std::vector<T>& v) {
  buf.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

}  // namespace facet::test
