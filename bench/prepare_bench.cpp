// facet_prepare_bench: the time from nothing to a prepared scene (everything the renderer uploads,
// meshlets included), median of N runs, and each preparation step alone on the same scene.
//   facet_prepare_bench [dragon | bunny | sphere-20M | sphere-N | MODEL] [-n RUNS] [--threads N]
//                       [--meshlets]
// dragon, bunny: load_model of the shared asset (scene cache off); sphere-N: make_sphere(N) and
// its meshlets. Steps: vertex normals, closed-surface check, bounds, meshlets (runs and patches);
// then each grouping's quality (vertices and meshlets a triangle: what every frame pays; each
// meshlet's sphere and normal cone: what culling it depends on) and a
// checksum of its bytes (the same for any thread count, and before and after a change that must
// not move them). --meshlets: the model loaded once, only the meshlet steps timed. Set
// FACET_STEP_TIMES=1 for the meshlet build's own steps (engine/base/step_timing.h).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "bench/median_time.h"
#include "engine/base/parallel.h"
#include "engine/load/load_model.h"
#include "engine/meshlets/meshlets.h"
#include "engine/scene/closed_surface.h"
#include "engine/scene/generate.h"

static std::string median_ms(int runs, const std::function<void()>& fn) { return median_wall_and_cpu(runs, fn); }

static uint64_t checksum(const facet::Meshlets& m) {
  uint64_t h = 1469598103934665603ull;
  auto add = [&](const void* data, size_t bytes) {
    for (size_t i = 0; i < bytes; ++i) h = (h ^ static_cast<const unsigned char*>(data)[i]) * 1099511628211ull;
  };
  add(m.meshlets.data(), m.meshlets.size() * sizeof(facet::Meshlet));
  add(m.positions.data(), m.positions.size() * sizeof(facet::Vec3));
  add(m.triangles.data(), m.triangles.size() * sizeof(uint32_t));
  add(m.triangle_ids.data(), m.triangle_ids.size() * sizeof(uint32_t));
  return h;
}

int main(int argc, char** argv) {
  std::string what = "dragon";
  int runs = 3;
  bool only_meshlets = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "-n") && i + 1 < argc)
      runs = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc)
      facet::worker_count_override() = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--meshlets"))
      only_meshlets = true;
    else
      what = argv[i];
  }
  const std::string path = what == "dragon"  ? FACET_SHARED_ASSETS "/dragon/dragon_vrip.obj"
                           : what == "bunny" ? FACET_SHARED_ASSETS "/bunny/stanford-bunny.obj"
                                             : what;
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
  const std::string total = median_ms(only_meshlets ? 1 : runs, prepare);
  std::printf("%s: %u triangles, %u vertices, %u threads\n", what.c_str(), scene.triangle_count(), scene.vertex_count(),
              facet::worker_count());
  std::printf("  nothing -> prepared   %s, median of %d\n", total.c_str(), only_meshlets ? 1 : runs);
  if (!only_meshlets) {
    std::printf("  vertex normals        %s\n",
                median_ms(runs, [&] { facet::compute_vertex_normals(scene.positions, scene.indices); }).c_str());
    std::printf("  closed surface        %s\n",
                median_ms(runs, [&] { facet::closed_outward(scene.positions, scene.indices); }).c_str());
    std::printf("  bounds                %s\n",
                median_ms(runs, [&] { facet::compute_bounds(scene.positions); }).c_str());
  }
  std::printf("  meshlet runs          %s\n", median_ms(runs, [&] { facet::build_meshlet_runs(scene); }).c_str());
  std::printf("  meshlet patches       %s\n", median_ms(runs, [&] { facet::build_meshlet_patches(scene); }).c_str());
  // What the grouping costs every frame: vertices projected and meshlets set up, a triangle.
  for (const char* kind : {"runs", "patches"}) {
    const facet::Meshlets m = kind[0] == 'r' ? facet::build_meshlet_runs(scene) : facet::build_meshlet_patches(scene);
    std::printf("  %-8s quality: %.4f vertices a triangle, %.5f meshlets a triangle (%.1f triangles a meshlet)\n", kind,
                (double)m.positions.size() / m.triangles.size(), (double)m.meshlets.size() / m.triangles.size(),
                (double)m.triangles.size() / m.meshlets.size());
    // What culling a whole meshlet depends on (meshlet_cull.h): its sphere, and how far its normal cone
    // opens (cone_cos 0: never culled as back-facing). Radius relative to the model's bounds.
    const facet::Bounds bounds = facet::compute_bounds(scene.positions);
    const double dx = bounds.max.x - bounds.min.x, dy = bounds.max.y - bounds.min.y, dz = bounds.max.z - bounds.min.z;
    const double diagonal = std::sqrt(dx * dx + dy * dy + dz * dz);
    double radius = 0, cone_cos = 0, open = 0;
    for (const facet::Meshlet& ml : m.meshlets) {
      radius += ml.radius;
      cone_cos += ml.cone_cos;
      open += ml.cone_cos <= 0.0f;
    }
    const double n = (double)m.meshlets.size();
    std::printf(
        "  %-8s %zu meshlets, %.2f vertices a meshlet, mean radius %.3e of the diagonal, mean cone cos %.4f, "
        "%.2f %% cones open\n",
        kind, m.meshlets.size(), m.positions.size() / n, radius / n / diagonal, cone_cos / n, 100 * open / n);
    std::printf("  %-8s checksum: %016llx\n", kind, (unsigned long long)checksum(m));
  }
  return 0;
}
