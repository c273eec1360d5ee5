// Everything the viewer's frame loop and panels share: options, renderer, model loader, camera
// controller, render settings and the numbers the overlay shows. Plain state; behaviour lives in
// viewer.cpp (the loop) and the panel functions (panels.h).
#pragma once
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "app/viewer/controls/camera_controller.h"
#include "app/viewer/controls/model_loader.h"
#include "app/viewer/controls/pick.h"
#include "app/viewer/viewer_config.h"
#include "app/viewer/viewer_options.h"
#include "engine/render/renderer.h"

namespace facet {

// The last frame times, oldest first when read through at(); for the overlay's graph.
class FrameTimeHistory {
 public:
  static constexpr int kSize = 240;  // four seconds at 60 Hz
  void push(float ms) {
    m_ms[m_next] = ms;
    m_next = (m_next + 1) % kSize;
    if (m_count < kSize) ++m_count;
  }
  int count() const { return m_count; }
  float at(int i) const { return m_ms[(m_next - m_count + i + kSize) % kSize]; }
  float average() const {
    float sum = 0;
    for (int i = 0; i < m_count; ++i) sum += at(i);
    return m_count ? sum / (float)m_count : 0.0f;
  }

 private:
  std::array<float, kSize> m_ms{};
  int m_next = 0, m_count = 0;
};

// The Open panel: a path field and the listing of one directory (folders and model files).
struct OpenPanelState {
  struct Entry {
    std::string name;
    bool is_directory;
  };
  std::array<char, 4096> path{};  // the text field
  std::string directory;          // the directory listed
  std::vector<Entry> entries;
  std::string listing_error;  // why the directory could not be listed
  bool stale = true;          // list again before drawing
  bool alerted = false;       // the Model panel was opened for the current load or error
};

struct ViewerState {
  ViewerOptions options;
  std::unique_ptr<Renderer> renderer;
  ModelLoader loader;
  CameraController controller;
  bool camera_from_options = true;  // the next model gets the command line's camera
  int models_seen = 0;              // models installed that the camera has been set up for
  RenderOptions settings;
  float resolution_scale = 1.0f;  // render size = framebuffer size x this
  bool vsync = true;
  bool overlay = true;
  int render_width = 0, render_height = 0;  // this frame's render size
  FrameTimeHistory frame_times;             // wall-clock ms per frame, whole loop
  std::string message;                      // last screenshot or other notice, for the UI
  std::string render_error;                 // why the last frame could not be drawn, or empty
  bool screenshot_requested = false;
  OpenPanelState open;
  const char* host_name = "";
  std::string gl_renderer;
  long frame_index = 0;

  // Conventions (viewer_keys.cpp), picking and measuring (pick.h), persistence (viewer_config.h).
  bool quit_requested = false;           // Esc, or Quit in the confirmation
  bool confirm_quit = false;             // Esc while a load runs: ask first
  bool show_help = false;                // F1 or ?: the key and mouse cheat sheet
  bool measure_mode = false;             // M: clicks place measurement points
  bool show_axes = true;                 // X: the corner axes gizmo
  bool screenshot_with_overlay = false;  // Shift+F12 (screenshot_requested: F12, frame only)
  SurfacePick hover;                     // what the cursor is over in the last frame
  Measurement measurement;
  std::string notice;                  // a short message shown in the overlay until notice_until
  double notice_until = 0;             // ImGui time, seconds
  std::string title;                   // the window title last set
  std::string config_dir;              // where viewer.json and imgui.ini live ("" = nowhere)
  std::string imgui_ini_path;          // ImGui keeps a pointer to this string
  ViewerConfig config;                 // what is written back at exit
  bool config_error_reported = false;  // a config problem is reported once
};

}  // namespace facet
