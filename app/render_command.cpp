// `facet render MODEL -o OUT.png`: one frame, no window, no display.
#include <chrono>
#include <cstdio>
#include <memory>

#include "app/camera_options.h"
#include "app/command.h"
#include "engine/image_io.h"
#include "engine/loader.h"
#include "engine/output_files.h"

namespace facet {

namespace {

struct RenderOptions {
  std::string model;
  std::string output;
  std::string size = "1920x1080";
  std::string backend = "auto";
  std::string depth_file;  // --depth: float32 .npy or .exr, distance along the ray, +inf background
  std::string ids_file;    // --ids: int32 .npy, -1 background
  CameraOptions camera;
  ShadingOptions shading;
};

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

int run_render(const RenderOptions& o) {
  try {
    int width = 0, height = 0;
    parse_size(o.size, width, height);
    RenderSettings settings = make_settings(o.shading);
    auto renderer = make_renderer(parse_backend(o.backend));

    auto t0 = std::chrono::steady_clock::now();
    auto scene = std::make_shared<Scene>(load_model(o.model));
    double load_s = seconds_since(t0);
    for (const auto& w : scene->warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
    const Bounds& b = scene->bounds;
    std::printf("loaded %s: %u triangles, %u vertices, bounds (%g %g %g)..(%g %g %g)%s, %.3f s\n",
                o.model.c_str(), scene->triangle_count(), scene->vertex_count(), b.min.x, b.min.y,
                b.min.z, b.max.x, b.max.y, b.max.z, b.closed ? ", closed surface" : "", load_s);

    Camera camera = make_camera(o.camera, scene->bounds, width, height);
    renderer->set_scene(scene);
    t0 = std::chrono::steady_clock::now();
    renderer->render(camera, settings, width, height);
    std::vector<Rgba8> rgba;
    renderer->read_rgba(rgba);
    double render_s = seconds_since(t0);
    write_png(o.output, width, height, rgba);
    write_frame_output_files(*renderer, width, height, o.depth_file, o.ids_file);
    FrameStats st = renderer->stats();
    std::printf("rendered %dx%d on %s in %.2f ms (drawn %u, culled %u, clipped %u, NaN %u, occluded %u; back "
                "faces %s) -> %s\n",
                width, height, renderer->name(), render_s * 1e3, st.tris.drawn, st.tris.culled,
                st.tris.clipped, st.tris.nan, st.tris.occluded, st.back_faces_culled ? "culled" : "drawn",
                o.output.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "facet render: %s\n", e.what());
    return 1;
  }
}

}  // namespace

Command add_render_command(CLI::App& app) {
  auto o = std::make_shared<RenderOptions>();
  CLI::App* cmd = app.add_subcommand("render", "Render one frame of a model to a PNG, headless");
  cmd->add_option("model", o->model, "OBJ file to render")->required();
  cmd->add_option("-o,--output", o->output, "PNG file to write")->required();
  cmd->add_option("--size", o->size, "Frame size WxH in pixels (default 1920x1080)");
  cmd->add_option("--backend", o->backend, "auto (CUDA when a device exists) | cpu | cuda")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  cmd->add_option("--depth", o->depth_file, "Also write depth (distance along each pixel's ray, +inf where empty): .npy or .exr");
  cmd->add_option("--ids", o->ids_file, "Also write triangle ids (int32, -1 where empty): .npy");
  add_camera_options(cmd, o->camera);
  add_shading_options(cmd, o->shading);
  return {cmd, [o] { return run_render(*o); }};
}

}  // namespace facet
