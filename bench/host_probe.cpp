// facet_host_probe: what a frame costs the host, apart from what it costs the GPU. A loop of
// render calls that nothing waits on (what the viewer and a Python loop do) runs at the larger of
// the two; `facet bench` reports only the GPU's side.
//   facet_host_probe [MODEL] [-n FRAMES] [--size WxH]
// Prints, per call: the host time inside render() and inside read_outputs(), the loop's wall
// time per frame, and the GPU frame time, for three ways to get the colour into the caller's
// device memory: none (the frame only), a copy by read_outputs, and the frame resolved straight
// into it (FrameTarget::Device, the Python module's path); with graph launch on and off.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "engine/cuda/device_buffer.h"
#include "engine/load/load_model.h"
#include "engine/render/renderer.h"

using Clock = std::chrono::steady_clock;

namespace {

double us_since(Clock::time_point t0) { return 1e6 * std::chrono::duration<double>(Clock::now() - t0).count(); }

struct LoopFigures {
  double render_us = 0, outputs_us = 0, wall_us = 0, gpu_ms = 0;
};

enum class Colour { None, Copy, Direct };
const char* colour_name(Colour c) {
  return c == Colour::None ? "none" : c == Colour::Copy ? "read_outputs copy" : "device target";
}

LoopFigures run_loop(facet::Renderer& r, const facet::Scene& scene, int width, int height, int frames,
                     Colour colour_path) {
  facet::Camera cam = facet::Camera::framing(scene.bounds, (float)width / height);
  facet::RenderOptions settings;
  facet::DeviceBuffer<facet::Rgba8> colour;
  colour.allocate((size_t)width * height, "probe colour");
  facet::FrameOutputs out;
  out.color = colour.data();
  out.on_device = true;
  facet::FrameTarget target;
  if (colour_path == Colour::Direct) {
    target.kind = facet::FrameTarget::Kind::Device;
    target.pixels = colour.data();
  }
  LoopFigures f;
  std::vector<double> gpu;
  for (int warm = 0; warm < 20; ++warm) r.render(cam, settings, width, height);
  r.finish();
  const Clock::time_point start = Clock::now();
  for (int i = 0; i < frames; ++i) {
    cam.eye.x += 1e-6f * scene.bounds.radius;  // a camera that changes, as in a loop of views
    Clock::time_point t0 = Clock::now();
    r.render(cam, settings, width, height, target);
    f.render_us += us_since(t0);
    if (colour_path == Colour::Copy) {
      t0 = Clock::now();
      r.read_outputs(out);
      f.outputs_us += us_since(t0);
    }
    gpu.push_back(r.stats().times.total);
  }
  r.finish();
  f.wall_us = us_since(start) / frames;
  f.render_us /= frames;
  f.outputs_us /= frames;
  std::sort(gpu.begin(), gpu.end());
  f.gpu_ms = gpu[gpu.size() / 2];
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  std::string path = FACET_SHARED_ASSETS "/dragon/dragon_vrip.obj";
  int frames = 1000, width = 1920, height = 1080;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "-n") && i + 1 < argc)
      frames = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--size") && i + 1 < argc)
      std::sscanf(argv[++i], "%dx%d", &width, &height);
    else
      path = argv[i];
  }
  auto scene = std::make_shared<const facet::Scene>(facet::load_model(path));
  auto r = facet::make_renderer(facet::Backend::Cuda);
  r->set_scene(scene);
  std::printf("%s, %dx%d, %d frames a loop\n", path.c_str(), width, height, frames);
  std::printf("| graph | colour | render() host us | read_outputs host us | wall us/frame | GPU frame ms |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (bool graph : {true, false}) {
    facet::BackendOptions o;
    o.graph_launch = graph;
    r->set_options(o);
    for (Colour c : {Colour::None, Colour::Copy, Colour::Direct}) {
      const LoopFigures f = run_loop(*r, *scene, width, height, frames, c);
      std::printf("| %s | %s | %.1f | %.1f | %.1f | %.4f |\n", graph ? "on" : "off", colour_name(c), f.render_us,
                  f.outputs_us, f.wall_us, f.gpu_ms);
    }
  }
  return 0;
}
