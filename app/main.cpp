// facet: `facet [view] [MODEL]` opens the viewer, `facet render` draws frames headless,
// `facet bench` measures the pipeline against the OpenGL driver. This file builds the command
// line (CLI11), reads the defaults file (`--config`, else $XDG_CONFIG_HOME/facet/facet.toml) and
// maps every outcome to the exit codes of app/exit_codes.h. It runs no command itself.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "app/command.h"
#include "app/defaults_options.h"
#include "app/exit_codes.h"
#include "app/version.h"
#include "engine/base/memory_policy.h"
#include "engine/base/platform.h"
#include "engine/formats/format_messages.h"

namespace facet {

namespace {

// The command line with its commands. CLI::App cannot be moved, hence the pointer.
struct Cli {
  std::unique_ptr<CLI::App> app;
  Command view, render, bench;
};

// The defaults file read when --config is not given: $XDG_CONFIG_HOME/facet/facet.toml, else
// ~/.config/facet/facet.toml (the XDG base directory rule, platform::user_config_dir); empty when
// neither variable is set.
std::string default_config_path() {
  const std::string dir = platform::user_config_dir();
  return dir.empty() ? "" : dir + "/facet/facet.toml";
}

// The command line with its commands. `--config` is declared for the help and for
// defaults_files_read; its file is read by read_defaults, never by CLI11 (which would block on a
// FIFO and read /dev/zero forever).
std::unique_ptr<Cli> build_cli() {
  auto cli = std::make_unique<Cli>();
  cli->app = std::make_unique<CLI::App>(
      "facet " + version_string() + ": a real-time software rasterizer in CUDA (with a CPU fallback)", "facet");
  CLI::App& app = *cli->app;
  app.set_version_flag("--version", version_string());
  app.set_config("--config", "",
                 "TOML file of option defaults, one [view], [render] or [bench] section per command "
                 "(default: $XDG_CONFIG_HOME/facet/facet.toml, else ~/.config/facet/facet.toml, when it exists)");
  app.fallthrough();  // --config (and --version) also after the command's name
  cli->view = add_view_command(app);
  cli->render = add_render_command(app);
  cli->bench = add_bench_command(app);
  app.require_subcommand(0, 1);
  return cli;
}

// `--config FILE` or `--config=FILE`, wherever it stands before a `--`, taken out of the
// arguments (the last one counts).
struct ConfigArgument {
  bool given = false;
  std::string path;
};
// False when --config ends the line with no FILE.
bool take_config(std::vector<std::string>& args, ConfigArgument& config) {
  for (size_t i = 0; i < args.size() && args[i] != "--";) {
    if (args[i] == "--config") {
      if (i + 1 >= args.size()) return false;
      config = {true, args[i + 1]};
      args.erase(args.begin() + (std::ptrdiff_t)i, args.begin() + (std::ptrdiff_t)i + 2);
    } else if (args[i].rfind("--config=", 0) == 0) {
      config = {true, args[i].substr(9)};
      args.erase(args.begin() + (std::ptrdiff_t)i);
    } else {
      ++i;
    }
  }
  return true;
}

// `facet MODEL ...` and plain `facet` mean `facet view ...`: inserts "view" first unless a command
// is named there, or the root is asked for --help or --version.
std::vector<std::string> with_default_command(std::vector<std::string> args) {
  if (!args.empty() && (args[0] == "-h" || args[0] == "--help" || args[0] == "--version")) return args;
  if (!args.empty() && (args[0] == "view" || args[0] == "render" || args[0] == "bench")) return args;
  args.insert(args.begin(), "view");
  return args;
}

// Parses `args` (in order); returns -1 when parsed, else the exit code (0 for --help, --version).
int parse(Cli& cli, std::vector<std::string> args) {
  std::reverse(args.begin(), args.end());  // CLI11's vector form takes the arguments reversed
  try {
    cli.app->parse(args);
    return -1;
  } catch (const CLI::ParseError& e) {
    return cli.app->exit(e) == 0 ? kExitSuccess : kExitUsage;
  }
}

// The defaults file given to the parsed command line (app/defaults_options.h): its problems are
// warnings. One named by --config that cannot be read at all is a usage error; the default one
// is then ignored with a warning. Returns -1 to go on, else the exit code.
int read_defaults(Cli& cli, const ConfigArgument& config) {
  const std::string path = config.given ? config.path : default_config_path();
  if (path.empty() || (!config.given && !platform::file_status(path).exists)) return -1;
  std::string text;
  if (const std::string why = read_defaults_file(path, text); !why.empty()) {
    if (config.given) {
      std::fprintf(stderr, "facet: --config %s: %s\n", shown_path(path).c_str(), why.c_str());
      return kExitUsage;
    }
    std::fprintf(stderr, "facet: warning: %s: %s; the file is ignored\n", shown_path(path).c_str(), why.c_str());
    return -1;
  }
  std::unique_ptr<Cli> scratch = build_cli();
  for (const std::string& warning : apply_defaults(*cli.app, *scratch->app, path, text))
    std::fprintf(stderr, "facet: warning: %s\n", warning.c_str());
  cli.app->get_config_ptr()->add_result(path);  // for defaults_files_read
  return -1;
}

}  // namespace

}  // namespace facet

int main(int argc, char** argv) {
  using namespace facet;
  keep_freed_memory_for_reuse();
  std::vector<std::string> args(argv + 1, argv + argc);
  ConfigArgument config;
  if (!take_config(args, config)) {
    std::fprintf(stderr, "facet: --config needs a FILE\n");
    return kExitUsage;
  }
  std::unique_ptr<Cli> cli = build_cli();
  int rc = parse(*cli, with_default_command(std::move(args)));
  if (rc == -1) rc = read_defaults(*cli, config);
  if (rc != -1) return rc;
  if (cli->render.parser->parsed()) return cli->render.run();
  if (cli->bench.parser->parsed()) return cli->bench.run();
  if (cli->view.parser->parsed()) return cli->view.run();
  // Nothing to do but say how to use facet.
  std::printf("%s", cli->app->help().c_str());
  return kExitUsage;
}
