// `facet bench`: placeholder until the CUDA pipeline lands (issue 3).
#include <cstdio>

#include "app/command.h"

namespace facet {

Command add_bench_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("bench", "Per-stage timings against OpenGL on the same card");
  return {cmd, [] {
            std::fprintf(stderr, "facet bench: not built yet (needs the CUDA pipeline)\n");
            return 2;
          }};
}

}  // namespace facet
