// `facet view [MODEL]` (and plain `facet [MODEL]`): parses the viewer's options and runs it
// (app/viewer/). Without a model it opens the bundled Spot (app/viewer/default_model.cpp).
#include <cstdio>
#include <memory>

#include "app/camera_options.h"
#include "app/command.h"
#include "app/exit_codes.h"
#include "app/viewer/viewer_options.h"
#include "engine/scene_cache.h"

namespace facet {

namespace {

struct ViewArgs {
  ViewerOptions viewer;
  std::string size = "1280x800";
  std::string backend = "auto";
  bool no_overlay = false;
  bool no_vsync = false;
};

int run_view(ViewArgs& a) {
  try {
    as_usage([&] { parse_size(a.size, a.viewer.width, a.viewer.height); });
    as_usage([&] { return make_settings(a.viewer.shading); });  // the viewer builds them again
  } catch (const std::exception& e) {
    return report_error("view", e);
  }
  if (a.viewer.model.empty()) {
    a.viewer.model = default_model_path();
    // Spot looks along +X: open the bundled cow facing the user (the generic framing would show
    // its back), unless the user chose a view.
    if (!a.viewer.camera.eye && !a.viewer.camera.view_dir) a.viewer.camera.view_dir = glm::vec3(1.0f, 0.5f, -0.6f);
  }
  a.viewer.backend = parse_backend(a.backend);  // CLI11 already checked the value
  a.viewer.overlay = !a.no_overlay;
  a.viewer.vsync = !a.no_vsync && a.viewer.frames == 0;  // scripted runs go as fast as they can
  return run_viewer(a.viewer);
}

}  // namespace

Command add_view_command(CLI::App& app) {
  auto a = std::make_shared<ViewArgs>();
  CLI::App* cmd = app.add_subcommand("view", "Open a model in a window (the default command)");
  cmd->add_option("model", a->viewer.model, "Model file to open: OBJ, PLY or STL (default: the bundled Spot cow)");
  cmd->add_option("--size", a->size, "Window size WxH in pixels (default 1280x800)");
  cmd->add_option("--frames", a->viewer.frames, "Exit after N frames (scripted runs, tests)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--screenshot", a->viewer.screenshot,
                  "Save the last frame, overlay included when shown, to this PNG");
  cmd->add_option("--orbit", a->viewer.orbit_deg_per_frame,
                  "Turn the camera around the target by this many degrees every frame");
  cmd->add_option("--reload-every", a->viewer.reload_every,
                  "Reload the model every N frames (long-run memory checks)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--offscreen", a->viewer.offscreen,
                "No window: the same frame loop in an EGL context (no X server needed)");
  cmd->add_flag("--no-overlay", a->no_overlay, "Hide the ImGui panels and statistics (H toggles)");
  cmd->add_flag("--no-vsync", a->no_vsync, "Do not wait for the display's refresh");
  cmd->add_flag("!--no-cache", a->viewer.cache, kSceneCacheHelp);
  cmd->add_option("--backend", a->backend, "auto (CUDA when a device exists) | cpu | cuda")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  add_camera_options(cmd, a->viewer.camera);
  add_shading_options(cmd, a->viewer.shading);
  return {cmd, [a] { return run_view(*a); }};
}

}  // namespace facet
