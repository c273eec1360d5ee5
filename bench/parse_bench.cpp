// facet_parse_bench: the OBJ loader's steps on one core, in CPU time (this thread's, kernel time
// included), best of N runs: parse, stitch, triangulate, mesh (the by-position or general builder
// with vertex normals). Per-core throughput, the figure that decides the wall time on N cores,
// steadier than facet_load_bench's wall clock on a shared machine.
//   facet_parse_bench [MODEL.obj] [-n RUNS]      default: the Stanford dragon, 3 runs
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "engine/base/mapped_file.h"
#include "engine/base/parallel.h"
#include "engine/formats/obj/obj_mesh.h"
#include "engine/formats/obj/obj_stitch.h"

using namespace facet;

namespace {

double thread_seconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

}  // namespace

int main(int argc, char** argv) {
  std::string path = FACET_SHARED_ASSETS "/dragon/dragon_vrip.obj";
  int runs = 3;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "-n") && i + 1 < argc)
      runs = std::max(1, std::atoi(argv[++i]));
    else if (argv[i][0] == '-')
      return std::fprintf(stderr, "usage: %s [MODEL.obj] [-n RUNS]\n", argv[0]), 2;
    else
      path = argv[i];
  }
  worker_count_override() = 1;  // every step on this thread
  MappedFile file(path);
  const char* names[4] = {"parse", "stitch", "triangulate", "mesh"};
  double best[4] = {1e30, 1e30, 1e30, 1e30};
  for (int r = 0; r < runs; ++r) {
    double t[5];
    t[0] = thread_seconds();
    std::vector<ObjChunk> chunks = parse_obj_text(file.data(), file.size());
    t[1] = thread_seconds();
    ObjModel model = stitch_obj_chunks(path, std::move(chunks));
    t[2] = thread_seconds();
    triangulate_obj_faces(model);
    t[3] = thread_seconds();
    Scene scene;
    build_obj_mesh(path, model, scene, [](float, const char*) {});
    t[4] = thread_seconds();
    for (int s = 0; s < 4; ++s) best[s] = std::min(best[s], t[s + 1] - t[s]);
  }
  const double mb = (double)file.size() / 1e6;
  std::printf("model      %s (%.1f MB)\nruns       %d, one core, CPU time, best\n", path.c_str(), mb, runs);
  for (int s = 0; s < 4; ++s)
    std::printf("  %-12s %8.1f ms %8.0f MB/s\n", names[s], best[s] * 1e3, mb / std::max(best[s], 1e-9));
  return 0;
}
