// A 64-bit mixing function for the loader's hash tables and checksums over edges (the weld's
// position hash, the closed-surface check's edge sums, on the CPU and the GPU alike): splitmix64's
// finalizer, so every input bit moves every output bit. Not a cryptographic hash.
#pragma once
#include <cstdint>

#include "kernels/base/hd.h"

namespace facet {

FACET_HD uint64_t mix_bits(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace facet
