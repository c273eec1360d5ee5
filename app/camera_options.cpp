// The camera and shading options shared by `facet render` and `facet view`, as CLI11 options whose
// values are checked as they are parsed (so a defaults file's are too); the camera values' own
// checks and make_camera are in camera_checks.cpp.
#include "app/camera_options.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

#include "engine/formats/format_messages.h"
#include "engine/render/camera_values.h"
#include "engine/render/option_names.h"
#include "kernels/frame/raster/samples.h"

namespace facet {

namespace {

// The CameraValueSource living on this thread, if any.
thread_local const std::string* t_camera_value_source = nullptr;

// An option whose text set_camera_value checks; its refusal names the option. The value is then
// named by its option, or by the defaults file's line that gave it (CameraValueSource).
CLI::Option* add_camera_value(CLI::App* cmd, CameraOptions& o, const char* flag, const char* type, const char* help) {
  const std::string key = std::string(flag).substr(2);
  return cmd
      ->add_option_function<std::string>(
          flag,
          [&o, key, flag](const std::string& s) {
            try {
              set_camera_value(o, key, s);
            } catch (const std::invalid_argument& e) {
              throw CLI::ValidationError(flag, e.what());
            }
            const std::string& source = CameraValueSource::current();
            camera_value_name(o.names, key) = source.empty() ? flag : source;
            if (source.empty())
              o.names.from_defaults.erase(key);
            else
              o.names.from_defaults[key] = source;
          },
          help)
      ->type_name(type);
}

}  // namespace

CameraValueSource::CameraValueSource(std::string name) : m_name(std::move(name)) { t_camera_value_source = &m_name; }

CameraValueSource::~CameraValueSource() { t_camera_value_source = nullptr; }

const std::string& CameraValueSource::current() {
  static const std::string none;
  return t_camera_value_source ? *t_camera_value_source : none;
}

void add_camera_options(CLI::App* cmd, CameraOptions& o) {
  add_camera_value(cmd, o, "--eye", "X,Y,Z", "Camera position (default: frame the model's bounding sphere)");
  add_camera_value(cmd, o, "--target", "X,Y,Z", "Point the camera looks at (default: the model's centre)");
  add_camera_value(cmd, o, "--up", "X,Y,Z", "Up direction (default 0,1,0)");
  add_camera_value(cmd, o, "--view-dir", "X,Y,Z",
                   "Direction from the target towards the eye, the distance framed to fit "
                   "the model (default 0.8,0.45,1; ignored with --eye)");
  auto* fov =
      add_camera_value(cmd, o, "--fov-y", "DEGREES", "Vertical field of view in degrees, 0.01 to 179 (default 45)");
  add_camera_value(cmd, o, "--focal-px", "PIXELS",
                   "Focal length in pixels: f_px = (height/2) / tan(fov_y/2); sets the field of view")
      ->excludes(fov);
  add_camera_value(cmd, o, "--ortho", "HEIGHT|fit",
                   "Orthographic projection whose frame height spans HEIGHT world units; 'fit': the height "
                   "that keeps the model the size the perspective view shows it (default: perspective)");
  add_camera_value(cmd, o, "--near", "DISTANCE",
                   "Near clip distance (default: fit the model); positive, except orthographic, where "
                   "the near plane may lie behind the eye");
  add_camera_value(cmd, o, "--far", "DISTANCE", "Far clip distance, beyond the near one (default: fit the model)");
}

namespace {

// "expects WxH ..." or "" with width and height set.
std::string size_problem(const std::string& s, int& width, int& height) {
  std::istringstream in(s);
  char x = 0;
  long w = 0, h = 0;
  if (!(in >> w >> x >> h) || (x != 'x' && x != 'X') || !(in >> std::ws).eof() || w < 1 || h < 1 || w > kMaxFrameSide ||
      h > kMaxFrameSide)
    return "expects WxH with each side 1.." + std::to_string(kMaxFrameSide) + ", got " + facet::quoted(s);
  width = (int)w;
  height = (int)h;
  return "";
}

// "expects R,G,B ..." or "" with `colour` set (alpha 255).
std::string background_problem(const std::string& s, Rgba8& colour) {
  std::istringstream in(s);
  int r, g, b;
  char c1 = 0, c2 = 0;
  if (!(in >> r >> c1 >> g >> c2 >> b) || c1 != ',' || c2 != ',' || !(in >> std::ws).eof() || r < 0 || r > 255 ||
      g < 0 || g > 255 || b < 0 || b > 255)
    return "expects R,G,B with each 0-255, got " + facet::quoted(s);
  colour = {(uint8_t)r, (uint8_t)g, (uint8_t)b, 255};
  return "";
}

}  // namespace

void add_render_options(CLI::App* cmd, RenderOptionArgs& o) {
  const RenderOptions defaults;
  cmd->add_option("--shading", o.shading,
                  name_list(kShadingNames, " | ") + " (default " + name_of(defaults.shading) + ")")
      ->check(CLI::IsMember(option_names(kShadingNames)));
  cmd->add_option("--filter", o.filter, "Texture filter: " + name_list(kFilterNames, " | ", defaults.filter, "default"))
      ->check(CLI::IsMember(option_names(kFilterNames)));
  auto* cull = cmd->add_flag("--cull-backfaces", o.cull_backfaces, "Drop triangles facing away from the camera");
  cmd->add_flag("--two-sided", o.two_sided,
                "Draw back faces even of a closed model seen from outside, where they cannot show "
                "(by default such a model skips them)")
      ->excludes(cull);
  cmd->add_flag("--wireframe", o.wireframe, "Overlay triangle edges");
  cmd->add_option("--background", o.background, "Background colour R,G,B, each 0-255")
      ->type_name("R,G,B")
      ->check(CLI::Validator(
          [](std::string& s) {
            Rgba8 colour;
            return background_problem(s, colour);
          },
          ""));
  add_aa_option(cmd, o.aa, 4);
}

void add_backend_option(CLI::App* cmd, std::string& backend) {
  cmd->add_option("--backend", backend, name_list(kBackendNames, " | ", Backend::Auto, "CUDA when a device exists"))
      ->check(CLI::IsMember(option_names(kBackendNames)));
}

void add_aa_option(CLI::App* cmd, int& aa, int default_aa) {
  cmd->add_option("--aa", aa,
                  "Anti-aliasing: samples a pixel, 1 (none), 4 or 8 (default " + std::to_string(default_aa) + ")")
      ->check(CLI::IsMember({1, 4, 8}))
      ->type_name("N");
}

RenderOptions make_render_options(const RenderOptionArgs& o) {
  RenderOptions s;
  const std::optional<Shading> shading = parse_option(kShadingNames, o.shading);
  if (!shading) throw std::invalid_argument("unknown shading " + facet::quoted(o.shading));
  s.shading = *shading;
  const std::optional<Filter> filter = parse_option(kFilterNames, o.filter);
  if (!filter) throw std::invalid_argument("unknown filter " + facet::quoted(o.filter));
  s.filter = *filter;
  s.cull_backfaces = o.cull_backfaces;
  s.two_sided = o.two_sided;
  s.wireframe = o.wireframe;
  if (!valid_sample_count(o.aa)) throw std::invalid_argument("--aa expects 1, 4 or 8, got " + std::to_string(o.aa));
  s.samples = (uint8_t)o.aa;
  if (!o.background.empty()) {
    const std::string why = background_problem(o.background, s.background);
    if (!why.empty()) throw std::invalid_argument("--background " + why);
  }
  return s;
}

Backend parse_backend(const std::string& s) {
  if (const std::optional<Backend> b = parse_option(kBackendNames, s)) return *b;
  throw std::invalid_argument("--backend expects " + name_list(kBackendNames, ", ", " or ") + ", got " +
                              facet::quoted(s));
}

void parse_size(const std::string& s, int& width, int& height) {
  const std::string why = size_problem(s, width, height);
  if (!why.empty()) throw std::invalid_argument("--size " + why);
}

CLI::Validator size_check() {
  return CLI::Validator(
      [](std::string& s) {
        int w = 0, h = 0;
        return size_problem(s, w, h);
      },
      "WxH");
}

CLI::Validator finite_check() {
  return CLI::Validator(
      [](std::string& s) {
        const std::optional<double> v = parse_number(s);
        if (!v) return "expects a number, got " + facet::quoted(s);
        return std::isfinite(*v) ? std::string() : "must be finite, got " + number_text(*v);
      },
      "NUMBER");
}

}  // namespace facet
