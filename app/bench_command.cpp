// `facet bench`: per-stage GPU medians and triangle throughput of facet's pipeline, side by side
// in the same run with the OpenGL driver's own rasterizer drawing the same scene (EGL, GL timer
// queries, colour + depth, same size), plus the vertex projection alone against copy bandwidth.
// The frames themselves are measured by bench_measure.cpp, the same way on every backend; this
// file chooses scenes and cameras and writes the tables and the JSON (nlohmann-json: names and
// paths are escaped).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/bench_measure.h"
#include "app/bench_report.h"
#include "app/camera_options.h"
#include "app/command.h"
#include "app/exit_codes.h"
#include "app/gl/egl_context.h"
#include "app/gl/gl_reference.h"
#include "engine/formats/format_messages.h"
#include "engine/load/load_model.h"
#include "engine/load/load_pipeline.h"
#include "engine/meshlets/triangle_renumber.h"
#include "engine/render/option_names.h"
#include "engine/render/output_files.h"
#include "engine/scene/generate.h"
#if FACET_HAVE_CUDA
#include "engine/cuda/throughput_bench.h"
#endif

namespace facet {

namespace {

struct SceneSpec {
  std::string name;
  Shading shading;
  std::function<Scene()> make;
  bool sphere;  // framed to 28 % coverage, else 80 % of the height
};

std::string default_assets() {
  if (const char* env = std::getenv("FACET_SHARED_ASSETS")) return env;  // as the tests take it
  for (const char* c : {"../shared/assets", "../../shared/assets", FACET_SHARED_ASSETS_DIR})
    if (std::ifstream(std::string(c) + "/spot/spot.mtl")) return c;
  return FACET_SHARED_ASSETS_DIR;
}

std::vector<SceneSpec> standard_scenes(const std::string& assets, const LoadOptions& load) {
  std::vector<SceneSpec> s;
  for (uint64_t n : {2000ull, 200000ull, 2000000ull, 20000000ull}) {
    std::string label = n >= 1000000 ? std::to_string(n / 1000000) + "M" : std::to_string(n / 1000) + "K";
    s.push_back({"sphere-" + label, Shading::Lit,
                 [n, load] {
                   Scene sphere = make_sphere(n);
                   prepare_in_slot_order(sphere, load.meshlets);
                   return sphere;
                 },
                 true});
  }
  s.push_back(
      {"dragon", Shading::Lit, [assets, load] { return load_model(assets + "/dragon/dragon_vrip.obj", load); }, false});
  s.push_back({"spot", Shading::Texture,
               [assets, load] { return load_model(assets + "/spot/spot_triangulated_with_mtl.obj", load); }, false});
  return s;
}

// Timed frames when --frames is not given. A backend drawing on the host (the CPU backend) draws
// a 20 M-triangle frame in seconds: a handful gives its median without making a full bench run
// take an hour.
constexpr int kDefaultFrames = 100;
constexpr int kDefaultHostFrames = 5;

// The timed frames per measurement: --frames, else the backend's default.
int timed_frames(const BenchOptions& o, const Renderer& renderer) {
  if (o.frames > 0) return o.frames;
  return renderer.capabilities().device_frames ? kDefaultFrames : kDefaultHostFrames;
}
// Untimed frames before each measurement: uploads, allocations and caches settle.
constexpr int kWarmupFrames = 5;

// "1920x1080,3840x2160" -> sizes; throws std::invalid_argument naming the bad item.
std::vector<std::pair<int, int>> parse_sizes(const std::string& list) {
  std::vector<std::pair<int, int>> sizes;
  std::stringstream ss(list);
  for (std::string item; std::getline(ss, item, ',');) {
    int w, h;
    parse_size(item, w, h);
    sizes.push_back({w, h});
  }
  return sizes;
}

// The scenes asked for by name (the standard set) or path (any model file); all when none is.
// Loaded with the meshlets `renderer` draws from.
std::vector<SceneSpec> select_scenes(const BenchOptions& o, const Renderer& renderer) {
  std::string assets = o.assets.empty() ? default_assets() : o.assets;
  LoadOptions load;
  load.use_cache = o.cache;
  load.read_outside_folder = o.outside_folder;
  load.meshlets = renderer.meshlet_grouping();
  std::vector<SceneSpec> all = standard_scenes(assets, load), specs;
  if (o.scenes.empty()) return all;
  for (const auto& name : o.scenes) {
    auto it = std::find_if(all.begin(), all.end(), [&](const SceneSpec& s) { return s.name == name; });
    if (it != all.end())
      specs.push_back(*it);
    else
      // Named in the report as messages show a path: escaped, so a name cannot drive the terminal.
      specs.push_back({shown_path(name), Shading::Lit, [name, load] { return load_model(name, load); }, false});
  }
  return specs;
}

std::unique_ptr<Renderer> make_bench_renderer(const BenchOptions& o) {
  std::unique_ptr<Renderer> renderer = make_renderer(parse_backend(o.backend));
  BackendOptions backend_options;
  backend_options.graph_launch = o.graph;
  backend_options.occlusion = parse_option(kOcclusionNames, o.occlusion).value_or(OcclusionMode::Auto);
  renderer->set_options(backend_options);
  const bool has_graph = renderer->capabilities().graph_launch;
  std::printf("facet bench: backend %s, %d frames per measurement (median)%s\n", renderer->name(),
              timed_frames(o, *renderer),
              has_graph ? (o.graph ? ", each frame one CUDA graph launch" : ", stream launches") : "");
  return renderer;
}

// The OpenGL side, or none (asked for none, or no EGL here: said, not fatal).
struct GlSide {
  std::unique_ptr<EglContext> egl;
  std::unique_ptr<GlReference> gl;
};

GlSide open_gl(const BenchOptions& o) {
  GlSide side;
  if (!o.gl) return side;
  try {
    side.egl = std::make_unique<EglContext>();
    side.gl = std::make_unique<GlReference>();
    std::printf("OpenGL: %s, timed by %s\n", side.egl->description().c_str(), gl_clock_name(side.gl->clock()));
  } catch (const std::exception& e) {
    std::printf("OpenGL: unavailable (%s)\n", e.what());
    side = {};
  }
  return side;
}

std::shared_ptr<const Scene> make_bench_scene(const SceneSpec& spec) {
  auto t0 = std::chrono::steady_clock::now();
  auto scene = std::make_shared<const Scene>(spec.make());
  double make_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::fprintf(stderr, "%s: %u triangles ready in %.2f s\n", spec.name.c_str(), scene->triangle_count(), make_s);
  return scene;
}

// One scene at one size: facet's frames (measure_frames), then OpenGL's with the first camera.
BenchRow measure_row(Renderer& renderer, GlReference* gl, const SceneSpec& spec, const Scene& scene, int w, int h,
                     int aa, const BenchOptions& o) {
  BenchRow r;
  r.scene = spec.name;
  r.aa = aa;
  r.size = std::to_string(w) + "x" + std::to_string(h);
  r.triangles = scene.triangle_count();
  MeasureParams p;
  p.width = w;
  p.height = h;
  p.frames = timed_frames(o, renderer);
  p.warmup = kWarmupFrames;
  p.orbit_deg = o.orbit_deg;
  p.settings.shading = spec.shading;
  p.settings.cull_backfaces = o.cull_backfaces;
  p.settings.two_sided = o.two_sided;
  p.settings.samples = (uint8_t)aa;
  const uint64_t overflow_before = renderer.stats().overflow_events;
  const Camera cam = bench_camera(scene.bounds, spec.sphere, w, h, o.ortho);
  const Bounds bounds = frame_bounds(scene);
  const FrameParams fixed = make_frame_params(cam, p.settings, bounds, w, h);  // OpenGL's camera and culling
  r.hidden_back_faces = fixed.cull_backfaces && !o.cull_backfaces;
  Measurement m = measure_frames(renderer, cam, bounds, p);
  r.clear = m.clear;
  r.geometry = m.geometry;
  r.resolve = m.resolve;
  r.frame = m.frame;
  r.drawn = m.last.tris.drawn;
  r.occluded = m.last.tris.occluded;
  r.overflow = m.last.overflow_events - overflow_before;
  r.scene_bytes = m.last.scene_bytes;
  r.frame_bytes = m.last.frame_bytes;
  if (gl) {
    try {
      r.gl = median(gl->time_frames(fixed, kWarmupFrames, p.frames));
    } catch (const GlError& e) {  // e.g. a sample count the driver does not offer: no figure
      std::fprintf(stderr, "  OpenGL: %s\n", e.what());
    }
  }
  std::fprintf(stderr, "  %s %s aa %d: frame %.4f ms, OpenGL %.4f ms\n", r.scene.c_str(), r.size.c_str(), aa, r.frame,
               r.gl);
  return r;
}

// Where the frames run on the device (and facet has the CUDA backend): the stand-alone vertex
// projection against device copy bandwidth, printed and added to `js`.
void bench_vertices(const Renderer& renderer, const BenchOptions& o, nlohmann::json& js) {
#if FACET_HAVE_CUDA
  // 1 GiB copied 20 times: far beyond any L2, so the figure is DRAM bandwidth; 50 projections
  // of each vertex count give a stable median.
  constexpr uint64_t kCopyBytes = 1ull << 30;
  constexpr int kCopyRepeats = 20, kProjectionRepeats = 50;
  if (!o.vertices || !renderer.capabilities().device_frames) return;
  double copy = bench_copy_bandwidth(kCopyBytes, kCopyRepeats);
  std::printf("\ndevice-to-device copy: %.0f GB/s (read + write)\n", copy);
  std::printf("| vertices | ms | G vertices/s | GB/s | of copy bandwidth |\n|---|---|---|---|---|\n");
  js["copy_gbps"] = copy;
  js["vertex_projection"] = nlohmann::json::array();
  for (uint64_t count : {1000000ull, 10000000ull, 100000000ull}) {
    VertexBenchResult v = bench_vertex_projection(count, kProjectionRepeats);
    std::printf("| %llu | %.4f | %.1f | %.0f | %.0f %% |\n", (unsigned long long)v.vertices, v.median_ms,
                v.gvertices_per_s, v.gbytes_per_s, 100.0 * v.gbytes_per_s / copy);
    js["vertex_projection"].push_back({{"vertices", v.vertices},
                                       {"ms", v.median_ms},
                                       {"gvertices_per_s", v.gvertices_per_s},
                                       {"gbps", v.gbytes_per_s}});
  }
#else
  (void)renderer, (void)o, (void)js;
#endif
}

// The --json file, checked before any measuring: a usage error where it is a file the run reads
// (a model named on the command line, the defaults file), a failure where it cannot be written at
// all. Nothing is written to it until the end (write_whole_file).
void check_json_path(const BenchOptions& o) {
  if (o.json.empty()) return;
  std::vector<std::string> standard;
  for (const SceneSpec& spec : standard_scenes("", LoadOptions{})) standard.push_back(spec.name);
  std::vector<NamedFile> inputs;
  for (const std::string& name : o.scenes)
    if (std::find(standard.begin(), standard.end(), name) == standard.end())
      inputs.push_back({"the model being measured", name});
  for (const std::string& file : o.defaults_files) inputs.push_back({"the defaults file", file});
  if (const std::optional<OutputOverInput> clash = find_output_over_input({{"--json", o.json}}, inputs))
    throw UsageError(clash->message());
  check_writable(o.json);
}

// A usage error where --json is one of the files `scene`'s load read (none for a generated one).
void check_json_spares(const BenchOptions& o, const Scene& scene) {
  if (o.json.empty() || scene.source_files.empty()) return;
  if (const std::optional<OutputOverInput> clash =
          find_output_over_input({{"--json", o.json}}, scene_inputs(scene, scene.source, "measured")))
    throw UsageError(clash->message());
}

int run_bench(const BenchOptions& o) {
  try {
    const auto sizes = as_usage([&] { return parse_sizes(o.sizes); });
    check_json_path(o);
    std::unique_ptr<Renderer> renderer = make_bench_renderer(o);
    const std::vector<SceneSpec> specs = select_scenes(o, *renderer);
    GlSide gl = open_gl(o);
    std::vector<BenchRow> rows;
    for (const SceneSpec& spec : specs) {
      std::shared_ptr<const Scene> scene = make_bench_scene(spec);
      check_json_spares(o, *scene);
      renderer->set_scene(scene);
      if (gl.gl) gl.gl->set_scene(*scene);
      for (auto [w, h] : sizes)
        for (int aa : o.aa) rows.push_back(measure_row(*renderer, gl.gl.get(), spec, *scene, w, h, aa, o));
    }
    print_tables(rows, *renderer, o);
    nlohmann::json js = rows_json(rows, *renderer, o, timed_frames(o, *renderer));
    bench_vertices(*renderer, o, js);
    if (!o.json.empty()) {
      const std::string text = js.dump(2) + "\n";
      write_whole_file(o.json, text.data(), text.size());
    }
    return kExitSuccess;
  } catch (const std::exception& e) {
    return report_error("bench", e);
  }
}

}  // namespace

Command add_bench_command(CLI::App& app) {
  auto o = std::make_shared<BenchOptions>();
  CLI::App* cmd = app.add_subcommand("bench", "Per-stage timings against OpenGL on the same card");
  cmd->add_option(
      "scenes", o->scenes,
      "Scenes: sphere-2K sphere-200K sphere-2M sphere-20M dragon spot, or model paths (OBJ, glTF) (default: all)");
  cmd->add_option("--sizes", o->sizes, "Comma-separated WxH list (default 1920x1080,3840x2160)")
      ->check(CLI::Validator(
          [](std::string& s) {
            try {
              parse_sizes(s);
              return std::string();
            } catch (const std::invalid_argument& e) {
              std::string why = e.what();  // "--size expects ...": the item's problem
              return why.rfind("--size ", 0) == 0 ? why.substr(7) : why;
            }
          },
          "WxH[,WxH...]"));
  cmd->add_option("--frames", o->frames, "Timed frames per measurement (default 100 on CUDA, 5 on the CPU)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--json", o->json, "Also write the results as JSON to this file");
  cmd->add_option("--assets", o->assets,
                  "Folder with spot/ and dragon/ (default: $FACET_SHARED_ASSETS, else ../shared/assets)");
  cmd->add_option("--backend", o->backend, name_list(kBackendNames, " | "))
      ->check(CLI::IsMember(option_names(kBackendNames)));
  cmd->add_flag("!--no-vertices", o->vertices, "Skip the stand-alone vertex projection benchmark");
  cmd->add_flag("!--no-gl", o->gl, "Skip the OpenGL comparison");
  cmd->add_flag("--read-outside-folder", o->outside_folder, kReadOutsideFolderHelp);
  auto* cull = cmd->add_flag("--cull-backfaces", o->cull_backfaces,
                             "Both renderers drop back faces (facet culls whole meshlets by their normal cone)");
  cmd->add_flag("--two-sided", o->two_sided,
                "Both renderers draw back faces even of a closed model seen from outside, where they "
                "cannot show (by default both skip them there)")
      ->excludes(cull);
  cmd->add_option("--occlusion", o->occlusion,
                  "CUDA occlusion culling of meshlets: " +
                      name_list(kOcclusionNames, ", ", OcclusionMode::Auto, "dense frames") + " (default " +
                      name_of(BackendOptions{}.occlusion) + ")")
      ->check(CLI::IsMember(option_names(kOcclusionNames)));
  cmd->add_option("--orbit", o->orbit_deg,
                  "facet's camera turns this many degrees a frame about the model (OpenGL's stays; default 0)")
      ->check(finite_check());
  cmd->add_flag("--ortho", o->ortho,
                "Orthographic cameras (both renderers), each scene as large on screen as in perspective");
  cmd->add_option("--aa", o->aa,
                  "Anti-aliasing samples a pixel, a comma-separated list of 1, 4, 8, each measured in turn "
                  "(default 1; e.g. 1,4 for the cost of 4x beside none)")
      ->delimiter(',')
      ->check(CLI::IsMember({1, 4, 8}))
      ->type_name("N[,N...]");
  cmd->add_flag("!--stream-launches", o->graph,
                "Launch each frame's memsets and kernels one by one instead of as one CUDA graph");
  return {cmd, [o, cmd] {
            o->defaults_files = defaults_files_read(*cmd);
            return run_bench(*o);
          }};
}

}  // namespace facet
