// facet_prepare_bench: the time from nothing to a prepared scene (everything the renderer uploads,
// meshlets included), median of N runs, and each preparation step alone on the same scene.
//   facet_prepare_bench [dragon | sphere-20M | sphere-N | MODEL.obj] [-n RUNS] [--threads N]
// dragon: load_model of the 871 K dragon (scene cache off); sphere-N: make_sphere(N) and its
// meshlets. Steps: vertex normals, closed-surface check, bounds, meshlets (runs and patches).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "engine/closed_surface.h"
#include "engine/generate.h"
#include "engine/loader.h"
#include "engine/meshlets.h"
#include "engine/parallel.h"

using Clock = std::chrono::steady_clock;

static double median_ms(int runs, const std::function<void()>& fn) {
  std::vector<double> t;
  for (int r = 0; r < runs; ++r) {
    Clock::time_point t0 = Clock::now();
    fn();
    t.push_back(1e3 * std::chrono::duration<double>(Clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int main(int argc, char** argv) {
  std::string what = "dragon";
  int runs = 3;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "-n") && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) facet::worker_count_override() = std::atoi(argv[++i]);
    else what = argv[i];
  }
  const std::string path = what == "dragon" ? FACET_SHARED_ASSETS "/dragon/dragon_vrip.obj" : what;
  uint64_t sphere = 0;
  if (what.rfind("sphere-", 0) == 0) {
    std::string n = what.substr(7);
    uint64_t scale = n.back() == 'M' ? 1000000 : n.back() == 'K' ? 1000 : 1;
    sphere = std::strtoull(n.c_str(), nullptr, 10) * scale;
  }
  facet::Scene scene;
  auto prepare = [&] {
    if (sphere) {
      scene = facet::make_sphere(sphere);
      scene.meshlets = std::make_shared<const facet::Meshlets>(facet::build_meshlets(scene));
    } else {
      scene = facet::load_model(path);
    }
  };
  const double total = median_ms(runs, prepare);
  std::printf("%s: %u triangles, %u vertices, %u threads\n", what.c_str(), scene.triangle_count(),
              scene.vertex_count(), facet::worker_count());
  std::printf("  nothing -> prepared   %9.1f ms (median of %d)\n", total, runs);
  std::printf("  vertex normals        %9.1f ms\n",
              median_ms(runs, [&] { facet::compute_vertex_normals(scene.positions, scene.indices); }));
  std::printf("  closed surface        %9.1f ms\n",
              median_ms(runs, [&] { facet::closed_outward(scene.positions, scene.indices); }));
  std::printf("  bounds                %9.1f ms\n", median_ms(runs, [&] { facet::compute_bounds(scene.positions); }));
  std::printf("  meshlet runs          %9.1f ms\n", median_ms(runs, [&] { facet::build_meshlet_runs(scene); }));
  std::printf("  meshlet patches       %9.1f ms\n", median_ms(runs, [&] { facet::build_meshlet_patches(scene); }));
  return 0;
}
