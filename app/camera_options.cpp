// Parsing of the camera and shading options shared by `facet render` and `facet view`.
#include "app/camera_options.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

#include "engine/render/option_names.h"
#include "kernels/frame/raster/samples.h"

namespace facet {

namespace {

glm::vec3 parse_vec3(const std::string& s, const char* what) {
  std::istringstream in(s);
  glm::vec3 v;
  char c1 = 0, c2 = 0;
  if (!(in >> v.x >> c1 >> v.y >> c2 >> v.z) || c1 != ',' || c2 != ',' || !(in >> std::ws).eof() ||
      !std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z))
    throw CLI::ValidationError(what, "expected three finite numbers X,Y,Z, got '" + s + "'");
  return v;
}

void add_vec3(CLI::App* cmd, const char* flag, const char* help, std::optional<glm::vec3>& out) {
  cmd->add_option_function<std::string>(
         flag, [&out, flag](const std::string& s) { out = parse_vec3(s, flag); }, help)
      ->type_name("X,Y,Z");
}

}  // namespace

void add_camera_options(CLI::App* cmd, CameraOptions& o) {
  add_vec3(cmd, "--eye", "Camera position (default: frame the model's bounding sphere)", o.eye);
  add_vec3(cmd, "--target", "Point the camera looks at (default: the model's centre)", o.target);
  add_vec3(cmd, "--up", "Up direction (default 0,1,0)", o.up);
  add_vec3(cmd, "--view-dir",
           "Direction from the target towards the eye, the distance framed to fit "
           "the model (default 0.8,0.45,1; ignored with --eye)",
           o.view_dir);
  auto* fov = cmd->add_option("--fov-y", o.fov_y_deg, "Vertical field of view in degrees (default 45)")
                  ->check(CLI::Range(0.01f, 179.0f));
  cmd->add_option("--focal-px", o.focal_px,
                  "Focal length in pixels: f_px = (height/2) / tan(fov_y/2); sets the field of view")
      ->check(CLI::PositiveNumber)
      ->excludes(fov);
  cmd->add_option_function<std::string>(
         "--ortho",
         [&o](const std::string& s) {
           try {
             o.ortho_height = parse_ortho_height(s);
           } catch (const std::invalid_argument& e) {
             throw CLI::ValidationError("--ortho", e.what());
           }
         },
         "Orthographic projection whose frame height spans HEIGHT world units; 'fit': the height "
         "that keeps the model the size the perspective view shows it (default: perspective)")
      ->type_name("HEIGHT|fit");
  cmd->add_option("--near", o.near_plane,
                  "Near clip distance (default: fit the model); positive, except orthographic, where "
                  "the near plane may lie behind the eye");
  cmd->add_option("--far", o.far_plane, "Far clip distance (default: fit the model)")->check(CLI::PositiveNumber);
}

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
  cmd->add_option("--background", o.background, "Background colour R,G,B, each 0-255")->type_name("R,G,B");
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

namespace {

bool all_finite(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

// v / |v|, scaled first so that the length of a vector of huge coordinates does not overflow.
glm::vec3 unit(const glm::vec3& v) {
  const float m = std::max(std::max(std::fabs(v.x), std::fabs(v.y)), std::fabs(v.z));
  return m > 0.0f ? glm::normalize(v / m) : v;
}

// Why the camera came out of single precision's range: a model too large (or placed too far out)
// to be framed, rather than the option it happened to break.
std::string framing_problem(const Bounds& b, const CameraOptions& o) {
  char text[320];
  std::snprintf(text, sizeof text,
                "the model cannot be framed at this scale: its bounding sphere (radius %g, centre %g,%g,%g) "
                "puts the camera beyond the range of single-precision coordinates (%g)%s",
                (double)b.radius, (double)b.center.x, (double)b.center.y, (double)b.center.z,
                (double)std::numeric_limits<float>::max(),
                o.eye ? "" : "; give --eye and --target, or scale the model down");
  return text;
}

}  // namespace

Camera make_camera(const CameraOptions& o, const Bounds& bounds, int width, int height) {
  float aspect = (float)width / (float)height;
  float fov = glm::radians(o.fov_y_deg.value_or(45.0f));
  Camera cam = Camera::framing(bounds, aspect, fov);
  if (o.focal_px) cam.set_focal_px(*o.focal_px, height);
  if (o.target) cam.target = *o.target;
  if (o.eye) cam.eye = *o.eye;
  if (o.up) cam.up = *o.up;
  if (!o.eye && (o.target || o.view_dir)) {
    // A target or a direction but no eye: keep the framed distance.
    Camera framed = Camera::framing(bounds, aspect, cam.fov_y);
    glm::vec3 offset = framed.eye - framed.target;
    if (o.view_dir) {
      if (glm::length(*o.view_dir) <= 0.0f) throw std::invalid_argument("--view-dir is the zero vector");
      offset = glm::normalize(*o.view_dir) * glm::length(offset);
    }
    cam.eye = cam.target + offset;
  }
  if (!all_finite(cam.eye) || !all_finite(cam.target)) throw std::invalid_argument(framing_problem(bounds, o));
  glm::vec3 dir = cam.target - cam.eye;
  if (glm::length(dir) <= 0.0f) throw std::invalid_argument("--eye and --target are the same point");
  if (glm::length(glm::cross(unit(dir), unit(cam.up))) < 1e-6f)
    throw std::invalid_argument("--up is parallel to the viewing direction");
  if (o.ortho_height) {
    cam.ortho_height = *o.ortho_height == kOrthoFit ? cam.height_at_target() : *o.ortho_height;
    cam.projection_mode = Projection::Orthographic;
    if (!(cam.ortho_height > 0.0f) || !std::isfinite(cam.ortho_height))
      throw std::invalid_argument("--ortho: the view height " + std::to_string(cam.ortho_height) + " is unusable");
  }
  cam.fit_clip_planes(bounds);
  if (!std::isfinite(cam.far_plane)) throw std::invalid_argument(framing_problem(bounds, o));
  if (o.near_plane) cam.near_plane = *o.near_plane;
  if (o.far_plane) cam.far_plane = *o.far_plane;
  if (!std::isfinite(cam.near_plane) || (!cam.orthographic() && !(cam.near_plane > 0.0f)))
    throw std::invalid_argument("--near must be a finite number, and positive in perspective; got " +
                                std::to_string(cam.near_plane));
  if (!(cam.far_plane > cam.near_plane))
    throw std::invalid_argument("the far plane (" + std::to_string(cam.far_plane) +
                                ") must be beyond the near plane (" + std::to_string(cam.near_plane) + ")");
  return cam;
}

float parse_ortho_height(const std::string& s) {
  if (s == "fit") return kOrthoFit;
  std::istringstream in(s);
  float h = 0.0f;
  if (!(in >> h) || !(in >> std::ws).eof() || !(h > 0.0f) || !std::isfinite(h))
    throw std::invalid_argument("--ortho expects a positive view height in world units or 'fit', got '" + s + "'");
  return h;
}

RenderOptions make_render_options(const RenderOptionArgs& o) {
  RenderOptions s;
  const std::optional<Shading> shading = parse_option(kShadingNames, o.shading);
  if (!shading) throw std::invalid_argument("unknown shading '" + o.shading + "'");
  s.shading = *shading;
  const std::optional<Filter> filter = parse_option(kFilterNames, o.filter);
  if (!filter) throw std::invalid_argument("unknown filter '" + o.filter + "'");
  s.filter = *filter;
  s.cull_backfaces = o.cull_backfaces;
  s.two_sided = o.two_sided;
  s.wireframe = o.wireframe;
  if (!valid_sample_count(o.aa)) throw std::invalid_argument("--aa expects 1, 4 or 8, got " + std::to_string(o.aa));
  s.samples = (uint8_t)o.aa;
  if (!o.background.empty()) {
    std::istringstream in(o.background);
    int r, g, b;
    char c1 = 0, c2 = 0;
    if (!(in >> r >> c1 >> g >> c2 >> b) || c1 != ',' || c2 != ',' || !(in >> std::ws).eof() || r < 0 || r > 255 ||
        g < 0 || g > 255 || b < 0 || b > 255)
      throw std::invalid_argument("--background expects R,G,B with each 0-255, got '" + o.background + "'");
    s.background = {(uint8_t)r, (uint8_t)g, (uint8_t)b, 255};
  }
  return s;
}

Backend parse_backend(const std::string& s) {
  if (const std::optional<Backend> b = parse_option(kBackendNames, s)) return *b;
  throw std::invalid_argument("--backend expects " + name_list(kBackendNames, ", ", " or ") + ", got '" + s + "'");
}

void parse_size(const std::string& s, int& width, int& height) {
  std::istringstream in(s);
  char x = 0;
  long w = 0, h = 0;
  if (!(in >> w >> x >> h) || (x != 'x' && x != 'X') || !(in >> std::ws).eof() || w < 1 || h < 1 || w > kMaxFrameSide ||
      h > kMaxFrameSide)
    throw std::invalid_argument("--size expects WxH with each side 1.." + std::to_string(kMaxFrameSide) + ", got '" +
                                s + "'");
  width = (int)w;
  height = (int)h;
}

}  // namespace facet
