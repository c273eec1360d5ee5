// The defaults file given to a parsed command line (docs/cli.md, "The defaults file"): read under
// its cap, its text parsed (defaults_file.h), each value tried alone on its option and the camera
// values together (camera_conflict), then given to the options the command line left unset. A
// value that fails is reported, naming the file, its line, the key and the problem, and left
// out: the rest of the file still counts, and no defaults file ever stops a command or makes it
// name an option the user did not type. The command line's own errors are CLI11's, before this.
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace facet {

// Reads the file whole under kMaxDefaultsFileBytes: "" and `text`, or why not (a folder, a FIFO
// or device, too large, missing), in words for "FILE: REASON".
std::string read_defaults_file(const std::string& path, std::string& text);

// Gives `text` (the file `path`) to `app`, already parsed from the command line. `scratch` is an
// app built the same way and never parsed: each value is tried on it first, so that a refused
// one never touches `app`. Returns the warnings, "FILE:LINE: problem; ignored", at most
// kMaxDefaultsWarnings and then one line counting the rest.
std::vector<std::string> apply_defaults(CLI::App& app, CLI::App& scratch, const std::string& path,
                                        const std::string& text);

}  // namespace facet
