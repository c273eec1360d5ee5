// Screenshot file names from a template (--screenshot-template): strftime codes for the date and
// time, and in a scripted run (--frames N) `%d` or `%0Nd` for the frame number, so that an orbit
// keeps every frame. Pure string work, no GL (screenshot.h writes the files).
#pragma once
#include <ctime>
#include <functional>
#include <string>

namespace facet {

constexpr const char* kDefaultScreenshotTemplate = "facet-%Y%m%d-%H%M%S.png";

// True when the template holds a frame number (`%d` or `%0Nd`, N a digit or two).
bool template_numbers_frames(const std::string& tmpl);
// frame >= 0: `%d` / `%0Nd` become the frame number, the other codes strftime's. frame < 0: all
// of it is strftime's (`%d` is the day of the month). `time` is the local time to use.
std::string expand_screenshot_template(const std::string& tmpl, const std::tm& time, long frame);
// `path` when nothing exists there, else the first of "stem-1.ext", "stem-2.ext", ... that is free.
std::string unused_path(const std::string& path, const std::function<bool(const std::string&)>& exists);

}  // namespace facet
