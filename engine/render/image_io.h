// Writing frames to PNG (row 0 = top of the image, RGBA8).
#pragma once
#include <string>
#include <vector>

#include "kernels/base/hd.h"

namespace facet {

// Throws std::runtime_error naming the file and the reason when it cannot be written.
void write_png(const std::string& path, int width, int height, const std::vector<Rgba8>& rgba);

}  // namespace facet
