// The viewer's remembered settings as JSON (nlohmann-json3-dev: a parser with line/column errors,
// so we do not write our own). Enum values are stored by name, so reordering an enum never
// changes what an old file means.
#include "app/viewer/viewer_config.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "engine/base/platform.h"
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

// Fields missing from the file keep their defaults; a field of the wrong type throws.
void render_from_json(const json& j, RenderOptions& r) {
  r.shading = parse_option(kShadingNames, j.value("shading", std::string())).value_or(r.shading);
  r.filter = parse_option(kFilterNames, j.value("filter", std::string())).value_or(r.filter);
  r.cull_backfaces = j.value("cull_backfaces", r.cull_backfaces);
  r.two_sided = j.value("two_sided", r.two_sided);
  r.wireframe = j.value("wireframe", r.wireframe);
  r.clamp_uv = j.value("clamp_uv", r.clamp_uv);
  r.ground_grid = j.value("ground_grid", r.ground_grid);
  const int aa = j.value("aa", (int)r.samples);
  if (aa == 1 || aa == 4 || aa == 8) r.samples = (uint8_t)aa;  // another count keeps the default
  if (j.contains("background")) {
    auto c = j.at("background").get<std::vector<int>>();
    if (c.size() == 3)
      r.background = {(uint8_t)std::clamp(c[0], 0, 255), (uint8_t)std::clamp(c[1], 0, 255),
                      (uint8_t)std::clamp(c[2], 0, 255), 255};
  }
}

ViewerConfig config_from_json(const json& j) {
  ViewerConfig c;
  if (j.contains("window")) {
    const json& w = j.at("window");
    c.window = {true, w.at("x").get<int>(), w.at("y").get<int>(), w.at("width").get<int>(), w.at("height").get<int>()};
    if (c.window.width <= 0 || c.window.height <= 0) c.window = {};
  }
  for (const std::string& p : j.value("recent", std::vector<std::string>()))
    if ((int)c.recent.size() < kMaxRecentModels) c.recent.push_back(p);
  if (j.contains("render")) render_from_json(j.at("render"), c.render);
  c.fov_y_deg = std::clamp(j.value("fov_y_deg", c.fov_y_deg), 1.0f, 150.0f);
  c.auto_clip = j.value("auto_clip", c.auto_clip);
  c.resolution_scale = std::clamp(j.value("resolution_scale", c.resolution_scale), 0.25f, 2.0f);
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
  std::ifstream in(path);
  if (!in) {
    std::error_code ec;
    if (fs::exists(path, ec)) out.error = path + ": cannot be read";
    return out;  // no file yet: a first run
  }
  try {
    out.config = config_from_json(json::parse(in));
  } catch (const json::exception& e) {
    out.config = ViewerConfig{};
    out.error = path + ": " + e.what() + " (ignored; defaults used)";
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
