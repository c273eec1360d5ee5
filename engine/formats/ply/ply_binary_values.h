// The numbers of a binary PLY body: one value of any PLY type at a byte address, in the file's
// byte order, as the binary reader (ply_binary.cpp) decodes rows.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "engine/formats/ply/ply_header.h"

namespace facet::ply_binary {

// The T at p, its bytes reversed where the file's byte order is not the machine's.
template <class T>
inline T load(const char* p, bool swap) {
  using Bits = std::conditional_t<
      sizeof(T) == 1, uint8_t,
      std::conditional_t<sizeof(T) == 2, uint16_t, std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;
  Bits u;
  std::memcpy(&u, p, sizeof(T));
  if constexpr (sizeof(T) == 2) u = swap ? __builtin_bswap16(u) : u;
  if constexpr (sizeof(T) == 4) u = swap ? __builtin_bswap32(u) : u;
  if constexpr (sizeof(T) == 8) u = swap ? __builtin_bswap64(u) : u;
  T v;
  std::memcpy(&v, &u, sizeof(T));
  return v;
}

inline double decode_real(const char* p, PlyType t, bool swap) {
  switch (t) {
    case PlyType::Int8:
      return load<int8_t>(p, swap);
    case PlyType::UInt8:
      return load<uint8_t>(p, swap);
    case PlyType::Int16:
      return load<int16_t>(p, swap);
    case PlyType::UInt16:
      return load<uint16_t>(p, swap);
    case PlyType::Int32:
      return load<int32_t>(p, swap);
    case PlyType::UInt32:
      return load<uint32_t>(p, swap);
    case PlyType::Float32:
      return load<float>(p, swap);
    case PlyType::Float64:
      return load<double>(p, swap);
  }
  return 0;
}

// Integer types only (counts and indices; the header refuses float counts, float index lists are
// truncated toward zero like any cast).
inline int64_t decode_int(const char* p, PlyType t, bool swap) {
  switch (t) {
    case PlyType::Int8:
      return load<int8_t>(p, swap);
    case PlyType::UInt8:
      return load<uint8_t>(p, swap);
    case PlyType::Int16:
      return load<int16_t>(p, swap);
    case PlyType::UInt16:
      return load<uint16_t>(p, swap);
    case PlyType::Int32:
      return load<int32_t>(p, swap);
    case PlyType::UInt32:
      return load<uint32_t>(p, swap);
    default: {
      double d = decode_real(p, t, swap);
      return d == d && d > -1e18 && d < 1e18 ? (int64_t)d : -1;
    }
  }
}

}  // namespace facet::ply_binary
