// Running the facet executable from a test: the command line, its exit code and everything it
// printed (stdout and stderr together), with $XDG_CONFIG_HOME pointed at a folder of the test's
// choosing so that the user's own defaults file never takes part.
#pragma once
#include <string>
#include <vector>

#include "kernels/base/hd.h"

namespace facet::test {

struct CliResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr, interleaved
};

// Runs `facet ARGS` (ARGS as one shell-quoted string: see quote()) with XDG_CONFIG_HOME set to
// `config_home` (empty: a folder that does not exist) and HOME likewise. `timeout_s` > 0: killed
// after that many seconds (exit code 124), for inputs that could make facet hang.
CliResult run_facet(const std::string& args, const std::string& config_home = "", int timeout_s = 0);

// `s` in single quotes for the shell.
std::string quote(const std::string& s);

// Reads a PNG into RGBA8 (row 0 = top); fails the test and returns false when it cannot.
bool read_png(const std::string& path, int& width, int& height, std::vector<Rgba8>& rgba);

// The PNG at `path`, which must be `width` x `height` (a test failure otherwise); empty when it
// cannot be read.
std::vector<Rgba8> read_png_of_size(const std::string& path, int width, int height);

// True when both images hold the same bytes (and are not empty).
bool same_pixels(const std::vector<Rgba8>& a, const std::vector<Rgba8>& b);

// The bundled Spot model (OBJ, MTL, texture), a small model every CLI test can draw.
std::string spot_model();

}  // namespace facet::test
