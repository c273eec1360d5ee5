// The version facet reports (`facet --version`, the first line of `--help`): CMake's
// project(VERSION) and, when the source was a git checkout at configure time, its commit.
#pragma once
#include <string>

namespace facet {

// "0.1 (git 1a2b3c4d5e6f)", or "0.1" without git.
std::string version_string();

}  // namespace facet
