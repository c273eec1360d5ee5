// Turntables, cameras files (read by cameras_file.cpp) and transparent backgrounds for `facet render`
// (render_shots.h).
// Every camera goes through make_camera, as the command line's does, so a frame of a turntable or
// of a cameras file equals `facet render` with that frame's --eye/--target/--up.
#include "app/render_shots.h"

#include <cmath>
#include <cstdio>
#include <optional>

#include <glm/gtc/matrix_transform.hpp>

#include "app/cameras_file.h"
#include "app/exit_codes.h"
#include "engine/render/camera_values.h"

namespace facet {

namespace {

// More turntable frames than this is a typo, not an animation.
constexpr int kMaxTurntableFrames = 100000;

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

// A warning of the defaults file's, as its other bad values get: "facet: warning: ...; ignored".
void warn_left_out(const std::string& where, const std::string& name, const std::string& problem) {
  const std::string text = problem.compare(0, name.size(), name) == 0 ? problem : name + ": " + problem;
  std::fprintf(stderr, "facet: warning: %s%s; ignored\n", shown_path(where).c_str(), shown_path(text).c_str());
}

// `make()` with `camera`'s values; where it refuses values that a defaults file gave (a check
// needing the frame or the model: CameraError), they are left out with a warning, as the file's
// other bad values are, and it is tried again. A value the user typed is never left out: its
// refusal is thrown. `where`: "" or the cameras-file entry's label and ": ", for the warning.
template <class Make>
auto leaving_out_bad_defaults(CameraOptions& camera, const std::string& where, Make&& make) -> decltype(make()) {
  for (;;) {
    try {
      return make();
    } catch (const CameraError& e) {
      std::vector<std::string> file_keys;
      for (const std::string& key : e.keys)
        if (from_defaults_file(camera, key)) file_keys.push_back(key);
      if (file_keys.empty()) throw;
      warn_left_out(where, camera_value_name(camera.names, file_keys[0]), e.what());
      for (const std::string& key : file_keys) drop_camera_value(camera, key);
    }
  }
}

// make_camera, leaving out the defaults file's values it refuses; any other refusal a UsageError.
Camera usable_camera(CameraOptions& camera, const std::string& where, const Bounds& bounds, int width, int height) {
  return as_usage([&] {
    return leaving_out_bad_defaults(camera, where, [&] { return make_camera(camera, bounds, width, height); });
  });
}

// A focal length against its frame's height: CameraError naming it.
void check_focal_length(const CameraOptions& camera, int height) {
  const std::string p = camera.focal_px ? focal_fov_problem(*camera.focal_px, height) : "";
  if (!p.empty())
    throw CameraError(camera.names.focal_px + " " + number_text(*camera.focal_px) + ": " + p, {"focal-px"});
}

std::vector<Shot> turntable(int frames, CameraOptions options, const Bounds& bounds, const std::string& output,
                            int width, int height) {
  const Camera first = usable_camera(options, "", bounds, width, height);
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
  // The command line's own values first: a conflict among them is theirs, never a cameras file's.
  if (std::optional<CameraConflict> conflict = camera_conflict(camera)) throw UsageError(conflict->message);
  if (!o.cameras_file.empty()) {
    plan.requests = read_cameras_file(o.cameras_file, camera, width, height);
    plan.from_file = true;
  } else {
    if (output.empty()) throw UsageError("-o/--output is required (unless --cameras names the outputs)");
    if (o.turntable < 0 || o.turntable > kMaxTurntableFrames)
      throw UsageError("--turntable expects 1.." + std::to_string(kMaxTurntableFrames) + " frames");
    if (o.turntable > 0) frame_name(output, 0);
    plan.turntable = o.turntable;
    plan.requests.push_back({camera, width, height, output, "frame"});
  }
  // A focal length is a field of view once the frame's height is known, as it is already.
  for (ShotRequest& r : plan.requests) {
    const std::string where = plan.from_file ? r.label + ": " : "";
    try {
      leaving_out_bad_defaults(r.camera, where, [&] { check_focal_length(r.camera, r.height); });
    } catch (const CameraError& e) {
      if (plan.from_file) throw std::runtime_error(where + e.what());
      throw UsageError(e.what());
    }
  }
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
      CameraOptions camera = r.camera;
      const std::string where = plan.from_file ? r.label + ": " : "";
      jobs.push_back({usable_camera(camera, where, bounds, r.width, r.height), r.width, r.height, r.output, r.label});
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
