// Command-line camera and render options shared by `facet render` and `facet view`.
#pragma once
#include <CLI/CLI.hpp>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/render/option_names.h"
#include "engine/render/renderer.h"

namespace facet {

// What each camera value is called in messages: its option by default; a cameras file's entry
// names the keys it sets ("cams.json: camera 2: \"eye\""), a defaults file its keys and lines
// ("facet.toml:3: [render] 'near'").
struct CameraValueNames {
  std::string eye = "--eye", target = "--target", up = "--up", view_dir = "--view-dir";
  std::string fov_y = "--fov-y", focal_px = "--focal-px", ortho = "--ortho";
  std::string near_plane = "--near", far_plane = "--far";
  // The values a defaults file gave: key -> the name given them then. A value renamed since (a
  // cameras file's entry setting its own) is no longer the file's.
  std::map<std::string, std::string> from_defaults;
};

struct CameraOptions {
  std::optional<glm::vec3> eye, target, up;    // world units; default: frame the model
  std::optional<glm::vec3> view_dir;           // from the target towards the eye; distance framed
  std::optional<float> fov_y_deg;              // vertical field of view, degrees
  std::optional<float> focal_px;               // focal length in pixels (sets fov_y for the height)
  std::optional<float> near_plane, far_plane;  // world units; default: fit the bounding sphere
  std::optional<float> ortho_height;           // orthographic, this view height (world units), or
                                               //   kOrthoFit; unset: perspective
  CameraValueNames names;                      // for messages
};
// --ortho fit: the view height that shows the target's plane as the perspective would
// (Camera::height_at_target), so the model keeps its framed size.
constexpr float kOrthoFit = 0.0f;
// "fit" -> kOrthoFit, a positive finite number -> itself; throws std::invalid_argument otherwise
// (what --ortho and a cameras file's "ortho_height" accept).
float parse_ortho_height(const std::string& s);

// The camera options by their long names without dashes ("fov-y", "eye", "near", ...), each
// checked alone through engine/render/camera_values.h: sets the value from its text as the
// command line writes it, or throws std::invalid_argument with the problem (no name in front).
// False: `key` is not a camera option.
bool set_camera_value(CameraOptions& o, const std::string& key, const std::string& text);

// The name of the value of `key` (set_camera_value's keys) in `n`.
std::string& camera_value_name(CameraValueNames& n, const std::string& key);
const std::string& camera_value_name(const CameraValueNames& n, const std::string& key);
// Whether the value of `key` is set, and whether a defaults file set it.
bool camera_value_set(const CameraOptions& o, const std::string& key);
bool from_defaults_file(const CameraOptions& o, const std::string& key);
// Unsets the value of `key`, its name its option's again.
void drop_camera_value(CameraOptions& o, const std::string& key);

// While one lives, a camera value that its option (add_camera_options) takes is a defaults
// file's, named `name` in every later message: a check that needs the frame or the model then
// blames the file's line rather than an option the user did not type. One a thread at a time.
class CameraValueSource {
 public:
  explicit CameraValueSource(std::string name);
  ~CameraValueSource();
  CameraValueSource(const CameraValueSource&) = delete;
  CameraValueSource& operator=(const CameraValueSource&) = delete;
  // The name of the one living on this thread, or "" (the option's own name then).
  static const std::string& current();

 private:
  std::string m_name;
};

// make_camera's refusal: the message, naming the values at fault by CameraOptions::names, and
// their keys (as set_camera_value names them); none where the model alone is at fault.
struct CameraError : std::invalid_argument {
  CameraError(const std::string& message, std::vector<std::string> keys)
      : std::invalid_argument(message), keys(std::move(keys)) {}
  std::vector<std::string> keys;
};

// Values that are each fine but not together, found before the model is known: the near plane
// not in front of the eye in perspective or not before the far plane, the eye on the target, an
// up vector along the view. `keys`: the options involved, as set_camera_value names them.
struct CameraConflict {
  std::string message;  // names the values by CameraOptions::names
  std::vector<std::string> keys;
};
std::optional<CameraConflict> camera_conflict(const CameraOptions& o);

struct RenderOptionArgs {
  std::string shading = name_of(RenderOptions{}.shading);  // kShadingNames
  std::string filter = name_of(RenderOptions{}.filter);    // kFilterNames
  bool cull_backfaces = false;
  bool two_sided = false;
  bool wireframe = false;
  std::string background;  // "R,G,B" 0-255; empty = default
  int aa = 4;              // anti-aliasing samples a pixel: 1, 4 or 8
};

void add_camera_options(CLI::App* cmd, CameraOptions& o);
void add_render_options(CLI::App* cmd, RenderOptionArgs& o);
// --backend, a name of kBackendNames (parse_backend), for `facet render` and `facet view`.
void add_backend_option(CLI::App* cmd, std::string& backend);
// --aa N (1, 4 or 8; anything else a usage error); `default_aa` is what the help text names.
void add_aa_option(CLI::App* cmd, int& aa, int default_aa);
// The camera for a frame of width x height; throws CameraError on an unusable camera.
Camera make_camera(const CameraOptions& o, const Bounds& bounds, int width, int height);
RenderOptions make_render_options(const RenderOptionArgs& o);
// A name of kBackendNames (the --backend option) -> Backend; throws std::invalid_argument
// naming the names otherwise.
Backend parse_backend(const std::string& s);
// "WxH" -> width, height; throws std::invalid_argument naming the problem.
void parse_size(const std::string& s, int& width, int& height);
// CLI11 checks that run while the command line (or the defaults file) is parsed, so that a bad
// value is refused where it was given: parse_size's, and a finite number (--orbit).
CLI::Validator size_check();
CLI::Validator finite_check();

}  // namespace facet
