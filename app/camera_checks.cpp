// The camera options' values (camera_options.h): each one's text checked alone as it is given,
// the pairs that conflict found before the model is read, and the camera made once it is. Every
// check is engine/render/camera_values.h's; this file only says which value it was.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

#include "app/camera_options.h"
#include "engine/formats/format_messages.h"
#include "engine/render/camera_values.h"

namespace facet {

namespace {

// `text` as a number; throws "expects WHAT, got 'TEXT'" when it is not one.
double number_of(const std::string& text, const char* what) {
  const std::optional<double> v = parse_number(text);
  if (!v) throw std::invalid_argument(std::string("expects ") + what + ", got " + facet::quoted(text));
  return *v;
}

// "X,Y,Z" as three numbers; throws when it is not that.
glm::dvec3 vector_of(const std::string& text) {
  glm::dvec3 v;
  size_t from = 0;
  for (int i = 0; i < 3; ++i) {
    const size_t comma = i < 2 ? text.find(',', from) : text.size();
    const std::optional<double> x =
        comma == std::string::npos ? std::nullopt : parse_number(text.substr(from, comma - from));
    if (!x || (i == 2 && text.find(',', from) != std::string::npos))
      throw std::invalid_argument("expects three numbers X,Y,Z, got " + facet::quoted(text));
    v[i] = *x;
    from = comma + 1;
  }
  return v;
}

// Throws the problem when there is one.
void refuse(const std::string& problem) {
  if (!problem.empty()) throw std::invalid_argument(problem);
}

// "NAME VALUE": a value named as the user gave it.
std::string given(const std::string& name, const std::string& value) { return name + " " + value; }

}  // namespace

bool set_camera_value(CameraOptions& o, const std::string& key, const std::string& text) {
  if (key == "eye" || key == "target" || key == "up" || key == "view-dir") {
    const glm::dvec3 v = vector_of(text);
    refuse(key == "eye" || key == "target" ? point_problem(v) : direction_problem(v));
    (key == "eye" ? o.eye : key == "target" ? o.target : key == "up" ? o.up : o.view_dir) = glm::vec3(v);
  } else if (key == "fov-y") {
    const double v = number_of(text, "a number of degrees");
    refuse(fov_y_problem(v));
    o.fov_y_deg = (float)v;
  } else if (key == "focal-px") {
    const double v = number_of(text, "a number of pixels");
    refuse(focal_px_problem(v));
    o.focal_px = (float)v;
  } else if (key == "ortho") {
    o.ortho_height = parse_ortho_height(text);
  } else if (key == "near" || key == "far") {
    const double v = number_of(text, "a distance");
    refuse(key == "near" ? near_problem(v) : far_problem(v));
    (key == "near" ? o.near_plane : o.far_plane) = (float)v;
  } else {
    return false;
  }
  return true;
}

std::string& camera_value_name(CameraValueNames& n, const std::string& key) {
  return const_cast<std::string&>(camera_value_name(static_cast<const CameraValueNames&>(n), key));
}

const std::string& camera_value_name(const CameraValueNames& n, const std::string& key) {
  if (key == "eye") return n.eye;
  if (key == "target") return n.target;
  if (key == "up") return n.up;
  if (key == "view-dir") return n.view_dir;
  if (key == "fov-y") return n.fov_y;
  if (key == "focal-px") return n.focal_px;
  if (key == "ortho") return n.ortho;
  if (key == "near") return n.near_plane;
  if (key == "far") return n.far_plane;
  throw std::logic_error("not a camera value: " + key);
}

bool camera_value_set(const CameraOptions& o, const std::string& key) {
  if (key == "eye") return o.eye.has_value();
  if (key == "target") return o.target.has_value();
  if (key == "up") return o.up.has_value();
  if (key == "view-dir") return o.view_dir.has_value();
  if (key == "fov-y") return o.fov_y_deg.has_value();
  if (key == "focal-px") return o.focal_px.has_value();
  if (key == "ortho") return o.ortho_height.has_value();
  return key == "near" ? o.near_plane.has_value() : key == "far" && o.far_plane.has_value();
}

bool from_defaults_file(const CameraOptions& o, const std::string& key) {
  const auto it = o.names.from_defaults.find(key);
  return camera_value_set(o, key) && it != o.names.from_defaults.end() && it->second == camera_value_name(o.names, key);
}

void drop_camera_value(CameraOptions& o, const std::string& key) {
  if (key == "eye") o.eye.reset();
  if (key == "target") o.target.reset();
  if (key == "up") o.up.reset();
  if (key == "view-dir") o.view_dir.reset();
  if (key == "fov-y") o.fov_y_deg.reset();
  if (key == "focal-px") o.focal_px.reset();
  if (key == "ortho") o.ortho_height.reset();
  if (key == "near") o.near_plane.reset();
  if (key == "far") o.far_plane.reset();
  camera_value_name(o.names, key) = "--" + key;
  o.names.from_defaults.erase(key);
}

float parse_ortho_height(const std::string& s) {
  if (s == "fit") return kOrthoFit;
  const std::optional<double> h = parse_number(s);
  if (!h)
    throw std::invalid_argument("expects a positive view height in world units or 'fit', got " + facet::quoted(s));
  refuse(ortho_height_problem(*h));
  return (float)*h;
}

std::optional<CameraConflict> camera_conflict(const CameraOptions& o) {
  const CameraValueNames& n = o.names;
  if (o.near_plane && o.far_plane) {
    const std::string p = near_far_problem(*o.near_plane, *o.far_plane, o.ortho_height.has_value());
    if (!p.empty()) return CameraConflict{n.near_plane + " and " + n.far_plane + ": " + p, {"near", "far"}};
  } else if (o.near_plane && !o.ortho_height && !(*o.near_plane > 0.0f)) {
    return CameraConflict{given(n.near_plane, number_text(*o.near_plane)) +
                              ": must be positive in perspective (only an orthographic camera's near plane may lie "
                              "behind the eye)",
                          {"near"}};
  }
  if (o.eye && o.target) {
    if (std::string p = look_problem(*o.eye, *o.target); !p.empty())
      return CameraConflict{n.eye + " and " + n.target + ": " + p, {"eye", "target"}};
    if (o.up) {
      if (std::string p = up_problem(*o.up, *o.eye, *o.target); !p.empty())
        return CameraConflict{n.up + ": " + p + " from " + n.eye + " to " + n.target, {"up", "eye", "target"}};
    }
  }
  return std::nullopt;
}

namespace {

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

bool all_finite(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

// Those of `keys` whose values are set: the ones a refusal can blame.
std::vector<std::string> set_keys(const CameraOptions& o, std::initializer_list<const char*> keys) {
  std::vector<std::string> set;
  for (const char* key : keys)
    if (camera_value_set(o, key)) set.push_back(key);
  return set;
}

// The clip planes: fitted to the model where not given, then checked together. A plane that was
// fitted is said to be, so that a given one is not blamed for the model's extent alone.
void set_clip_planes(Camera& cam, const CameraOptions& o, const Bounds& bounds) {
  const CameraValueNames& n = o.names;
  cam.fit_clip_planes(bounds);
  if (!std::isfinite(cam.far_plane)) throw CameraError(framing_problem(bounds, o), {});
  if (o.near_plane) cam.near_plane = *o.near_plane;
  if (o.far_plane) cam.far_plane = *o.far_plane;
  if (near_far_problem(cam.near_plane, cam.far_plane, cam.orthographic()).empty()) return;
  const std::string near_text = o.near_plane ? given(n.near_plane, number_text(cam.near_plane))
                                             : number_text(cam.near_plane) + ", fitted to the model";
  const std::string far_text = o.far_plane ? given(n.far_plane, number_text(cam.far_plane))
                                           : number_text(cam.far_plane) + ", fitted to the model";
  if (!cam.orthographic() && !(cam.near_plane > 0.0f))
    throw CameraError("the near plane (" + near_text + ") must be in front of the eye in perspective",
                      set_keys(o, {"near"}));
  throw CameraError("the far plane (" + far_text + ") must be beyond the near plane (" + near_text + ")",
                    set_keys(o, {"near", "far"}));
}

// The eye and target: given, framed, or the target given and the framed distance kept.
void place_eye(Camera& cam, const CameraOptions& o, const Bounds& bounds, float aspect) {
  if (o.target) cam.target = *o.target;
  if (o.eye) cam.eye = *o.eye;
  if (o.up) cam.up = *o.up;
  if (o.eye || (!o.target && !o.view_dir)) return;
  // A target or a direction but no eye: keep the framed distance.
  Camera framed = Camera::framing(bounds, aspect, cam.fov_y);
  glm::vec3 offset = framed.eye - framed.target;
  if (o.view_dir) {
    if (std::string p = direction_problem(*o.view_dir); !p.empty())
      throw CameraError(o.names.view_dir + ": " + p, {"view-dir"});
    offset = glm::normalize(*o.view_dir /
                            std::max({std::fabs(o.view_dir->x), std::fabs(o.view_dir->y), std::fabs(o.view_dir->z)})) *
             glm::length(offset);
  }
  cam.eye = cam.target + offset;
}

}  // namespace

Camera make_camera(const CameraOptions& o, const Bounds& bounds, int width, int height) {
  const CameraValueNames& n = o.names;
  if (std::optional<CameraConflict> c = camera_conflict(o)) throw CameraError(c->message, c->keys);
  float aspect = (float)width / (float)height;
  float fov = glm::radians(o.fov_y_deg.value_or(45.0f));
  Camera cam = Camera::framing(bounds, aspect, fov);
  if (o.focal_px) {
    if (std::string p = focal_fov_problem(*o.focal_px, height); !p.empty())
      throw CameraError(given(n.focal_px, number_text(*o.focal_px)) + ": " + p, {"focal-px"});
    cam.set_focal_px(*o.focal_px, height);
  }
  place_eye(cam, o, bounds, aspect);
  // Without an eye, a target far out can carry the framed eye out of range: the target's fault.
  if (!all_finite(cam.eye) || !all_finite(cam.target))
    throw CameraError(framing_problem(bounds, o), o.eye ? std::vector<std::string>{} : set_keys(o, {"target"}));
  if (std::string p = look_problem(cam.eye, cam.target); !p.empty())
    throw CameraError(
        (o.eye ? n.eye : "the framed eye") + " and " + (o.target ? n.target : "the model's centre") + ": " + p,
        set_keys(o, {"eye", "target"}));
  if (std::string p = up_problem(cam.up, cam.eye, cam.target); !p.empty())
    throw CameraError((o.up ? n.up + ": " : "") + p, set_keys(o, {"up", "eye", "target"}));
  if (o.ortho_height) {
    cam.ortho_height = *o.ortho_height == kOrthoFit ? cam.height_at_target() : *o.ortho_height;
    cam.projection_mode = Projection::Orthographic;
    if (std::string p = ortho_height_problem(cam.ortho_height); !p.empty())
      throw CameraError(n.ortho + ": the view height " + p, {"ortho"});
  }
  set_clip_planes(cam, o, bounds);
  return cam;
}

}  // namespace facet
