// What the subcommands share about their command line (command.h).
#include "app/command.h"

namespace facet {

std::vector<std::string> defaults_files_read(const CLI::App& cmd) {
  const CLI::App* root = cmd.get_parent();
  const CLI::Option* config = root ? root->get_config_ptr() : nullptr;
  return config && config->count() > 0 ? config->results() : std::vector<std::string>{};
}

}  // namespace facet
