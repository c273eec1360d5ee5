// facet_load_bench: loads a model N times and prints the median load time, with the time of
// each loader stage (from the progress callback), triangles, vertices and bounds.
//   facet_load_bench [MODEL.obj] [-n RUNS] [--tinyobj]
// Default: the 871k-triangle Stanford dragon. --tinyobj also times tinyobjloader's bare
// LoadObj on the same file, to show how much of the load is its parse.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <tiny_obj_loader.h>

#include "engine/loader.h"

using Clock = std::chrono::steady_clock;

static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

int main(int argc, char** argv) {
  std::string path = FACET_SHARED_ASSETS "/dragon/dragon_vrip.obj";
  int runs = 7;
  bool tinyobj_only = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "-n") && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--tinyobj")) tinyobj_only = true;
    else if (!std::strcmp(argv[i], "-h") || !std::strcmp(argv[i], "--help")) {
      std::printf("usage: %s [MODEL.obj] [-n RUNS] [--tinyobj]\n", argv[0]);
      return 0;
    } else path = argv[i];
  }

  std::vector<double> totals;
  std::map<std::string, std::vector<double>> stages;  // stage name -> seconds per run
  std::vector<std::string> order;
  facet::Scene scene;
  for (int r = 0; r < runs; ++r) {
    std::string stage;
    Clock::time_point stage_start;
    std::map<std::string, double> this_run;
    facet::LoadOptions options;
    options.progress = [&](float, const char* name) {
      Clock::time_point now = Clock::now();
      if (!stage.empty()) this_run[stage] += std::chrono::duration<double>(now - stage_start).count();
      stage = name;
      stage_start = now;
      if (r == 0 && std::find(order.begin(), order.end(), stage) == order.end()) order.push_back(stage);
    };
    Clock::time_point t0 = Clock::now();
    try {
      scene = facet::load_model(path, options);
    } catch (const facet::LoadError& e) {
      std::fprintf(stderr, "%s\n", e.what());
      return 1;
    }
    totals.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    for (auto& [name, s] : this_run) stages[name].push_back(s);
  }

  const facet::Bounds& b = scene.bounds;
  std::printf("model      %s\n", path.c_str());
  std::printf("runs       %d\n", runs);
  std::printf("median     %.1f ms  (min %.1f, max %.1f)\n", 1e3 * median(totals),
              1e3 * *std::min_element(totals.begin(), totals.end()),
              1e3 * *std::max_element(totals.begin(), totals.end()));
  for (const std::string& name : order)
    if (stages.count(name)) std::printf("  %-10s %.1f ms\n", name.c_str(), 1e3 * median(stages[name]));
  std::printf("triangles  %u\nvertices   %u\nmaterials  %zu\ntextures   %zu\n",
              scene.triangle_count(), scene.vertex_count(), scene.materials.size(),
              scene.textures.size());
  std::printf("bounds     min (%g, %g, %g) max (%g, %g, %g)\n", b.min.x, b.min.y, b.min.z,
              b.max.x, b.max.y, b.max.z);
  std::printf("sphere     centre (%g, %g, %g) radius %g\n", b.center.x, b.center.y, b.center.z,
              b.radius);
  std::printf("scene      %.1f MB\n", scene.byte_size() / 1e6);
  for (const std::string& w : scene.warnings) std::printf("warning    %s\n", w.c_str());

  if (tinyobj_only) {
    std::vector<double> t;
    for (int r = 0; r < runs; ++r) {
      tinyobj::attrib_t attrib;
      std::vector<tinyobj::shape_t> shapes;
      std::vector<tinyobj::material_t> materials;
      std::string warn, err;
      Clock::time_point t0 = Clock::now();
      tinyobj::LoadObj(&attrib, &shapes, &materials, &warn, &err, path.c_str(), nullptr, true);
      t.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    }
    std::printf("tinyobjloader LoadObj alone (file read + parse + triangulate): median %.1f ms\n",
                1e3 * median(t));
  }
  return 0;
}
