// `facet bench`: per-stage GPU medians and triangle throughput of facet's pipeline, side by side
// in the same run with the OpenGL driver's own rasterizer drawing the same scene (EGL, GL timer
// queries, colour + depth, same size), plus the vertex projection alone against copy bandwidth.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>

#include <glm/gtc/matrix_transform.hpp>

#include "app/camera_options.h"
#include "app/command.h"
#include "app/gl/egl_context.h"
#include "app/gl/gl_reference.h"
#include "engine/generate.h"
#include "engine/loader.h"
#include "engine/scene_cache.h"
#if FACET_HAVE_CUDA
#include "engine/cuda/throughput_bench.h"
#endif

namespace facet {

namespace {

struct BenchOptions {
  std::vector<std::string> scenes;           // empty = the standard set
  std::string sizes = "1920x1080,3840x2160";
  int frames = 100;
  std::string json;
  bool vertices = true;
  bool gl = true;
  bool graph = true;                         // false: launch the frame's work call by call
  bool cull_backfaces = false;               // both renderers drop every back face
  bool two_sided = false;                    // both renderers draw back faces even of a closed
                                             //   model seen from outside (as measured in the
                                             //   issue: every triangle drawn)
  std::string occlusion = "auto";            // CUDA occlusion culling: auto | off | always
  float orbit_deg = 0.0f;                    // facet's camera turns this much a frame about the
                                             //   model's vertical axis (0: one fixed camera)
  std::string backend = "auto";
  std::string assets;                        // folder holding spot/ and dragon/
  bool cache = true;                         // models through the scene cache (--no-cache)
};

struct SceneSpec {
  std::string name;
  Shading shading;
  std::function<Scene()> make;
  bool sphere;                               // framed to 28 % coverage, else 80 % of the height
};

double median(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

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
    s.push_back({"sphere-" + label, Shading::Lit, [n] { return make_sphere(n); }, true});
  }
  s.push_back({"dragon", Shading::Lit, [assets, load] { return load_model(assets + "/dragon/dragon_vrip.obj", load); }, false});
  s.push_back({"spot", Shading::Texture,
               [assets, load] { return load_model(assets + "/spot/spot_triangulated_with_mtl.obj", load); }, false});
  return s;
}

Camera bench_camera(const SceneSpec& spec, const Bounds& b, int w, int h) {
  float fov = glm::radians(45.0f);
  glm::vec3 c{b.center.x, b.center.y, b.center.z};
  float d;
  if (spec.sphere) {
    d = distance_for_coverage(b.radius, 0.28f, w, h, fov);
  } else {
    // The bounding sphere spans 80 % of the frame height.
    float alpha = std::atan(0.8f * std::tan(0.5f * fov));
    d = b.radius / std::sin(alpha);
  }
  Camera cam;
  cam.fov_y = fov;
  cam.target = c;
  cam.eye = c + glm::vec3(0, 0, d);
  cam.fit_clip_planes(b);
  return cam;
}

struct Row {
  std::string scene, size;
  uint32_t triangles = 0;
  double vertex = NAN, raster = NAN, resolve = NAN, frame = NAN, gl = NAN;
  uint32_t drawn = 0;
  uint32_t occluded = 0;  // triangles in meshlets skipped by occlusion culling, last frame
  bool hidden_back_faces = false;  // back faces skipped as hidden (closed model seen from outside)
  uint64_t overflow = 0;
  size_t scene_bytes = 0, frame_bytes = 0;
};

int run_bench(const BenchOptions& o) {
  try {
    std::vector<std::pair<int, int>> sizes;
    std::stringstream ss(o.sizes);
    for (std::string item; std::getline(ss, item, ',');) {
      int w, h;
      parse_size(item, w, h);
      sizes.push_back({w, h});
    }
    std::string assets = o.assets.empty() ? default_assets() : o.assets;
    LoadOptions load;
    load.use_cache = o.cache;
    std::vector<SceneSpec> all = standard_scenes(assets, load), specs;
    if (o.scenes.empty()) specs = all;
    for (const auto& name : o.scenes) {
      auto it = std::find_if(all.begin(), all.end(), [&](const SceneSpec& s) { return s.name == name; });
      if (it != all.end()) {
        specs.push_back(*it);
      } else {  // any model path (OBJ, PLY, STL: load_model picks the reader by extension)
        specs.push_back({name, Shading::Lit, [name, load] { return load_model(name, load); }, false});
      }
    }

    std::unique_ptr<Renderer> renderer = make_renderer(parse_backend(o.backend));
    BackendOptions backend_options;
    backend_options.graph_launch = o.graph;
    backend_options.occlusion = o.occlusion == "off" ? OcclusionMode::Off
                                : o.occlusion == "always" ? OcclusionMode::Always : OcclusionMode::Auto;
    renderer->set_options(backend_options);
    std::printf("facet bench: backend %s, %d frames per measurement (median)%s\n", renderer->name(), o.frames,
                renderer->name() == std::string("cuda") ? (o.graph ? ", each frame one CUDA graph launch" : ", stream launches") : "");

    std::unique_ptr<EglContext> egl;
    std::unique_ptr<GlReference> gl;
    if (o.gl) {
      try {
        egl = std::make_unique<EglContext>();
        gl = std::make_unique<GlReference>();
        std::printf("OpenGL: %s\n", egl->description().c_str());
      } catch (const std::exception& e) {
        std::printf("OpenGL: unavailable (%s)\n", e.what());
        gl.reset();
        egl.reset();
      }
    }

    std::vector<Row> rows;
    for (const SceneSpec& spec : specs) {
      auto t0 = std::chrono::steady_clock::now();
      auto scene = std::make_shared<Scene>(spec.make());
      double make_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      std::fprintf(stderr, "%s: %u triangles ready in %.2f s\n", spec.name.c_str(), scene->triangle_count(), make_s);
      renderer->set_scene(scene);
      if (gl) gl->set_scene(*scene);
      for (auto [w, h] : sizes) {
        Row r;
        r.scene = spec.name;
        r.size = std::to_string(w) + "x" + std::to_string(h);
        r.triangles = scene->triangle_count();
        RenderSettings settings;
        settings.shading = spec.shading;
        settings.cull_backfaces = o.cull_backfaces;
        settings.two_sided = o.two_sided;
        const uint64_t overflow_before = renderer->stats().overflow_events;
        Camera cam = bench_camera(spec, scene->bounds, w, h);
        FrameParams fp = make_frame_params(cam, settings, scene->bounds, w, h);
        const FrameParams fixed = fp;  // OpenGL's camera, and its culling
        r.hidden_back_faces = fp.cull_backfaces && !o.cull_backfaces;
        const glm::vec3 centre{scene->bounds.center.x, scene->bounds.center.y, scene->bounds.center.z};
        std::vector<double> tv, tr, ts, tf;
        int frames = renderer->name() == std::string("cpu") ? std::min(o.frames, 5) : o.frames;
        for (int i = 0; i < frames + 5; ++i) {
          if (o.orbit_deg != 0.0f) {  // a moving camera: what the frame before drew differs
            Camera turned = cam;
            turned.eye = centre + glm::vec3(glm::rotate(glm::mat4(1.0f), glm::radians(o.orbit_deg * (float)i), glm::vec3(0, 1, 0)) *
                                            glm::vec4(cam.eye - centre, 0.0f));
            fp = make_frame_params(turned, settings, scene->bounds, w, h);
          }
          renderer->render(fp);
          renderer->finish();
          if (i < 5) continue;  // warm-up
          StageTimes t = renderer->stats().times;
          tf.push_back(t.total);
          if (t.stages_this_frame) {  // CUDA: one frame in four (renderer.h)
            tv.push_back(t.clear); tr.push_back(t.geometry); ts.push_back(t.resolve);
          }
        }
        FrameStats st = renderer->stats();
        if (tv.empty()) {  // too few frames for a timed one: the stages of the last (a warm-up)
          tv.push_back(st.times.clear); tr.push_back(st.times.geometry); ts.push_back(st.times.resolve);
        }
        r.vertex = median(tv); r.raster = median(tr); r.resolve = median(ts); r.frame = median(tf);
        r.drawn = st.tris.drawn;
        r.occluded = st.tris.occluded;
        r.overflow = st.overflow_events - overflow_before;
        r.scene_bytes = st.scene_bytes;
        r.frame_bytes = st.frame_bytes;
        if (gl) r.gl = median(gl->time_frames(fixed, 5, o.frames));
        std::fprintf(stderr, "  %s %s: frame %.4f ms, OpenGL %.4f ms\n", r.scene.c_str(), r.size.c_str(), r.frame, r.gl);
        rows.push_back(r);
      }
    }

    if (o.cull_backfaces) std::printf("\nBack faces culled by both renderers.\n");
    if (o.two_sided) std::printf("\nBack faces drawn by both renderers, even where they cannot show.\n");
    if (renderer->name() == std::string("cuda"))
      std::printf("\nStage columns: medians of the frames that clear the visibility buffer (one in four), the\n"
                  "only ones with events between the stages; frame: median of all frames.\n");
    std::printf("\n| scene | size | triangles | %s | %s | resolve ms | frame ms | Gtri/s | OpenGL ms | OpenGL / facet |\n",
                "clear ms", "geometry + raster ms");
    std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
    for (const Row& r : rows)
      std::printf("| %s | %s | %u | %.4f | %.4f | %.4f | %.4f | %.2f | %.4f | %.1fx |\n", r.scene.c_str(),
                  r.size.c_str(), r.triangles, r.vertex, r.raster, r.resolve, r.frame,
                  r.triangles / (r.frame * 1e-3) / 1e9, r.gl, r.gl / r.frame);
    std::printf("\n| scene | size | scene bytes / triangle | frame scratch MiB (visibility, image, queues) | triangles skipped as occluded (last frame) | back faces |\n|---|---|---|---|---|---|\n");
    for (const Row& r : rows)
      std::printf("| %s | %s | %.1f | %.1f | %u | %s |\n", r.scene.c_str(), r.size.c_str(),
                  r.triangles ? (double)r.scene_bytes / r.triangles : 0.0, r.frame_bytes / 1048576.0, r.occluded,
                  r.hidden_back_faces ? "skipped by both: closed, seen from outside"
                                      : o.cull_backfaces ? "culled by both" : "drawn by both");
    for (const Row& r : rows)
      if (r.overflow) std::printf("note: %s %s needed %llu queue growth(s)\n", r.scene.c_str(), r.size.c_str(), (unsigned long long)r.overflow);

    std::ostringstream js;
    js << "{\n  \"backend\": \"" << renderer->name() << "\",\n  \"frames\": " << o.frames << ",\n  \"scenes\": [\n";
    for (size_t i = 0; i < rows.size(); ++i) {
      const Row& r = rows[i];
      js << "    {\"scene\": \"" << r.scene << "\", \"size\": \"" << r.size << "\", \"triangles\": " << r.triangles
         << ", \"vertex_ms\": " << r.vertex << ", \"raster_ms\": " << r.raster << ", \"resolve_ms\": " << r.resolve
         << ", \"frame_ms\": " << r.frame << ", \"opengl_ms\": " << (std::isnan(r.gl) ? -1.0 : r.gl)
         << ", \"drawn\": " << r.drawn << ", \"occluded\": " << r.occluded
         << ", \"back_faces_skipped\": " << (r.hidden_back_faces || o.cull_backfaces ? "true" : "false")
         << ", \"scene_bytes\": " << r.scene_bytes
         << ", \"frame_bytes\": " << r.frame_bytes << "}" << (i + 1 < rows.size() ? "," : "") << "\n";
    }
    js << "  ]";

#if FACET_HAVE_CUDA
    if (o.vertices && renderer->name() == std::string("cuda")) {
      double copy = bench_copy_bandwidth(1ull << 30, 20);
      std::printf("\ndevice-to-device copy: %.0f GB/s (read + write)\n", copy);
      std::printf("| vertices | ms | G vertices/s | GB/s | of copy bandwidth |\n|---|---|---|---|---|\n");
      js << ",\n  \"copy_gbps\": " << copy << ",\n  \"vertex_projection\": [\n";
      uint64_t counts[] = {1000000ull, 10000000ull, 100000000ull};
      for (int i = 0; i < 3; ++i) {
        VertexBenchResult v = bench_vertex_projection(counts[i], 50);
        std::printf("| %llu | %.4f | %.1f | %.0f | %.0f %% |\n", (unsigned long long)v.vertices, v.median_ms,
                    v.gvertices_per_s, v.gbytes_per_s, 100.0 * v.gbytes_per_s / copy);
        js << "    {\"vertices\": " << v.vertices << ", \"ms\": " << v.median_ms << ", \"gvertices_per_s\": "
           << v.gvertices_per_s << ", \"gbps\": " << v.gbytes_per_s << "}" << (i < 2 ? "," : "") << "\n";
      }
      js << "  ]";
    }
#endif
    js << "\n}\n";
    if (!o.json.empty()) {
      std::ofstream f(o.json);
      if (!(f << js.str())) throw std::runtime_error(o.json + ": cannot write");
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "facet bench: %s\n", e.what());
    return 1;
  }
}

}  // namespace

Command add_bench_command(CLI::App& app) {
  auto o = std::make_shared<BenchOptions>();
  CLI::App* cmd = app.add_subcommand("bench", "Per-stage timings against OpenGL on the same card");
  cmd->add_option("scenes", o->scenes,
                  "Scenes: sphere-2K sphere-200K sphere-2M sphere-20M dragon spot, or model file paths: OBJ, PLY, STL (default: all)");
  cmd->add_option("--sizes", o->sizes, "Comma-separated WxH list (default 1920x1080,3840x2160)");
  cmd->add_option("--frames", o->frames, "Timed frames per measurement (default 100)")->check(CLI::Range(1, 100000));
  cmd->add_option("--json", o->json, "Also write the results as JSON to this file");
  cmd->add_option("--assets", o->assets, "Folder with spot/ and dragon/ (default: $FACET_SHARED_ASSETS, else ../shared/assets)");
  cmd->add_option("--backend", o->backend, "auto | cpu | cuda")->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  cmd->add_flag("!--no-vertices", o->vertices, "Skip the stand-alone vertex projection benchmark");
  cmd->add_flag("!--no-gl", o->gl, "Skip the OpenGL comparison");
  cmd->add_flag("!--no-cache", o->cache, kSceneCacheHelp);
  auto* cull = cmd->add_flag("--cull-backfaces", o->cull_backfaces,
                             "Both renderers drop back faces (facet culls whole meshlets by their normal cone)");
  cmd->add_flag("--two-sided", o->two_sided,
                "Both renderers draw back faces even of a closed model seen from outside, where they "
                "cannot show (by default both skip them there)")
      ->excludes(cull);
  cmd->add_option("--occlusion", o->occlusion,
                  "CUDA occlusion culling of meshlets: auto (dense frames), off, always (default auto)")
      ->check(CLI::IsMember({"auto", "off", "always"}));
  cmd->add_option("--orbit", o->orbit_deg,
                  "facet's camera turns this many degrees a frame about the model (OpenGL's stays; default 0)");
  cmd->add_flag("!--stream-launches", o->graph,
                "Launch each frame's memsets and kernels one by one instead of as one CUDA graph");
  return {cmd, [o] { return run_bench(*o); }};
}

}  // namespace facet
