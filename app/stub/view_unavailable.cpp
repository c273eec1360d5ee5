// `facet view` in a build without the viewer (FACET_BUILD_VIEWER=OFF, e.g. a headless GPU
// host without GLFW): the command exists and says why it cannot run.
#include <cstdio>

#include "app/command.h"
#include "app/exit_codes.h"

namespace facet {

Command add_view_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("view", "Open a model in a window (not in this build)");
  cmd->allow_extras(true);
  return {cmd, [] {
            std::fprintf(stderr, "facet view: this build has no viewer (configured with FACET_BUILD_VIEWER=OFF)\n");
            return kExitFailure;
          }};
}

}  // namespace facet
