// The scene cache's payload as a list of pieces, and the passes that move its bytes, on every
// core: the checksum (writer, before its writes in file order) or the checksum fused with the
// copy into the scene's arrays (reader), and the first touch of those arrays' memory. A cache hit of a
// 100 M-triangle model moves ~4 GB, so each byte is read from the file once and each array
// written once after its pages are faulted in on every core. Not here: what the payload holds
// (scene_cache_format.cpp).
#pragma once
#include <cstdint>
#include <vector>

#include "engine/base/platform.h"

namespace facet {

struct CachePiece {
  uint64_t offset;      // where it starts in the payload, bytes
  uint64_t size;        // its length, bytes (never 0)
  const uint8_t* from;  // its bytes now: the writer's arrays, or the mapped file
  uint8_t* to;          // where the reader copies them (an array's storage), or null: checksummed only
};

// Checksums the payload made of `pieces` (consecutive from offset 0, in order) exactly as
// BlockChecksum (checksum.h) does, and copies every piece that has a `to`: one checksum block a
// task, each step of it checksummed and then copied while it is in the core's cache. Without
// `checksum` it only copies, and returns 0.
uint64_t copy_and_checksum(const std::vector<CachePiece>& pieces, bool checksum);

// The writer's pass: reserves bytes [file_offset, file_offset + payload size) of `file`,
// checksums each block exactly as copy_and_checksum does on every core, in a low-priority arena
// (a write in the background yields the cores to the caller's passes), then writes the pieces
// there in file order with large writes from the calling thread. Returns the checksum; throws
// std::runtime_error("reason") when the room or a write failed.
uint64_t write_and_checksum(const std::vector<CachePiece>& pieces, platform::OutputFile& file, uint64_t file_offset);

// Arrays about to be overwritten whole (by copy_and_checksum), their pages faulted in on every
// core first. The scene's arrays are BigVectors, whose resize writes nothing; a std::vector
// zero-fills on resize, on one thread, over the pages already there, the arrays side by side.
class ArrayClaims {
 public:
  // Reserves `count` elements of `array` (left empty: its size comes in size_all) and returns
  // where they will lie. `array` must stay where it is until size_all.
  template <class T, class A>
  T* claim(std::vector<T, A>& array, uint64_t count) {
    array.clear();
    array.reserve(count);
    m_claims.push_back({&array, &resize_to<T, A>, reinterpret_cast<uint8_t*>(array.data()), count * sizeof(T), count});
    return array.data();
  }
  // Faults in the claimed arrays' pages on every core, then gives each array its size.
  void size_all();

 private:
  struct Claim {
    void* array;                      // the std::vector<T, A>
    void (*resize)(void*, uint64_t);  // resize_to<T, A>
    uint8_t* data;                    // its reserved storage
    uint64_t bytes, count;            // its size once resized, in bytes and elements
  };
  template <class T, class A>
  static void resize_to(void* array, uint64_t count) {
    static_cast<std::vector<T, A>*>(array)->resize(count);
  }
  std::vector<Claim> m_claims;
};

}  // namespace facet
