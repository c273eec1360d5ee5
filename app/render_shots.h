// The frames `facet render` draws from one load of the model: the one camera of the command line,
// a turntable around it (--turntable N), or every camera of a JSON file (--cameras FILE), and the
// --transparent background. Loading, rendering and the statistics stay in render_command.cpp.
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "app/camera_options.h"

namespace facet {

struct ShotOptions {
  int turntable = 0;         // frames around the model (0: one frame)
  std::string cameras_file;  // JSON list of cameras (empty: none)
  bool transparent = false;  // alpha 0 where no triangle was drawn, the covered fraction on
                             //   anti-aliased edges (resolve does it: a background of alpha 0)
};

// One frame to draw and where it goes.
struct Shot {
  Camera camera;
  int width = 0, height = 0;  // pixels
  std::string output;         // PNG path
  std::string label;          // "frame 3", "camera 2": for messages
};

void add_shot_options(CLI::App* cmd, ShotOptions& o);

// One frame asked for, before the model (and so the framing) is known.
struct ShotRequest {
  CameraOptions camera;       // the command line's, or a cameras-file entry's eye/target/up/fov
  int width = 0, height = 0;  // pixels
  std::string output;         // PNG path (a template for a turntable)
  std::string label;          // "frame", or "FILE: camera N" for messages
};

struct ShotPlan {
  std::vector<ShotRequest> requests;  // the cameras file's entries, or the command line's one
  int turntable = 0;                  // > 0: requests[0] turned into this many frames
  bool from_file = false;             // the requests came from a cameras file
};

// Reads and checks everything that does not need the model, before it is loaded: the command
// line's camera values together (camera_conflict: UsageError, before any cameras file is read),
// the cameras file (cameras_file.h: std::runtime_error "FILE: camera N: \"key\": problem"), a
// focal length against its frame's height, -o and its turntable template (UsageError). A focal
// length from the defaults file that its frame refuses is left out with a warning instead.
ShotPlan plan_shots(const ShotOptions& o, const CameraOptions& camera, const std::string& output, int width,
                    int height);

// Every PNG the plan writes, in order (a turntable's frames by number), before the model is known.
std::vector<std::string> planned_outputs(const ShotPlan& plan);

// The frames to draw, now that the model's bounds frame the cameras. A camera that cannot be used
// is a UsageError from the command line, a std::runtime_error naming the entry from a file; the
// defaults file's values that the model refuses (a near plane beyond its far one) are left out
// with a warning, naming the file's line, and the frame drawn without them.
std::vector<Shot> make_shots(const ShotPlan& plan, const Bounds& bounds);

// The camera as command-line options (--eye, --target, --up; --ortho when orthographic), exact to
// the last bit of each float:
// `facet render` with them draws the same frame.
std::string camera_options_text(const Camera& camera);

}  // namespace facet
