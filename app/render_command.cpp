// `facet render MODEL -o OUT.png`: frames of one loaded model, no window, no display (which
// frames: render_shots.h).
#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <future>
#include <memory>
#include <mutex>
#include <string>

#include "app/camera_options.h"
#include "app/command.h"
#include "app/exit_codes.h"
#include "app/render_shots.h"
#include "engine/cache/scene_cache_write.h"
#include "engine/formats/format_messages.h"
#include "engine/load/load_model.h"
#include "engine/load/load_pipeline.h"
#include "engine/render/image_io.h"
#include "engine/render/output_files.h"
#include "engine/render/renderer.h"
#include "kernels/frame/tuning.h"

namespace facet {

namespace {

struct RenderCommandOptions {
  std::string model;
  std::string output;
  std::string size = "1920x1080";
  std::string backend = name_of(Backend::Auto);
  std::string depth_file;  // --depth: float32 .npy or .exr, distance along the ray, +inf background
  std::string ids_file;    // --ids: int32 .npy, -1 background
  CameraOptions camera;
  RenderOptionArgs shading;
  bool cache = true;                        // read and write the scene cache (--no-cache)
  bool outside_folder = false;              // --read-outside-folder (LoadOptions::read_outside_folder)
  bool verbose = false;                     // print each load stage's time
  ShotOptions views;                        // --turntable, --cameras, --transparent
  std::vector<std::string> defaults_files;  // the defaults files the command line was read with
};

// Every file the command writes, named by the option that names it.
std::vector<NamedFile> render_outputs(const RenderCommandOptions& o, const ShotPlan& plan) {
  std::vector<NamedFile> outputs;
  for (const std::string& path : planned_outputs(plan))
    outputs.push_back({plan.from_file ? "the cameras file's output" : "-o", path});
  if (!o.depth_file.empty()) outputs.push_back({"--depth", o.depth_file});
  if (!o.ids_file.empty()) outputs.push_back({"--ids", o.ids_file});
  return outputs;
}

// A usage error where an output would replace a file the run reads, before anything is written.
void refuse_output_over_input(const std::vector<NamedFile>& outputs, const std::vector<NamedFile>& inputs) {
  if (const std::optional<OutputOverInput> clash = find_output_over_input(outputs, inputs))
    throw UsageError(clash->message());
}

// Load stages' names and times as the loader reports them, for --verbose.
struct StageClock {
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now(), last = start;
  std::string stage;
  void enter(const char* next) {
    if (stage == next) return;
    print_last();
    stage = next;
  }
  void print_last() {
    const auto now = std::chrono::steady_clock::now();
    if (!stage.empty() && stage != "done")
      std::printf("  load stage %-10s %8.3f s\n", stage.c_str(), std::chrono::duration<double>(now - last).count());
    last = now;
  }
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// load(cancel, renderer) on this thread while the renderer is made on another: starting CUDA
// (the device's context) takes a good part of a second, which the load hides. renderer(true) waits
// for it and gives it (null if making it failed), renderer(false) gives it only if it is made
// already (null otherwise), for the load's head start on the upload
// (LoadOptions::while_preparing; any thread, once at a time). Errors read as when the renderer
// came first: its error ("CUDA backend unavailable: ...") wins over the load's, and cancels the
// load (`cancel` goes into LoadOptions::cancel). The thread is always joined: get() waits for it
// on every way out. The CPU backend starts in no time: made first, no thread.
template <class Load>
std::unique_ptr<Renderer> make_renderer_while(Backend backend, Load&& load) {
  if (backend == Backend::Cpu) {
    std::unique_ptr<Renderer> renderer = make_renderer(backend);
    load(nullptr, [&renderer](bool) { return renderer.get(); });
    return renderer;
  }
  std::atomic<bool> failed{false};
  std::future<std::unique_ptr<Renderer>> pending = std::async(std::launch::async, [backend, &failed] {
    try {
      return make_renderer(backend);
    } catch (...) {
      failed = true;
      throw;
    }
  });
  std::mutex taking;
  std::unique_ptr<Renderer> made;
  std::exception_ptr error;
  auto renderer = [&](bool wait) -> Renderer* {
    std::lock_guard<std::mutex> lock(taking);
    if (!wait && pending.valid() && pending.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
      return nullptr;
    if (pending.valid()) {
      try {
        made = pending.get();
      } catch (...) {
        error = std::current_exception();
      }
    }
    return made.get();
  };
  try {
    load(&failed, renderer);
  } catch (...) {
    renderer(true);
    if (error) std::rethrow_exception(error);
    throw;
  }
  renderer(true);
  if (error) std::rethrow_exception(error);
  return made;
}

// The load's head start where the renderer works ahead (LoadOptions::while_preparing; `made` as
// make_renderer_while's; BackendCapabilities::work_ahead): the shading arrays go to the device
// while the meshlets are built, and the device checks whether the surface is closed (the CPU does
// where it cannot). A large model's Morton order for the meshlets is sorted there too, when the
// renderer is up already (kDeviceOrderMinTriangles): else the CPU sorts rather than wait for
// CUDA's start. The CPU backend has nothing to send: its load checks on the CPU before the
// meshlets, with no thread beside it.
template <class Made>
WhilePreparing device_head_start(const Made& made) {
  return [&made](const Scene& fresh, HeadStart& head) -> std::optional<bool> {
    const Renderer* up = fresh.triangle_count() >= kDeviceOrderMinTriangles ? made(false) : nullptr;
    const bool order = up && up->capabilities().work_ahead;
    if (order)
      head.promise_order();
    else
      head.no_order();
    Renderer* r = made(true);
    if (!r || !r->capabilities().work_ahead) return std::nullopt;
    r->upload_ahead(fresh, UploadPart::Shading);
    if (order) {
      try {
        head.give_order(r->centroid_order_ahead(fresh));
      } catch (const std::exception&) {  // the CPU sorts; the closed-surface check still goes
        head.no_order();
      }
    }
    return r->closed_outward_ahead(fresh);
  };
}

// Waits for the scene cache file still being written, if any; its failure is a warning.
void finish_cache_write(SceneCacheWrite& write, bool verbose, std::chrono::steady_clock::time_point t_start) {
  if (!write.pending()) return;
  const auto t_join = std::chrono::steady_clock::now();
  const std::string failed = write.join();
  if (!failed.empty()) std::fprintf(stderr, "warning: %s\n", failed.c_str());
  if (verbose)
    std::printf("  cache written    %8.3f s waited, %.3f s from the start (the process's exit follows)\n",
                seconds_since(t_join), seconds_since(t_start));
}

// The inputs the command line names: the model, the cameras file and the defaults files.
std::vector<NamedFile> named_inputs(const RenderCommandOptions& o) {
  std::vector<NamedFile> inputs{{"the model being rendered", o.model}};
  if (!o.views.cameras_file.empty()) inputs.push_back({"the cameras file", o.views.cameras_file});
  for (const std::string& file : o.defaults_files) inputs.push_back({"the defaults file", file});
  return inputs;
}

// One shot: drawn, its PNG and any --depth / --ids files written, and a line said. `labelled`:
// the line also gives the shot's camera as options (a turntable or a cameras file).
void draw_shot(Renderer& renderer, const Shot& job, const RenderOptions& settings, const RenderCommandOptions& o,
               bool labelled) {
  const auto t0 = std::chrono::steady_clock::now();
  renderer.render(job.camera, settings, job.width, job.height);
  std::vector<Rgba8> rgba;
  renderer.read_rgba(rgba);
  const double render_s = seconds_since(t0);
  const auto t_write = std::chrono::steady_clock::now();
  write_png(job.output, job.width, job.height, rgba);
  write_frame_output_files(renderer, job.width, job.height, o.depth_file, o.ids_file);
  if (o.verbose) std::printf("  files written    %8.3f s\n", seconds_since(t_write));
  const FrameStats st = renderer.stats();
  if (labelled) std::printf("%s: %s\n", job.label.c_str(), camera_options_text(job.camera).c_str());
  std::printf(
      "rendered %dx%d on %s in %.2f ms (drawn %u, culled %u, clipped %u, NaN %u, occluded %u; back "
      "faces %s) -> %s\n",
      job.width, job.height, renderer.name(), render_s * 1e3, st.tris.drawn, st.tris.culled, st.tris.clipped,
      st.tris.nan, st.tris.occluded, st.back_faces_culled ? "culled" : "drawn",
      safe_line(shown_path(job.output), kMaxReportedLineBytes).c_str());
}

int run_render(const RenderCommandOptions& o) {
  try {
    int width = 0, height = 0;
    as_usage([&] { parse_size(o.size, width, height); });
    RenderOptions settings = as_usage([&] { return make_render_options(o.shading); });
    if (o.views.transparent) settings.background.a = 0;  // resolve writes the covered fraction
    const ShotPlan plan = plan_shots(o.views, o.camera, o.output, width, height);
    if ((!o.depth_file.empty() || !o.ids_file.empty()) && (o.views.turntable > 0 || !o.views.cameras_file.empty()))
      throw UsageError("--depth and --ids go with one frame, not with --turntable or --cameras");
    const Backend backend = backend_known_early(parse_backend(o.backend));
    // Outputs against the inputs the command line names, before the model is read, then, once it
    // is loaded, against every file its load read: nothing is written before both.
    const std::vector<NamedFile> outputs = render_outputs(o, plan);
    refuse_output_over_input(outputs, named_inputs(o));

    auto t0 = std::chrono::steady_clock::now();
    const auto t_start = t0;
    StageClock clock;
    LoadOptions load;
    load.use_cache = o.cache;
    load.read_outside_folder = o.outside_folder;
    if (o.verbose) load.progress = [&clock](float, const char* stage) { clock.enter(stage); };
    // A first open's cache file is written beside the upload and the frames (scene_cache_write.h)
    // and joined before the process ends (on every way out: `loaded`'s destructor).
    LoadedScene loaded;
    double load_s = 0;  // the load's own time, not the wait for the renderer after it
    auto renderer = make_renderer_while(backend, [&](const std::atomic<bool>* cancel, const auto& made) {
      load.cancel = cancel;
      // The CPU backend is made before the load: the meshlets it draws from are known. The
      // CUDA one may still be starting; its grouping is the default.
      if (backend == Backend::Cpu)
        load.meshlets = made(false)->meshlet_grouping();
      else
        load.while_preparing = device_head_start(made);
      loaded = load_model_shared(o.model, load);
      load.while_preparing = nullptr;  // it holds `made`, which ends with make_renderer_while
      load_s = seconds_since(t0);
      if (o.verbose) clock.enter("done");
    });
    const std::shared_ptr<const Scene> scene = loaded.scene;
    refuse_output_over_input(outputs, scene_inputs(*scene, o.model, "rendered"));
    if (o.verbose) std::printf("  load total       %8.3f s\n", load_s);
    for (const auto& w : scene->warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
    const Bounds& b = scene->bounds;
    std::printf("loaded %s: %u triangles, %u vertices, bounds (%g %g %g)..(%g %g %g)%s, %.3f s\n",
                shown_path(o.model).c_str(), scene->triangle_count(), scene->vertex_count(), b.min.x, b.min.y, b.min.z,
                b.max.x, b.max.y, b.max.z, b.closed ? ", closed surface" : "", load_s);

    const auto t_scene = std::chrono::steady_clock::now();
    renderer->set_scene(scene);
    if (o.verbose)
      std::printf("  to the renderer  %8.3f s (on cuda: the upload, less what went while preparing)\n",
                  seconds_since(t_scene));
    const std::vector<Shot> jobs = make_shots(plan, scene->bounds);
    for (const Shot& job : jobs) draw_shot(*renderer, job, settings, o, jobs.size() > 1);
    if (o.verbose) {
      const FrameStats st = renderer->stats();
      if (st.peak_bytes > 0)
        std::printf("  device memory    %8.1f MiB scene, %.1f MiB frame, %.1f MiB at the most (the upload's too)\n",
                    st.scene_bytes / 1048576.0, st.frame_bytes / 1048576.0, st.peak_bytes / 1048576.0);
      std::printf("  start to here    %8.3f s\n", seconds_since(t_start));
    }
    finish_cache_write(loaded.cache_write, o.verbose, t_start);
    return kExitSuccess;
  } catch (const std::exception& e) {
    return report_error("render", e);
  }
}

}  // namespace

Command add_render_command(CLI::App& app) {
  auto o = std::make_shared<RenderCommandOptions>();
  CLI::App* cmd =
      app.add_subcommand("render", "Render frames of a model to PNGs, headless (one, a turntable, or a cameras file)");
  cmd->add_option("model", o->model, "Model to render (OBJ, PLY, STL, glTF .gltf/.glb; by extension)")->required();
  cmd->add_option("-o,--output", o->output, "PNG file to write (with --turntable: a name template)");
  cmd->add_option("--size", o->size, "Frame size WxH in pixels (default 1920x1080)")->check(size_check());
  add_backend_option(cmd, o->backend);
  cmd->add_option("--depth", o->depth_file,
                  "Also write depth (distance along each pixel's ray, +inf where empty): .npy or .exr");
  cmd->add_option("--ids", o->ids_file, "Also write triangle ids (int32, -1 where empty): .npy");
  add_camera_options(cmd, o->camera);
  add_render_options(cmd, o->shading);
  cmd->add_flag("!--no-cache", o->cache, kSceneCacheHelp);
  cmd->add_flag("--read-outside-folder", o->outside_folder, kReadOutsideFolderHelp);
  cmd->add_flag("-v,--verbose", o->verbose, "Print the time of each load stage and the total");
  add_shot_options(cmd, o->views);
  return {cmd, [o, cmd] {
            o->defaults_files = defaults_files_read(*cmd);
            return run_render(*o);
          }};
}

}  // namespace facet
