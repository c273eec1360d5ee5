// The viewer's frame loop, in Dear ImGui's example order: host (window or EGL), ImGui context
// and backends, then per frame: poll, sleep while minimised, new frame, update, render, pick, UI,
// present, screenshots, swap; then shutdown in reverse. The steps live in viewer_frame.cpp and panels.h.
#include <glad/gl.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include <chrono>
#include <csignal>
#include <cstdio>

#include "app/viewer/controls/screenshot_requests.h"
#include "app/viewer/panels/panels.h"
#include "app/viewer/panels/tools_ui.h"
#include "app/viewer/run_report.h"
#include "app/viewer/viewer_frame.h"
#include "app/viewer/viewer_options.h"
#include "app/viewer/viewer_session.h"
#include "app/viewer/window/frame_presenter.h"
#include "app/viewer/window/host.h"

namespace facet {

namespace {

// Ctrl+C or a SIGTERM ends the loop like closing the window: the settings are still saved.
volatile std::sig_atomic_t g_interrupted = 0;
void on_interrupt(int) { g_interrupted = 1; }

void draw_ui(ViewerState& s, const FramePresenter& presenter) {
  draw_tools(s);
  if (!s.overlay) return;
  draw_tool_overlay(s);
  draw_stats_overlay(s, presenter);
  draw_camera_panel(s);
  draw_render_panel(s);
  draw_model_panel(s);
}

void render_frame(ViewerState& s, FramePresenter& presenter) {
  if (!s.loader.current()) return;  // nothing yet: the background shows while the model loads
  try {
    presenter.render(*s.renderer, s.controller.camera(), s.settings, s.render_width, s.render_height);
    s.render_error.clear();
  } catch (const std::exception& e) {
    // E.g. a frame too large for the device: say so and keep the last good frame on screen.
    if (s.render_error != e.what()) std::fprintf(stderr, "facet view: %s\n", e.what());
    s.render_error = e.what();
  }
}

int frame_loop(ViewerState& s, Host& host) {
  FramePresenter presenter(s.renderer->capabilities().device_frames);
  // With reloads, memory is measured from after the first reload has been installed and drawn.
  RunReport report(s.options.reload_every > 0 ? s.options.reload_every + 100 : 1);
  const bool scripted = s.options.frames > 0;
  s.loader.set_use_cache(s.options.cache);
  s.loader.set_read_outside_folder(s.options.read_outside_folder);
  s.loader.set_meshlet_grouping(s.renderer->meshlet_grouping());
  s.loader.request(s.options.model);
  if (scripted) s.loader.finish(*s.renderer);  // the model is there from the first frame
  host.set_vsync(s.vsync);
  bool vsync_applied = s.vsync;
  auto last_time = std::chrono::steady_clock::now();

  while (!host.should_close() && !s.quit_requested && !g_interrupted) {
    host.poll_events();
    if (host.minimized()) {  // nothing to show: sleep until something happens
      host.wait_events();
      continue;
    }
    ImGui_ImplOpenGL3_NewFrame();
    host.imgui_new_frame();
    ImGui::NewFrame();

    int fb_w = 0, fb_h = 0;
    host.framebuffer_size(&fb_w, &fb_h);
    update_render_size(s, fb_w, fb_h);
    update_model(s);
    update_camera(s);
    if (s.vsync != vsync_applied) host.set_vsync(vsync_applied = s.vsync);
    render_frame(s, presenter);
    update_hover(s);
    update_title(s, host);
    draw_ui(s, presenter);
    ImGui::Render();

    host.bind_framebuffer();
    glViewport(0, 0, fb_w, fb_h);
    const Rgba8 bg = s.settings.background;
    glClearColor(bg.r / 255.0f, bg.g / 255.0f, bg.b / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    if (s.loader.current()) presenter.present(fb_w, fb_h);
    const bool last_frame = scripted && s.frame_index + 1 >= s.options.frames;
    take_screenshots(s, fb_w, fb_h, ScreenshotPoint::FrameOnly, last_frame);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    take_screenshots(s, fb_w, fb_h, ScreenshotPoint::WithOverlay, last_frame);
    host.swap();

    auto now = std::chrono::steady_clock::now();
    float ms = std::chrono::duration<float, std::milli>(now - last_time).count();
    last_time = now;
    s.frame_times.push(ms);
    report.frame(ms);
    ++s.frame_index;
    if (last_frame) break;
  }
  if (scripted) {
    s.loader.finish(*s.renderer);
    std::printf("facet view: final camera: %s\n", camera_as_options(s.controller.camera()).c_str());
    std::printf("facet view: present path: %s\n", presenter.path().c_str());
    report.print(s.loader.models_installed());
    if (s.measurement.complete()) std::printf("facet view: measured distance %.6g\n", s.measurement.length());
    if (!s.loader.error().empty()) std::fprintf(stderr, "facet view: %s\n", s.loader.error().c_str());
    // A scripted run that never showed its model, or could not draw it, failed.
    if (!s.loader.current() || !s.render_error.empty()) return 1;
  }
  return 0;
}

}  // namespace

int run_viewer(const ViewerOptions& options) {
  ViewerState s;
  s.options = options;
  s.overlay = options.overlay;
  s.vsync = options.vsync && !options.offscreen;
  std::unique_ptr<Host> host;
  try {
    s.settings = make_render_options(options.shading);
    s.settings.ground_grid = options.ground_grid;
    int width = 0, height = 0;
    open_session(s, &width, &height);  // may replace the settings with the remembered ones
    if (options.measure.size() == 6) {
      s.measure_mode = true;
      s.measurement.click({options.measure[0], options.measure[1], options.measure[2]});
      s.measurement.click({options.measure[3], options.measure[4], options.measure[5]});
    }
    s.renderer = make_renderer(options.backend);
    if (options.offscreen)
      host = make_offscreen_host(width, height);
    else
      host = make_window_host(width, height, "facet",
                              [&s](const std::vector<std::string>& paths) { s.loader.request_dropped(paths); });
  } catch (const std::exception& e) {
    std::fprintf(stderr, "facet view: %s\n", e.what());
    return 1;
  }
  s.host_name = host->name();

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // never in the working directory (attach_session)
  ImGui::StyleColorsDark();
  host->imgui_init();
  ImGui_ImplOpenGL3_Init("#version 450 core");
  attach_session(s, *host);  // imgui.ini in the config directory, the remembered window position

  int rc = 1;
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  try {
    rc = frame_loop(s, *host);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "facet view: %s\n", e.what());
  }

  close_session(s, *host);
  ImGui_ImplOpenGL3_Shutdown();
  host->imgui_shutdown();
  ImGui::DestroyContext();
  return rc;
}

}  // namespace facet
