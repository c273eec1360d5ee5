// facet: `facet [view] [MODEL]` opens the viewer, `facet render` draws frames headless,
// `facet bench` measures the pipeline against the OpenGL driver. This file builds the command
// line (CLI11), reads the defaults file (`--config`, else $XDG_CONFIG_HOME/facet/facet.toml) and
// maps every outcome to the exit codes of app/exit_codes.h. It runs no command itself.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "app/command.h"
#include "app/exit_codes.h"
#include "app/version.h"
#include "engine/base/memory_policy.h"
#include "engine/base/platform.h"

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

// `config`: the file CLI11 reads by default (its TOML sections name the commands: [render],
// [bench], [view]); empty: none, though --config still takes one.
std::unique_ptr<Cli> build_cli(const std::string& config) {
  auto cli = std::make_unique<Cli>();
  cli->app = std::make_unique<CLI::App>(
      "facet " + version_string() + ": a real-time software rasterizer in CUDA (with a CPU fallback)", "facet");
  CLI::App& app = *cli->app;
  app.set_version_flag("--version", version_string());
  app.set_config("--config", config,
                 "TOML file of option defaults, one [view], [render] or [bench] section per command "
                 "(default: $XDG_CONFIG_HOME/facet/facet.toml, else ~/.config/facet/facet.toml, when it exists)");
  // A misspelt key in the file is reported rather than silently dropped.
  app.allow_config_extras(CLI::config_extras_mode::error);
  app.fallthrough();  // --config (and --version) also after the command's name
  cli->view = add_view_command(app);
  cli->render = add_render_command(app);
  cli->bench = add_bench_command(app);
  app.require_subcommand(0, 1);
  return cli;
}

// `facet MODEL ...` and plain `facet` mean `facet view ...`: inserts "view" after the root's own
// options unless a command is named there, or the root is asked for --help or --version.
std::vector<std::string> with_default_command(std::vector<std::string> args) {
  size_t i = 0;
  while (i < args.size()) {
    const std::string& a = args[i];
    if (a == "-h" || a == "--help" || a == "--version") return args;
    if (a == "--config")
      i += 2;
    else if (a.rfind("--config=", 0) == 0)
      i += 1;
    else
      break;
  }
  if (i < args.size() && (args[i] == "view" || args[i] == "render" || args[i] == "bench")) return args;
  args.insert(args.begin() + (std::ptrdiff_t)std::min(i, args.size()), "view");
  return args;
}

bool config_given(const std::vector<std::string>& args) {
  for (const std::string& a : args)
    if (a == "--config" || a.rfind("--config=", 0) == 0) return true;
  return false;
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

// Parses with the defaults file; when the parse fails only because of that file (it parses
// without it), says so once and goes on without it: a broken defaults file never stops facet.
int parse_with_defaults(std::unique_ptr<Cli>& cli, const std::vector<std::string>& args) {
  const std::string config = default_config_path();
  if (config.empty() || config_given(args) || !std::ifstream(config)) {
    cli = build_cli(config);
    return parse(*cli, args);
  }
  cli = build_cli(config);
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    cli->app->parse(reversed);
    return -1;
  } catch (const CLI::Success& e) {
    return cli->app->exit(e);
  } catch (const CLI::ParseError& e) {
    std::unique_ptr<Cli> plain = build_cli("");
    int rc = parse(*plain, args);
    if (rc != -1 && rc != kExitSuccess) return rc;  // the command line itself is wrong
    std::fprintf(stderr, "facet: warning: %s: %s; the file is ignored\n", config.c_str(), e.what());
    cli = std::move(plain);
    return rc;
  }
}

}  // namespace

}  // namespace facet

int main(int argc, char** argv) {
  using namespace facet;
  keep_freed_memory_for_reuse();
  std::vector<std::string> args = with_default_command(std::vector<std::string>(argv + 1, argv + argc));
  std::unique_ptr<Cli> cli;
  int rc = parse_with_defaults(cli, args);
  if (rc != -1) return rc;
  if (cli->render.parser->parsed()) return cli->render.run();
  if (cli->bench.parser->parsed()) return cli->bench.run();
  if (cli->view.parser->parsed()) return cli->view.run();
  // Only --config, with no command: nothing to do but say how to use facet.
  std::printf("%s", cli->app->help().c_str());
  return kExitUsage;
}
