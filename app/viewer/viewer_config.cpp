// The viewer's remembered settings as JSON (nlohmann-json3-dev: a parser with line/column errors,
// so we do not write our own). Enum values are stored by name, so reordering an enum never
// changes what an old file means.
#include "app/viewer/viewer_config.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>

#include "app/input_limits.h"
#include "engine/base/platform.h"
#include "engine/formats/format_messages.h"
#include "engine/render/camera_values.h"
#include "engine/render/option_names.h"

namespace facet {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kFileName = "viewer.json";

json render_to_json(const RenderOptions& r) {
  return {{"shading", name_of(r.shading)},
          {"filter", name_of(r.filter)},
          {"cull_backfaces", r.cull_backfaces},
          {"two_sided", r.two_sided},
          {"wireframe", r.wireframe},
          {"clamp_uv", r.clamp_uv},
          {"ground_grid", r.ground_grid},
          {"background", {r.background.r, r.background.g, r.background.b}},
          {"aa", r.samples}};
}

// An int of `j` at `key`; nullopt unless the number is an integer in int's range.
std::optional<int> int_field(const json& j, const char* key) {
  if (!j.contains(key) || !j.at(key).is_number_integer()) return std::nullopt;
  const int64_t v = j.at(key).get<int64_t>();
  if (v < INT32_MIN || v > INT32_MAX) return std::nullopt;
  return (int)v;
}

// Fields missing from the file keep their defaults; a field of the wrong type throws.
void render_from_json(const json& j, RenderOptions& r) {
  r.shading = parse_option(kShadingNames, j.value("shading", std::string())).value_or(r.shading);
  r.filter = parse_option(kFilterNames, j.value("filter", std::string())).value_or(r.filter);
  r.cull_backfaces = j.value("cull_backfaces", r.cull_backfaces);
  r.two_sided = j.value("two_sided", r.two_sided);
  r.wireframe = j.value("wireframe", r.wireframe);
  r.clamp_uv = j.value("clamp_uv", r.clamp_uv);
  r.ground_grid = j.value("ground_grid", r.ground_grid);
  const int aa = int_field(j, "aa").value_or(r.samples);
  if (aa == 1 || aa == 4 || aa == 8) r.samples = (uint8_t)aa;  // another count keeps the default
  if (j.contains("background")) {
    const json& c = j.at("background");
    if (c.is_array() && c.size() == 3 && c[0].is_number_integer() && c[1].is_number_integer() &&
        c[2].is_number_integer()) {
      auto channel = [&c](int i) { return (uint8_t)std::clamp<int64_t>(c[i].get<int64_t>(), 0, 255); };
      r.background = {channel(0), channel(1), channel(2), 255};
    }
  }
}

// A number of `j` at `key` that the checks accept, else `fallback` with the problem noted.
float checked_number(const json& j, const char* key, float fallback, std::string (*problem)(double),
                     std::vector<std::string>& problems) {
  if (!j.contains(key)) return fallback;
  const json& v = j.at(key);
  std::string why = v.is_number() ? problem(v.get<double>()) : "must be a number";
  if (why.empty()) return (float)v.get<double>();
  problems.push_back(std::string("\"") + key + "\": " + why + " (the default is used)");
  return fallback;
}

std::string resolution_scale_problem(double s) { return std::isfinite(s) ? "" : "must be a finite number"; }

ViewerConfig config_from_json(const json& j, std::vector<std::string>& problems) {
  ViewerConfig c;
  if (j.contains("window")) {
    const json& w = j.at("window");
    const std::optional<int> x = int_field(w, "x"), y = int_field(w, "y"), width = int_field(w, "width"),
                             height = int_field(w, "height");
    if (x && y && width && height && *width > 0 && *height > 0)
      c.window = {true, *x, *y, *width, *height};
    else
      problems.push_back("\"window\": not four integers with a positive size (the window system places it)");
  }
  for (const std::string& p : j.value("recent", std::vector<std::string>()))
    if ((int)c.recent.size() < kMaxRecentModels) c.recent.push_back(p);
  if (j.contains("render")) render_from_json(j.at("render"), c.render);
  // The Camera panel's slider spans 1..150 degrees; the field of view is checked as --fov-y is.
  c.fov_y_deg = std::clamp(checked_number(j, "fov_y_deg", c.fov_y_deg, fov_y_problem, problems), 1.0f, 150.0f);
  c.auto_clip = j.value("auto_clip", c.auto_clip);
  c.resolution_scale = std::clamp(
      checked_number(j, "resolution_scale", c.resolution_scale, resolution_scale_problem, problems), 0.25f, 2.0f);
  c.vsync = j.value("vsync", c.vsync);
  c.show_axes = j.value("show_axes", c.show_axes);
  c.orthographic = j.value("orthographic", c.orthographic);
  return c;
}

json config_to_json(const ViewerConfig& c) {
  json j = {{"recent", c.recent},       {"render", render_to_json(c.render)},     {"fov_y_deg", c.fov_y_deg},
            {"auto_clip", c.auto_clip}, {"resolution_scale", c.resolution_scale}, {"vsync", c.vsync},
            {"show_axes", c.show_axes}, {"orthographic", c.orthographic}};
  if (c.window.known)
    j["window"] = {{"x", c.window.x}, {"y", c.window.y}, {"width", c.window.width}, {"height", c.window.height}};
  return j;
}

}  // namespace

std::string viewer_config_directory() {
  const std::string dir = platform::user_config_dir();
  return dir.empty() ? "" : (fs::path(dir) / "facet").string();
}

ConfigRead read_viewer_config(const std::string& dir) {
  ConfigRead out;
  if (dir.empty()) return out;
  const std::string path = (fs::path(dir) / kFileName).string();
  const platform::FileStatus status = platform::file_status(path);
  if (!status.exists) return out;  // no file yet: a first run
  const std::string shown = shown_path(path);
  std::string text;
  if (const std::string why = platform::read_small_file(path, kMaxViewerConfigBytes, text); !why.empty()) {
    out.error = shown + ": " + why + " (ignored; defaults used)";
    return out;
  }
  try {
    check_json_depth(text.data(), text.size(), 0);
    std::vector<std::string> problems;
    out.config = config_from_json(json::parse(text), problems);
    for (const std::string& p : problems) out.error += (out.error.empty() ? shown + ": " : "; ") + p;
  } catch (const std::exception& e) {  // json::exception, or GltfError from the depth check
    out.config = ViewerConfig{};
    out.error = shown + ": " + safe_line(e.what()) + " (ignored; defaults used)";
  }
  return out;
}

std::string write_viewer_config(const std::string& dir, const ViewerConfig& config) {
  if (dir.empty()) return "no configuration directory ($XDG_CONFIG_HOME and $HOME unset)";
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return dir + ": " + ec.message();
  const std::string path = (fs::path(dir) / kFileName).string();
  const std::string text = config_to_json(config).dump(2) + "\n";
  platform::ReplacingFile file(path);  // written whole beside it, then renamed over it
  std::string why = file.open();
  if (why.empty()) why = file.write(text.data(), text.size());
  if (why.empty()) why = file.commit();
  return why.empty() ? "" : path + ": cannot be written: " + why;
}

void add_recent_model(std::vector<std::string>& recent, const std::string& path) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  std::string p = (ec ? fs::path(path) : absolute.lexically_normal()).string();
  recent.erase(std::remove(recent.begin(), recent.end(), p), recent.end());
  recent.insert(recent.begin(), p);
  if ((int)recent.size() > kMaxRecentModels) recent.resize(kMaxRecentModels);
}

}  // namespace facet
