// Reading and writing the viewer's remembered state (viewer_session.h).
#include "app/viewer/viewer_session.h"

#include <imgui.h>

#include <cstdio>
#include <filesystem>

namespace facet {

void show_notice(ViewerState& s, const std::string& text, double seconds) {
  s.notice = text;
  s.notice_until = ImGui::GetCurrentContext() ? ImGui::GetTime() + seconds : seconds;
}

void report_config_problem(ViewerState& s, const std::string& problem) {
  if (s.config_error_reported) return;
  s.config_error_reported = true;
  std::fprintf(stderr, "facet view: %s\n", problem.c_str());
  show_notice(s, problem, 10.0);
}

void open_session(ViewerState& s, int* width, int* height) {
  *width = s.options.width;
  *height = s.options.height;
  s.config_dir = viewer_config_directory();
  ConfigRead read = read_viewer_config(s.config_dir);
  if (!read.error.empty()) report_config_problem(s, read.error);
  s.config = read.config;
  if (!s.options.restore_settings) return;
  const ViewerConfig& c = s.config;
  s.settings = c.render;
  s.resolution_scale = c.resolution_scale;
  s.vsync = c.vsync && s.options.vsync;  // --no-vsync still wins
  s.show_axes = c.show_axes;
  s.options.camera.fov_y_deg = c.fov_y_deg;  // the first model is framed with it
  s.controller.camera().fov_y = glm::radians(c.fov_y_deg);
  if (c.orthographic) s.options.camera.ortho_height = kOrthoFit;  // framed with the first model
  s.controller.auto_clip = c.auto_clip;
  if (c.window.known && !s.options.size_given) {
    *width = c.window.width;
    *height = c.window.height;
  }
}

void attach_session(ViewerState& s, Host& host) {
  if (!s.options.restore_settings || s.config_dir.empty()) return;
  s.imgui_ini_path = (std::filesystem::path(s.config_dir) / "imgui.ini").string();
  ImGui::GetIO().IniFilename = s.imgui_ini_path.c_str();
  std::error_code ec;
  std::filesystem::create_directories(s.config_dir, ec);  // ImGui writes there without asking
  if (s.config.window.known && !s.options.size_given) host.place_window(s.config.window.x, s.config.window.y);
}

void remember_model(ViewerState& s, const std::string& path) {
  std::vector<std::string> before = s.config.recent;
  add_recent_model(s.config.recent, path);
  if (s.config.recent == before || s.config_dir.empty()) return;
  std::string error = write_viewer_config(s.config_dir, s.config);
  if (!error.empty()) report_config_problem(s, error);
}

void close_session(ViewerState& s, Host& host) {
  if (s.config_dir.empty()) return;
  if (s.options.restore_settings) {
    ViewerConfig& c = s.config;
    WindowPlacement w;
    if (host.window_placement(&w.x, &w.y, &w.width, &w.height)) {
      w.known = true;
      c.window = w;
    }
    c.render = s.settings;
    c.resolution_scale = s.resolution_scale;
    c.vsync = s.vsync;
    c.show_axes = s.show_axes;
    c.fov_y_deg = glm::degrees(s.controller.camera().fov_y);
    c.orthographic = s.controller.camera().orthographic();
    c.auto_clip = s.controller.auto_clip;
  }
  std::string error = write_viewer_config(s.config_dir, s.config);
  if (!error.empty()) report_config_problem(s, error);
}

std::string window_title(const std::string& model_path, const char* backend, int width, int height) {
  std::string size = std::to_string(width) + "x" + std::to_string(height);
  std::string tail = std::string("facet (") + backend + ", " + size + ")";
  if (model_path.empty()) return tail;
  return std::filesystem::path(model_path).filename().string() + " - " + tail;
}

void update_title(ViewerState& s, Host& host) {
  std::string title = window_title(s.loader.current_path(), s.renderer->name(), s.render_width, s.render_height);
  if (title == s.title) return;
  s.title = title;
  host.set_title(title);
}

}  // namespace facet
