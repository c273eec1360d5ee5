// The one check of every camera value, whoever gives it: the command line, the defaults file, a
// cameras file, the viewer's fields and Python all ask these functions. Each returns "" or the
// problem in words without saying where the value came from ("must be 0.01 to 179 degrees, got
// nan"); the caller puts the source in front (--fov-y, cams.json: camera 2: "fov_y", fov_y=).
// Values come in as double, so that a number beyond single precision (1e39) is named as such
// rather than taken for the infinity it would become. It parses no option and no file.
#pragma once
#include <glm/glm.hpp>
#include <optional>
#include <string>

#include "engine/render/camera.h"

namespace facet {

// The vertical field of view a perspective camera may have, degrees: below 0.01 the projection's
// scale overflows single precision at ordinary depths; at 180 and beyond there is no projection.
constexpr double kMinFovYDeg = 0.01;
constexpr double kMaxFovYDeg = 179.0;

// A number as a user writes it, for messages: "%.9g", "nan", "inf", "-inf".
std::string number_text(double v);
// "X,Y,Z" as number_text writes each.
std::string vector_text(const glm::dvec3& v);
// The whole of `text` as a number (strtod: decimal, exponent, "nan", "inf"); nullopt when it is
// not one, or has anything before or after it.
std::optional<double> parse_number(const std::string& text);

// Each value alone.
std::string fov_y_problem(double degrees);           // kMinFovYDeg..kMaxFovYDeg
std::string focal_px_problem(double f_px);           // finite, > 0
std::string ortho_height_problem(double h);          // finite, > 0 (world units)
std::string near_problem(double near_plane);         // finite (> 0 in perspective: near_far_problem)
std::string far_problem(double far_plane);           // finite, > 0
std::string point_problem(const glm::dvec3& p);      // eye, target: every coordinate finite
std::string direction_problem(const glm::dvec3& d);  // up, view direction: finite and not zero

// Values that are each fine but not together.
// The field of view a focal length gives for a frame `height` pixels tall, in range.
std::string focal_fov_problem(double f_px, int height);
// Perspective: near > 0; either projection: far beyond near.
std::string near_far_problem(double near_plane, double far_plane, bool orthographic);
// eye and target distinct.
std::string look_problem(const glm::vec3& eye, const glm::vec3& target);
// up neither zero ("is the zero vector, ...") nor along the view from eye to target ("X,Y,Z is
// parallel to the viewing direction (...)"); "" where eye and target are one point.
std::string up_problem(const glm::vec3& up, const glm::vec3& eye, const glm::vec3& target);

// The whole engine camera (what a renderer is given), every value and pair above; "" or the
// first problem, naming the field ("fov_y: ...", "near_plane: ...").
std::string camera_problem(const Camera& camera);

}  // namespace facet
