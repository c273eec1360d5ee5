// What the viewer remembers between runs: window placement, the last models opened and the
// Render/Camera settings, as one JSON file (nlohmann-json3-dev) in $XDG_CONFIG_HOME/facet/
// (default ~/.config/facet/), beside ImGui's imgui.ini. No GL and no ImGui here: the viewer copies
// values in and out. A missing file is a first run; a corrupt or unwritable one is reported by
// the caller once and otherwise ignored, never fatal: it is read under a size cap with its
// nesting bounded (app/input_limits.h), and the field of view is checked as --fov-y is.
#pragma once
#include <string>
#include <vector>

#include "engine/render/renderer.h"

namespace facet {

constexpr int kMaxRecentModels = 10;  // the Recent list's length: a screenful, as in MeshLab

struct WindowPlacement {
  bool known = false;         // false: let the window system place it
  int x = 0, y = 0;           // top-left corner, screen pixels
  int width = 0, height = 0;  // client area, screen pixels
};

// The viewer's render settings before any are remembered: the engine's, anti-aliased with 4
// samples a pixel as `facet view --aa` defaults to.
inline RenderOptions default_viewer_render() {
  RenderOptions r;
  r.samples = 4;
  return r;
}

struct ViewerConfig {
  WindowPlacement window;
  std::vector<std::string> recent;                 // absolute paths, most recent first, at most kMaxRecentModels
  RenderOptions render = default_viewer_render();  // shading, filter, culling, wireframe,
                                                   //   background, anti-aliasing samples
  float fov_y_deg = 45.0f;                         // the Camera panel's field of view
  bool auto_clip = true;                           // fit near/far to the model
  float resolution_scale = 1.0f;                   // render size / framebuffer size
  bool vsync = true;
  bool show_axes = true;      // the corner axes gizmo (X)
  bool orthographic = false;  // the orthographic camera (O); its view height is framed anew
};

// $XDG_CONFIG_HOME/facet when that is set and absolute, else $HOME/.config/facet; "" when
// neither is known (nothing is then read or written).
std::string viewer_config_directory();

struct ConfigRead {
  ViewerConfig config;  // defaults wherever the file had nothing usable
  std::string error;    // "PATH: problem" when the file exists but could not be used, else ""
};
// Reads DIR/viewer.json. A missing file gives the defaults and no error.
ConfigRead read_viewer_config(const std::string& dir);
// Writes DIR/viewer.json through a temporary file and a rename, so a crash never leaves half a
// file; creates DIR. Returns "" or "PATH: problem".
std::string write_viewer_config(const std::string& dir, const ViewerConfig& config);

// Puts `path` (made absolute) first in `recent`, removing an earlier entry of it and anything
// past kMaxRecentModels.
void add_recent_model(std::vector<std::string>& recent, const std::string& path);

}  // namespace facet
