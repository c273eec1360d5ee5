// A subcommand of the facet executable: its CLI11 parser and what runs when it was chosen.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace facet {

struct Command {
  CLI::App* parser = nullptr;
  std::function<int()> run;  // returns the process exit code
};

Command add_render_command(CLI::App& app);
Command add_bench_command(CLI::App& app);
// The window (app/viewer). `is_default`: also runs when no subcommand is given.
Command add_view_command(CLI::App& app);

// The defaults files the command line of subcommand `cmd` was read with: --config's, or
// facet.toml where it was read (none where no file was).
std::vector<std::string> defaults_files_read(const CLI::App& cmd);

}  // namespace facet
