// `facet view [MODEL]` (and plain `facet [MODEL]`): parses the viewer's options and runs it
// (app/viewer/). Without a model it opens the bundled Spot (app/viewer/default_model.cpp).
#include <cstdio>
#include <memory>

#include "app/camera_options.h"
#include "app/command.h"
#include "app/exit_codes.h"
#include "app/viewer/viewer_config.h"
#include "app/viewer/viewer_options.h"
#include "engine/load/load_pipeline.h"

namespace facet {

namespace {

struct ViewArgs {
  ViewerOptions viewer;
  std::string size = "1280x800";
  std::string backend = name_of(Backend::Auto);
  bool no_overlay = false;
  bool no_vsync = false;
  int recent = 0;  // --recent N: open the N-th model of the Recent list
};

// The option names that set what the remembered Render/Camera settings would otherwise set.
const char* const kSettingOptions[] = {"--shading",    "--filter", "--cull-backfaces", "--two-sided", "--wireframe",
                                       "--background", "--fov-y",  "--focal-px",       "--grid",      "--ortho",
                                       "--aa"};

// --recent N: the N-th model of the Recent list (1 = the last one opened).
bool resolve_recent(ViewArgs& a) {
  ConfigRead read = read_viewer_config(viewer_config_directory());
  if (!read.error.empty()) std::fprintf(stderr, "facet view: %s\n", read.error.c_str());
  const auto& recent = read.config.recent;
  if (a.recent > (int)recent.size()) {
    std::fprintf(stderr, "facet view: --recent %d: the Recent list holds %zu model(s)\n", a.recent, recent.size());
    return false;
  }
  a.viewer.model = recent[(size_t)a.recent - 1];
  return true;
}

int run_view(ViewArgs& a, const CLI::App& cmd) {
  try {
    as_usage([&] { parse_size(a.size, a.viewer.width, a.viewer.height); });
    as_usage([&] { return make_render_options(a.viewer.shading); });  // the viewer builds them again
    // Camera values that conflict, refused before the window opens (the viewer frames the model
    // with them once it is loaded).
    if (std::optional<CameraConflict> c = camera_conflict(a.viewer.camera)) throw UsageError(c->message);
  } catch (const std::exception& e) {
    return report_error("view", e);
  }
  a.viewer.size_given = cmd.count("--size") > 0;
  bool settings_given = false;
  for (const char* name : kSettingOptions) settings_given |= cmd.count(name) > 0;
  a.viewer.restore_settings = a.viewer.frames == 0 && !settings_given;
  if (a.recent > 0) {
    if (!a.viewer.model.empty()) {
      std::fprintf(stderr, "facet view: give a model or --recent, not both\n");
      return 2;
    }
    if (!resolve_recent(a)) return 1;
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
  cmd->add_option("--size", a->size, "Window size WxH in pixels (default 1280x800)")->check(size_check());
  cmd->add_option("--frames", a->viewer.frames, "Exit after N frames (scripted runs, tests)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--screenshot", a->viewer.screenshot,
                  "Save the last frame, overlay included when shown, to this PNG");
  cmd->add_option("--orbit", a->viewer.orbit_deg_per_frame,
                  "Turn the camera around the target by this many degrees every frame")
      ->check(finite_check());
  cmd->add_option("--reload-every", a->viewer.reload_every, "Reload the model every N frames (long-run memory checks)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_flag("--offscreen", a->viewer.offscreen,
                "No window: the same frame loop in an EGL context (no X server needed)");
  cmd->add_flag("--no-overlay", a->no_overlay, "Hide the ImGui panels and statistics (H toggles)");
  cmd->add_flag("--no-vsync", a->no_vsync, "Do not wait for the display's refresh");
  cmd->add_flag("!--no-cache", a->viewer.cache, kSceneCacheHelp);
  cmd->add_flag("--read-outside-folder", a->viewer.read_outside_folder, kReadOutsideFolderHelp);
  cmd->add_flag("--grid", a->viewer.ground_grid, "Start with the ground grid on (G toggles)");
  cmd->add_option("--measure", a->viewer.measure,
                  "Start in measure mode with these two world points measured (X,Y,Z,X,Y,Z; M toggles)")
      ->delimiter(',')
      ->expected(6)
      ->check(finite_check())
      ->type_name("X,Y,Z,X,Y,Z");
  add_backend_option(cmd, a->backend);
  add_camera_options(cmd, a->viewer.camera);
  add_render_options(cmd, a->viewer.shading);
  cmd->add_option("--recent", a->recent, "Open the N-th model of the Recent list (1 = the last)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--screenshot-template", a->viewer.screenshot_template,
                  "F12 file names: strftime codes (default facet-%Y%m%d-%H%M%S.png); with --frames, "
                  "%d or %04d is the frame number and every frame is saved");
  return {cmd, [a, cmd] { return run_view(*a, *cmd); }};
}

}  // namespace facet
