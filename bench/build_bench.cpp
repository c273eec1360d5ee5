// facet_build_bench: the load steps after parsing, each alone on one parsed model, wall and CPU
// time, median of N runs (docs/performance.md).
//   facet_build_bench MODEL [-n RUNS] [--threads N]
// An OBJ is parsed, stitched and triangulated once; then its by-position mesh, vertex normals,
// bounds and closed-surface check are timed. A PLY is loaded once; then finish_scene (on a copy
// of the parsed arrays), its normals and its closed-surface check are timed. It does not build
// meshlets (facet_prepare_bench does).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "bench/median_time.h"
#include "engine/base/mapped_file.h"
#include "engine/base/parallel.h"
#include "engine/formats/obj/obj_mesh_by_position.h"
#include "engine/formats/obj/obj_stitch.h"
#include "engine/formats/ply/ply_loader.h"
#include "engine/scene/closed_surface.h"
#include "engine/scene/position_weld.h"
#include "engine/scene/scene_finish.h"

static void report(const char* name, int runs, const std::function<void()>& setup, const std::function<void()>& fn) {
  std::printf("  %-22s %s\n", name, median_wall_and_cpu(runs, fn, setup).c_str());
}

static void time_common(facet::Scene& scene, int runs) {
  report(
      "vertex normals", runs, [] {}, [&] { facet::compute_vertex_normals(scene.positions, scene.indices); });
  report(
      "bounds", runs, [] {}, [&] { facet::compute_bounds(scene.positions); });
  report(
      "closed surface", runs, [] {}, [&] { facet::closed_outward(scene.positions, scene.indices); });
  report(
      "  its weld", runs, [] {}, [&] { facet::weld_by_position(scene.positions); });
}

static void time_obj(const std::string& path, int runs) {
  facet::MappedFile file(path, true);
  facet::ObjModel model = facet::stitch_obj_chunks(path, facet::parse_obj_text(file.data(), file.size()));
  facet::MaterialLibrary library(path);
  facet::assign_obj_materials(model, library);
  facet::triangulate_obj_faces(model);
  if (!facet::obj_vertices_are_positions(model, false)) {
    std::printf("%s: not a by-position model\n", path.c_str());
    return;
  }
  facet::Scene scene;
  report(
      "by-position mesh", runs, [&] { scene = facet::Scene(); },
      [&] { facet::build_obj_mesh_by_position(model, scene); });
  std::printf("%s: %zu triangles, %zu vertices, %u threads\n", path.c_str(), scene.indices.size() / 3,
              scene.positions.size(), facet::worker_count());
  time_common(scene, runs);
}

static void time_ply(const std::string& path, int runs) {
  facet::Scene loaded = facet::load_ply(path);
  std::printf("%s: %zu triangles, %zu vertices, %u threads\n", path.c_str(), loaded.indices.size() / 3,
              loaded.positions.size(), facet::worker_count());
  facet::Scene scene;
  report(
      "finish_scene", runs,
      [&] {
        scene = facet::Scene();
        scene.positions = loaded.positions;
        scene.indices = loaded.indices;
      },
      [&] { facet::finish_scene(scene, path); });
  time_common(scene, runs);
}

int main(int argc, char** argv) {
  std::string path;
  int runs = 3;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "-n") && i + 1 < argc)
      runs = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc)
      facet::worker_count_override() = std::atoi(argv[++i]);
    else
      path = argv[i];
  }
  if (path.empty()) {
    std::fprintf(stderr, "usage: %s MODEL.obj|MODEL.ply [-n RUNS] [--threads N]\n", argv[0]);
    return 2;
  }
  if (path.size() > 4 && path.compare(path.size() - 4, 4, ".obj") == 0)
    time_obj(path, runs);
  else
    time_ply(path, runs);
  return 0;
}
