// The GLSL sources of shaders/, embedded into the binary at build time (see shaders/CMakeLists.txt),
// looked up by file name. Nothing here compiles a shader: that needs a GL context (app/gl/).
#pragma once
#include <string_view>
#include <vector>

namespace facet {

// The text of shaders/<file_name> (e.g. "reference.vert") as it was at build time.
// Throws std::out_of_range naming the file and the embedded ones when there is no such shader:
// a missing shader is a build mistake, never something to draw around.
std::string_view shader_source(std::string_view file_name);

// File names of every embedded shader, sorted.
std::vector<std::string_view> shader_names();

}  // namespace facet
