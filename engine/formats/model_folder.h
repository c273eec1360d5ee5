// The rule for the files a model names (MTLs, textures, glTF buffers and images): they are read
// from the model's folder and below only, unless LoadOptions::read_outside_folder. One check for
// every reader, so that OBJ and glTF draw the line in the same place.
#pragma once
#include <string>

namespace facet {

// Whether `path` (the folder's path joined with what the model names) lies in `folder` (the
// model's folder as its path names it; "" for the working directory) or below it. First by the
// text: "." and ".." resolved, never climbing above the folder, and an absolute path outside a
// relative folder. Then, for a file that exists, by where it really is: a symbolic link inside the
// folder that leads elsewhere is outside too (an archive can carry a link to ~/.ssh).
bool inside_model_folder(const std::string& folder, const std::string& path);

}  // namespace facet
