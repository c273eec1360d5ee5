// Cameras files (cameras_file.h): read, bounded, and each entry's keys checked as the options.
#include "app/cameras_file.h"

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "app/input_limits.h"
#include "engine/base/platform.h"
#include "engine/formats/format_messages.h"
#include "engine/formats/gltf/gltf_accessors.h"
#include "engine/render/camera_values.h"

namespace facet {

namespace {

using nlohmann::json;

// One entry's keys, checked; `where` is "FILE: camera N".
class Entry {
 public:
  Entry(const json& e, std::string where) : m_e(e), m_where(std::move(where)) {}

  [[noreturn]] void fail(const char* key, const std::string& problem) const {
    throw std::runtime_error(m_where + ": \"" + key + "\": " + problem);
  }
  // How the messages of camera_conflict and make_camera name the key (after "FILE: camera N: ").
  static std::string name(const char* key) { return std::string("\"") + key + "\""; }
  bool has(const char* key) const { return m_e.contains(key); }

  // The three numbers of `key`, checked as a point (eye, target) or a direction (up).
  std::optional<glm::vec3> vec3(const char* key, bool required, bool direction) const {
    if (!has(key)) {
      if (required) throw std::runtime_error(m_where + ": missing \"" + key + "\"");
      return std::nullopt;
    }
    const json& v = m_e[key];
    if (!v.is_array() || v.size() != 3 || !v[0].is_number() || !v[1].is_number() || !v[2].is_number())
      fail(key, "must be an array of three numbers");
    const glm::dvec3 d{v[0].get<double>(), v[1].get<double>(), v[2].get<double>()};
    if (std::string p = direction ? direction_problem(d) : point_problem(d); !p.empty()) fail(key, p);
    return glm::vec3(d);
  }

  // The number of `key`, checked by `problem`.
  std::optional<float> number(const char* key, std::string (*problem)(double)) const {
    if (!has(key)) return std::nullopt;
    if (!m_e[key].is_number()) fail(key, "must be a number");
    const double v = m_e[key].get<double>();
    if (std::string p = problem(v); !p.empty()) fail(key, p);
    return (float)v;
  }

  // "ortho_height": a number or "fit", as --ortho.
  std::optional<float> ortho_height() const {
    if (!has("ortho_height")) return std::nullopt;
    const json& h = m_e["ortho_height"];
    if (!h.is_number() && !h.is_string()) fail("ortho_height", "must be a positive number (world units) or \"fit\"");
    try {
      return parse_ortho_height(h.is_string() ? h.get<std::string>() : number_text(h.get<double>()));
    } catch (const std::invalid_argument& e) {
      fail("ortho_height", e.what());
    }
  }

  std::string string(const char* key) const {
    if (!has(key) || !m_e[key].is_string()) return {};
    return m_e[key].get<std::string>();
  }

 private:
  const json& m_e;
  std::string m_where;
};

ShotRequest camera_entry(const json& e, const CameraOptions& base, int width, int height, const std::string& where) {
  if (!e.is_object()) throw std::runtime_error(where + ": must be an object");
  const Entry entry(e, where);
  CameraOptions c = base;
  c.view_dir.reset();
  c.eye = entry.vec3("eye", true, false);
  c.target = entry.vec3("target", true, false);
  c.names.eye = entry.name("eye");
  c.names.target = entry.name("target");
  if (auto up = entry.vec3("up", false, true)) c.up = up, c.names.up = entry.name("up");
  const std::optional<float> fov = entry.number("fov_y", fov_y_problem);
  const std::optional<float> focal = entry.number("focal_px", focal_px_problem);
  if (fov && focal) throw std::runtime_error(where + ": give \"fov_y\" or \"focal_px\", not both");
  if (fov) c.focal_px.reset(), c.fov_y_deg = fov, c.names.fov_y = entry.name("fov_y");
  if (focal) c.fov_y_deg.reset(), c.focal_px = focal, c.names.focal_px = entry.name("focal_px");
  if (auto h = entry.ortho_height()) c.ortho_height = h, c.names.ortho = entry.name("ortho_height");
  if (entry.has("size")) {
    if (!e["size"].is_string()) entry.fail("size", "must be a string \"WxH\"");
    try {
      parse_size(e["size"].get<std::string>(), width, height);
    } catch (const std::exception& ex) {
      entry.fail("size", ex.what());
    }
  }
  // The entry's values together, and with the command line's (--near with a perspective entry).
  if (std::optional<CameraConflict> conflict = camera_conflict(c))
    throw std::runtime_error(where + ": " + conflict->message);
  const std::string output = entry.string("output");
  if (output.empty()) throw std::runtime_error(where + ": \"output\" must name the PNG to write");
  // Longer than any path the system opens: said here, with the name cut, not by the write later.
  if (output.size() > kMaxOutputPathBytes)
    throw std::runtime_error(where + ": \"output\" " + facet::quoted(output) + " is " + std::to_string(output.size()) +
                             " bytes long; a path has at most " + std::to_string(kMaxOutputPathBytes));
  return {c, width, height, output, where};
}

}  // namespace

std::vector<ShotRequest> parse_cameras_text(const std::string& text, const std::string& file, const CameraOptions& base,
                                            int width, int height) {
  try {
    check_json_depth(text.data(), text.size(), 0);
  } catch (const GltfError& e) {
    throw std::runtime_error(shown_path(file) + ": " + e.what());
  }
  json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded()) {
    try {
      doc = json::parse(text);  // again, for the message: where the syntax broke
    } catch (const json::exception& e) {
      throw std::runtime_error(shown_path(file) + ": not valid JSON (" + safe_line(e.what()) + ")");
    }
  }
  const json& list = doc.is_object() && doc.contains("cameras") ? doc["cameras"] : doc;
  if (!list.is_array() || list.empty())
    throw std::runtime_error(shown_path(file) + ": expected a non-empty array of cameras (or {\"cameras\": [...]})");
  std::vector<ShotRequest> requests;
  for (size_t i = 0; i < list.size(); ++i)
    requests.push_back(camera_entry(list[i], base, width, height, shown_path(file) + ": camera " + std::to_string(i)));
  return requests;
}

std::vector<ShotRequest> read_cameras_file(const std::string& file, const CameraOptions& base, int width, int height) {
  std::string text;
  if (const std::string why = platform::read_small_file(file, kMaxCamerasFileBytes, text); !why.empty())
    throw std::runtime_error(shown_path(file) + ": " + why);
  return parse_cameras_text(text, file, base, width, height);
}

}  // namespace facet
