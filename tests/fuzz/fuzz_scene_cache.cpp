// The scene cache reader's fuzz target (libFuzzer; also built into facet_fuzz_cache_replay, which
// replays saved inputs without libFuzzer). One input is a cache file's bytes. It is read twice:
// as it is (the header checks: size, magic, version, layout, checksum), then with its header's
// payload size and checksum made to match, so that mutations reach the payload parser and the
// scene checks behind it. Reading must return a scene the renderer can draw or throw
// CacheFormatError; anything else (a crash, a sanitizer report, another exception) is a finding.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "engine/base/checksum.h"
#include "engine/cache/scene_cache_check.h"
#include "engine/cache/scene_cache_format.h"

namespace {

// FACET_FUZZ_VERBOSE=1 (for facet_fuzz_cache_replay) says what became of each input.
void read_one(const uint8_t* data, size_t size) {
  static const bool verbose = std::getenv("FACET_FUZZ_VERBOSE") != nullptr;
  try {
    facet::SceneCacheContents c = facet::read_scene_cache(data, size);
    // What the reader returned must pass the checks again (they are its promise).
    facet::check_cached_scene(c.scene);
    if (verbose) std::printf("  read: %u triangles of %s\n", c.scene.triangle_count(), c.source_path.c_str());
  } catch (const facet::CacheFormatError& e) {
    // Refused with a reason: a correct answer to a bad file.
    if (verbose) std::printf("  refused: %s\n", e.what());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  read_one(data, size);
  if (size >= sizeof(facet::SceneCacheHeader)) {
    std::vector<uint8_t> fixed(data, data + size);
    facet::SceneCacheHeader h;
    std::memcpy(&h, fixed.data(), sizeof h);
    h.payload_size = size - sizeof h;
    h.payload_checksum = facet::block_checksum(fixed.data() + sizeof h, h.payload_size);
    std::memcpy(fixed.data(), &h, sizeof h);
    read_one(fixed.data(), fixed.size());
  }
  return 0;
}
