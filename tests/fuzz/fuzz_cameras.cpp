// The cameras file's fuzz target (libFuzzer; also built into facet_fuzz_cameras_replay, which
// replays saved inputs without libFuzzer). One input is a cameras file's text, parsed as
// `facet render --cameras` parses it (app/cameras_file.h), over the command line's default camera.
// It must give cameras whose values pass the checks, or refuse with std::runtime_error (a file's
// problem) or std::invalid_argument; anything else (a crash, a sanitizer report, a JSON library
// exception, a stack overflow on deep nesting) is a finding.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "app/cameras_file.h"
#include "engine/render/camera_values.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const bool verbose = std::getenv("FACET_FUZZ_VERBOSE") != nullptr;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const std::vector<facet::ShotRequest> shots =
        facet::parse_cameras_text(text, "fuzz.json", facet::CameraOptions{}, 64, 48);
    for (const facet::ShotRequest& s : shots) {
      // What the parser accepted must pass the checks again (they are its promise).
      const facet::CameraOptions& c = s.camera;
      if (!c.eye || !c.target || !facet::point_problem(*c.eye).empty() ||
          !facet::look_problem(*c.eye, *c.target).empty())
        std::abort();
      if (c.fov_y_deg && !facet::fov_y_problem(*c.fov_y_deg).empty()) std::abort();
      if (c.focal_px && !facet::focal_px_problem(*c.focal_px).empty()) std::abort();
      if (s.output.empty() || s.width < 1 || s.height < 1) std::abort();
    }
    if (verbose) std::printf("  read: %zu cameras\n", shots.size());
  } catch (const std::runtime_error& e) {
    if (verbose) std::printf("  refused: %s\n", e.what());
  } catch (const std::invalid_argument& e) {
    if (verbose) std::printf("  refused: %s\n", e.what());
  }
  return 0;
}
