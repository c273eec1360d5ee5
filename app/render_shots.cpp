// Turntables, cameras files and transparent backgrounds for `facet render` (render_shots.h).
// Every camera goes through make_camera, as the command line's does, so a frame of a turntable or
// of a cameras file equals `facet render` with that frame's --eye/--target/--up.
#include "app/render_shots.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>

#include <glm/gtc/matrix_transform.hpp>
#include <nlohmann/json.hpp>

#include "app/exit_codes.h"

namespace facet {

namespace {

// More turntable frames than this is a typo, not an animation.
constexpr int kMaxTurntableFrames = 100000;

// A field of view of 180 degrees or more has no perspective projection.
constexpr float kMaxFovDeg = 180.0f;

using nlohmann::json;

// `pattern` with its one %d or %0Nd replaced by `n` ("%%" is a literal %). Throws UsageError
// unless there is exactly one such field and no other % directive.
std::string frame_name(const std::string& pattern, int n) {
  std::string out;
  int fields = 0;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%') {
      out += pattern[i];
      continue;
    }
    if (i + 1 < pattern.size() && pattern[i + 1] == '%') {
      out += '%';
      ++i;
      continue;
    }
    size_t j = i + 1;
    int width = 0;
    while (j < pattern.size() && std::isdigit((unsigned char)pattern[j]) && width < 100)
      width = width * 10 + (pattern[j++] - '0');
    if (j >= pattern.size() || pattern[j] != 'd' || width > 9)
      throw UsageError("-o '" + pattern + "': only %d or %0Nd (N up to 9) may follow a %");
    std::string digits = std::to_string(n);
    if ((int)digits.size() < width) digits.insert(0, (size_t)width - digits.size(), '0');
    out += digits;
    ++fields;
    i = j;
  }
  if (fields != 1)
    throw UsageError("--turntable needs -o with one frame number field, such as out_%03d.png; got '" + pattern + "'");
  return out;
}

std::vector<Shot> turntable(int frames, const CameraOptions& options, const Bounds& bounds, const std::string& output,
                            int width, int height) {
  const Camera first = as_usage([&] { return make_camera(options, bounds, width, height); });
  const glm::vec3 axis = glm::normalize(first.up);
  std::vector<Shot> jobs;
  for (int k = 0; k < frames; ++k) {
    CameraOptions turned = options;
    turned.target = first.target;
    turned.up = first.up;
    if (first.orthographic()) turned.ortho_height = first.ortho_height;  // "fit" once, for every frame
    const float degrees = 360.0f * (float)k / (float)frames;
    turned.eye = k == 0 ? first.eye
                        : first.target + glm::vec3(glm::rotate(glm::mat4(1.0f), glm::radians(degrees), axis) *
                                                   glm::vec4(first.eye - first.target, 0.0f));
    jobs.push_back({make_camera(turned, bounds, width, height), width, height, frame_name(output, k),
                    "frame " + std::to_string(k)});
  }
  return jobs;
}

// The three numbers of `key` in camera entry `e`; `required`: a missing key is an error.
std::optional<glm::vec3> vec3_field(const json& e, const char* key, bool required, const std::string& where) {
  if (!e.contains(key)) {
    if (required) throw std::runtime_error(where + ": missing \"" + key + "\"");
    return std::nullopt;
  }
  const json& v = e[key];
  if (!v.is_array() || v.size() != 3 || !v[0].is_number() || !v[1].is_number() || !v[2].is_number())
    throw std::runtime_error(where + ": \"" + key + "\" must be an array of three numbers");
  glm::vec3 out{v[0].get<float>(), v[1].get<float>(), v[2].get<float>()};
  if (!std::isfinite(out.x) || !std::isfinite(out.y) || !std::isfinite(out.z))
    throw std::runtime_error(where + ": \"" + key + "\" must be finite");
  return out;
}

std::optional<float> number_field(const json& e, const char* key, const std::string& where) {
  if (!e.contains(key)) return std::nullopt;
  if (!e[key].is_number() || !(e[key].get<float>() > 0.0f) || !std::isfinite(e[key].get<float>()))
    throw std::runtime_error(where + ": \"" + key + "\" must be a positive number");
  return e[key].get<float>();
}

ShotRequest camera_entry(const json& e, const CameraOptions& base, int width, int height, const std::string& where) {
  if (!e.is_object()) throw std::runtime_error(where + ": must be an object");
  CameraOptions c = base;
  c.view_dir.reset();
  c.eye = vec3_field(e, "eye", true, where);
  c.target = vec3_field(e, "target", true, where);
  if (auto up = vec3_field(e, "up", false, where)) c.up = up;
  const std::optional<float> fov = number_field(e, "fov_y", where), focal = number_field(e, "focal_px", where);
  if (fov && focal) throw std::runtime_error(where + ": give \"fov_y\" or \"focal_px\", not both");
  if (fov && *fov >= kMaxFovDeg) throw std::runtime_error(where + ": \"fov_y\" must be below 180 degrees");
  if (fov) c.focal_px.reset(), c.fov_y_deg = fov;
  if (e.contains("ortho_height")) {
    const json& h = e["ortho_height"];
    try {
      if (!h.is_number() && !h.is_string()) throw std::invalid_argument("");
      c.ortho_height = parse_ortho_height(h.is_string() ? h.get<std::string>() : h.dump());
    } catch (const std::invalid_argument&) {
      throw std::runtime_error(where + ": \"ortho_height\" must be a positive number (world units) or \"fit\"");
    }
  }
  if (focal) c.fov_y_deg.reset(), c.focal_px = focal;
  if (e.contains("size")) {
    if (!e["size"].is_string()) throw std::runtime_error(where + ": \"size\" must be a string \"WxH\"");
    try {
      parse_size(e["size"].get<std::string>(), width, height);
    } catch (const std::exception& ex) {
      throw std::runtime_error(where + ": \"size\": " + ex.what());
    }
  }
  if (!e.contains("output") || !e["output"].is_string() || e["output"].get<std::string>().empty())
    throw std::runtime_error(where + ": \"output\" must name the PNG to write");
  return {c, width, height, e["output"].get<std::string>(), where};
}

std::vector<ShotRequest> cameras_file(const std::string& file, const CameraOptions& base, int width, int height) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error(file + ": " + std::strerror(errno));
  json doc = json::parse(in, nullptr, false);
  if (doc.is_discarded()) {
    // Parse again for the message: where the syntax broke.
    std::ifstream again(file);
    try {
      doc = json::parse(again);
    } catch (const json::exception& e) {
      throw std::runtime_error(file + ": not valid JSON (" + std::string(e.what()) + ")");
    }
  }
  const json& list = doc.is_object() && doc.contains("cameras") ? doc["cameras"] : doc;
  if (!list.is_array() || list.empty())
    throw std::runtime_error(file + ": expected a non-empty array of cameras (or {\"cameras\": [...]})");
  std::vector<ShotRequest> requests;
  for (size_t i = 0; i < list.size(); ++i)
    requests.push_back(camera_entry(list[i], base, width, height, file + ": camera " + std::to_string(i)));
  return requests;
}

}  // namespace

void add_shot_options(CLI::App* cmd, ShotOptions& o) {
  auto* turn = cmd->add_option("--turntable", o.turntable,
                               "Write N frames turning once around the model about the up axis; -o is a "
                               "name template with one %d or %0Nd (out_%03d.png)")
                   ->check(CLI::Range(1, kMaxTurntableFrames));
  cmd->add_option("--cameras", o.cameras_file,
                  "JSON file of cameras to render from one load: [{\"eye\": [x,y,z], \"target\": [x,y,z], "
                  "\"up\": [x,y,z], \"fov_y\": deg or \"focal_px\": f, \"ortho_height\": h or \"fit\" "
                  "(orthographic), \"size\": \"WxH\", \"output\": \"a.png\"}, ...]")
      ->excludes(turn);
  cmd->add_flag("--transparent", o.transparent,
                "Write alpha 0 where no triangle was drawn (an anti-aliased edge pixel: its covered fraction)");
}

ShotPlan plan_shots(const ShotOptions& o, const CameraOptions& camera, const std::string& output, int width,
                    int height) {
  ShotPlan plan;
  if (!o.cameras_file.empty()) {
    plan.requests = cameras_file(o.cameras_file, camera, width, height);
    plan.from_file = true;
    return plan;
  }
  if (output.empty()) throw UsageError("-o/--output is required (unless --cameras names the outputs)");
  if (o.turntable < 0 || o.turntable > kMaxTurntableFrames)
    throw UsageError("--turntable expects 1.." + std::to_string(kMaxTurntableFrames) + " frames");
  if (o.turntable > 0) frame_name(output, 0);
  plan.turntable = o.turntable;
  plan.requests.push_back({camera, width, height, output, "frame"});
  return plan;
}

std::vector<std::string> planned_outputs(const ShotPlan& plan) {
  std::vector<std::string> outputs;
  if (plan.turntable > 0)
    for (int k = 0; k < plan.turntable; ++k) outputs.push_back(frame_name(plan.requests.at(0).output, k));
  else
    for (const ShotRequest& r : plan.requests) outputs.push_back(r.output);
  return outputs;
}

std::vector<Shot> make_shots(const ShotPlan& plan, const Bounds& bounds) {
  if (plan.turntable > 0) {
    const ShotRequest& r = plan.requests.at(0);
    return turntable(plan.turntable, r.camera, bounds, r.output, r.width, r.height);
  }
  std::vector<Shot> jobs;
  for (const ShotRequest& r : plan.requests) {
    try {
      jobs.push_back({as_usage([&] { return make_camera(r.camera, bounds, r.width, r.height); }), r.width, r.height,
                      r.output, r.label});
    } catch (const std::exception& e) {
      if (!plan.from_file) throw;
      throw std::runtime_error(r.label + ": " + e.what());  // the file's fault, not the command line's
    }
  }
  return jobs;
}

std::string camera_options_text(const Camera& c) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "--eye %.9g,%.9g,%.9g --target %.9g,%.9g,%.9g --up %.9g,%.9g,%.9g", c.eye.x, c.eye.y,
                c.eye.z, c.target.x, c.target.y, c.target.z, c.up.x, c.up.y, c.up.z);
  if (!c.orthographic()) return buf;
  char ortho[48];
  std::snprintf(ortho, sizeof ortho, " --ortho %.9g", c.ortho_height);
  return std::string(buf) + ortho;
}

}  // namespace facet
