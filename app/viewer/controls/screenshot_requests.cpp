// Screenshot requests (screenshot_requests.h).
#include "app/viewer/controls/screenshot_requests.h"

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <optional>

#include "app/viewer/controls/screenshot_name.h"
#include "app/viewer/viewer_session.h"
#include "app/viewer/window/screenshot.h"
#include "engine/render/output_files.h"

namespace facet {

namespace {

const std::string& template_of(const ViewerState& s) {
  static const std::string fallback = kDefaultScreenshotTemplate;
  return s.options.screenshot_template.empty() ? fallback : s.options.screenshot_template;
}

std::tm local_now() {
  std::time_t t = std::time(nullptr);
  std::tm local{};
  localtime_r(&t, &local);
  return local;
}

// F12's name: the template at this second, never over an existing file.
std::string next_screenshot_path(const ViewerState& s) {
  std::string name = expand_screenshot_template(template_of(s), local_now(), -1);
  return unused_path(name, [](const std::string& p) {
    std::error_code ec;
    return std::filesystem::exists(p, ec);
  });
}

// Saves the screenshot unless `path` is a file the model's load read. `scripted`: a screenshot the
// command line asked for, whose failure ends the run with exit 1 (viewer.cpp: a scripted run with a
// render error fails); F12's failure is only reported.
void save(ViewerState& s, const std::string& path, int width, int height, bool announce, bool scripted) {
  bool saved = false;
  try {
    if (const std::shared_ptr<const Scene> scene = s.loader.current())
      if (const std::optional<OutputOverInput> clash =
              find_output_over_input({{"the screenshot", path}}, scene_inputs(*scene, scene->source, "shown")))
        throw std::runtime_error(clash->message());
    save_framebuffer_png(path, width, height);
    s.message = "saved " + path;
    saved = true;
  } catch (const std::exception& e) {
    s.message = e.what();
  }
  if (announce) show_notice(s, s.message);
  std::fprintf(saved ? stdout : stderr, "facet view: %s\n", s.message.c_str());
  if (!saved && scripted) {
    s.render_error = s.message;
    s.quit_requested = true;
  }
}

}  // namespace

void take_screenshots(ViewerState& s, int width, int height, ScreenshotPoint at, bool last_frame) {
  if (at == ScreenshotPoint::FrameOnly) {
    if (s.screenshot_requested) save(s, next_screenshot_path(s), width, height, true, false);
    s.screenshot_requested = false;
    return;
  }
  if (s.screenshot_with_overlay) save(s, next_screenshot_path(s), width, height, true, false);
  s.screenshot_with_overlay = false;
  const std::string& tmpl = s.options.screenshot_template;
  if (s.options.frames > 0 && !tmpl.empty() && template_numbers_frames(tmpl))
    save(s, expand_screenshot_template(tmpl, local_now(), s.frame_index), width, height, false, true);
  if (last_frame && !s.options.screenshot.empty()) save(s, s.options.screenshot, width, height, false, true);
}

}  // namespace facet
