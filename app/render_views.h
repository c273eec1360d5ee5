// The frames `facet render` draws from one load of the model: the one camera of the command line,
// a turntable around it (--turntable N), or every camera of a JSON file (--cameras FILE), and the
// --transparent background. Loading, rendering and the statistics stay in render_command.cpp.
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "app/camera_options.h"

namespace facet {

struct ViewOptions {
  int turntable = 0;          // frames around the model (0: one frame)
  std::string cameras_file;   // JSON list of cameras (empty: none)
  bool transparent = false;   // alpha 0 where no triangle was drawn
};

// One frame to draw and where it goes.
struct ViewJob {
  Camera camera;
  int width = 0, height = 0;  // pixels
  std::string output;         // PNG path
  std::string label;          // "frame 3", "camera 2": for messages
};

void add_view_options(CLI::App* cmd, ViewOptions& o);

// Throws UsageError when the options cannot name their outputs (no -o, a bad template): checked
// before the model is loaded.
void check_view_options(const ViewOptions& o, const std::string& output);

// The frames to draw. `camera`: the command line's camera options; `output`: -o (a template with
// one %d, %0Nd, for a turntable); width x height: --size. Throws UsageError for a bad template,
// std::runtime_error("FILE: camera N: problem") for a cameras file that cannot be used.
std::vector<ViewJob> plan_views(const ViewOptions& o, const CameraOptions& camera, const Bounds& bounds,
                                const std::string& output, int width, int height);

// The camera as command-line options (--eye, --target, --up), exact to the last bit of each float:
// `facet render` with them draws the same frame.
std::string camera_options_text(const Camera& camera);

// Sets alpha to 0 on every pixel whose triangle id is ~0u (nothing drawn there).
void clear_background_alpha(std::vector<Rgba8>& rgba, const std::vector<uint32_t>& triangle_ids);

}  // namespace facet
