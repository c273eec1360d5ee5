// A fast 64-bit checksum for the scene cache (scene_cache_format.h): four independent lanes of
// multiply-rotate over 8-byte words (the xxHash64 round and final mix), fed in pieces of any size,
// and a block form of it that a reader computes on every core. It catches torn writes and flipped
// bits; it is no defence against a forged file (the cache reader validates every index anyway).
// Written here rather than taken from libxxhash because that package is not on the build machines
// and the cache needs only these lines.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "engine/base/parallel.h"

namespace facet {

class Checksum64 {
 public:
  void add(const void* data, size_t size) {
    const uint8_t* p = static_cast<const uint8_t*>(data);
    m_total += size;
    if (m_buffered && size) {  // top up the partial block first
      size_t take = size < kBlock - m_buffered ? size : kBlock - m_buffered;
      std::memcpy(m_buffer + m_buffered, p, take);
      m_buffered += take;
      p += take;
      size -= take;
      if (m_buffered < kBlock) return;
      block(m_buffer);
      m_buffered = 0;
    }
    for (; size >= kBlock; p += kBlock, size -= kBlock) block(p);
    if (size) std::memcpy(m_buffer, p, size);  // p may be null when size is 0
    m_buffered = size;
  }

  uint64_t value() const {
    uint64_t h = rotl(m_lane[0], 1) + rotl(m_lane[1], 7) + rotl(m_lane[2], 12) + rotl(m_lane[3], 18);
    for (uint64_t lane : m_lane) h = (h ^ round(0, lane)) * kP1 + kP4;
    h += m_total;
    size_t i = 0;
    for (; i + 8 <= m_buffered; i += 8) h = rotl(h ^ round(0, word(m_buffer + i)), 27) * kP1 + kP4;
    for (; i < m_buffered; ++i) h = rotl(h ^ (m_buffer[i] * kP5), 11) * kP1;
    h ^= h >> 33;  // final avalanche: every input bit reaches every output bit
    h *= kP2;
    h ^= h >> 29;
    h *= kP3;
    h ^= h >> 32;
    return h;
  }

 private:
  static constexpr size_t kBlock = 32;  // four lanes of 8 bytes
  // xxHash64's primes: odd, with well-mixed bits.
  static constexpr uint64_t kP1 = 0x9E3779B185EBCA87ull, kP2 = 0xC2B2AE3D27D4EB4Full, kP3 = 0x165667B19E3779F9ull,
                            kP4 = 0x85EBCA77C2B2AE63ull, kP5 = 0x27D4EB2F165667C5ull;
  static uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
  static uint64_t round(uint64_t acc, uint64_t in) { return rotl(acc + in * kP2, 31) * kP1; }
  static uint64_t word(const uint8_t* p) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    return w;
  }
  void block(const uint8_t* p) {
    for (int l = 0; l < 4; ++l) m_lane[l] = round(m_lane[l], word(p + 8 * l));
  }

  uint64_t m_lane[4] = {kP1 + kP2, kP2, 0, 0 - kP1};
  uint8_t m_buffer[kBlock] = {};
  size_t m_buffered = 0;  // bytes of m_buffer holding the unfinished block
  uint64_t m_total = 0;   // bytes fed so far
};

inline uint64_t checksum64(const void* data, size_t size) {
  Checksum64 c;
  c.add(data, size);
  return c.value();
}

// Bytes per block of a BlockChecksum: large enough that the per-block list is tiny, small enough
// that a 40 MB scene still spreads over 16 cores.
constexpr size_t kChecksumBlock = size_t(1) << 20;

// The checksum of a byte stream cut into kChecksumBlock-byte blocks: each block's checksum64,
// then the checksum64 of that list. The writer feeds it as a stream; a reader can checksum the
// blocks on every core (block_checksum) and get the same value.
class BlockChecksum {
 public:
  void add(const void* data, size_t size) {
    const uint8_t* p = static_cast<const uint8_t*>(data);
    while (size) {
      const size_t take = size < kChecksumBlock - m_in_block ? size : kChecksumBlock - m_in_block;
      m_block.add(p, take);
      m_in_block += take;
      p += take;
      size -= take;
      if (m_in_block == kChecksumBlock) {
        m_blocks.push_back(m_block.value());
        m_block = Checksum64();
        m_in_block = 0;
      }
    }
  }
  uint64_t value() const {
    std::vector<uint64_t> blocks = m_blocks;
    if (m_in_block) blocks.push_back(m_block.value());
    return checksum64(blocks.data(), blocks.size() * sizeof(uint64_t));
  }

 private:
  Checksum64 m_block;
  size_t m_in_block = 0;
  std::vector<uint64_t> m_blocks;
};

// BlockChecksum of `size` bytes at once, the blocks spread over all cores.
inline uint64_t block_checksum(const uint8_t* data, size_t size) {
  std::vector<uint64_t> blocks((size + kChecksumBlock - 1) / kChecksumBlock);
  parallel_for(blocks.size(), 1, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t b = begin; b < end; ++b) {
      const size_t at = b * kChecksumBlock;
      blocks[b] = checksum64(data + at, size - at < kChecksumBlock ? size - at : kChecksumBlock);
    }
  });
  return checksum64(blocks.data(), blocks.size() * sizeof(uint64_t));
}

}  // namespace facet
