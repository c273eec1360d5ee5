// The viewer's life between runs and its window's name: reads the remembered settings at start
// (viewer_config.h), keeps the Recent list as models open, writes everything back at exit, points
// ImGui's imgui.ini into the same directory, and keeps the window title current. Interactive runs
// restore and save settings, window placement and panel layout; scripted runs (--frames) use only
// their options, so that they stay reproducible, and only add their model to Recent. The file
// format is viewer_config.h's; nothing here draws (the overlay shows the notices set here).
#pragma once
#include <string>

#include "app/viewer/viewer_state.h"
#include "app/viewer/window/host.h"

namespace facet {

// Before the host exists: reads the config and, when options.restore_settings, applies it.
// Returns the window size to open (the remembered one unless --size was given).
void open_session(ViewerState& s, int* width, int* height);
// After ImGui's context and the host exist: imgui.ini's path, the remembered window position.
void attach_session(ViewerState& s, Host& host);
// The model just installed goes first in Recent (written at once, so a crash keeps it).
void remember_model(ViewerState& s, const std::string& path);
// At exit: window placement and settings (interactive runs), then the file.
void close_session(ViewerState& s, Host& host);

// A message shown in the overlay for `seconds` (and printed once to stdout when asked).
void show_notice(ViewerState& s, const std::string& text, double seconds = 4.0);
// A configuration problem: reported once per run (stderr and the overlay), then ignored.
void report_config_problem(ViewerState& s, const std::string& problem);

// "spot.obj - facet (cuda, 1280x800)"; "facet (cpu, 640x480)" with no model yet.
std::string window_title(const std::string& model_path, const char* backend, int width, int height);
// Sets the title when the model, backend or frame size changed.
void update_title(ViewerState& s, Host& host);

}  // namespace facet
