// Writing frames to PNG (row 0 = top of the image, RGBA8): encoded in memory, then written whole
// or not at all (output_files.h: write_whole_file), so that a failed write never leaves a
// truncated PNG nor passes for success.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/base/hd.h"

namespace facet {

// The PNG file's bytes. Throws std::runtime_error when the pixels do not make width x height or
// the encoder fails.
std::vector<uint8_t> encode_png(int width, int height, const std::vector<Rgba8>& rgba);

// Throws std::runtime_error("PATH: cannot write: REASON", or the encoder's problem) when the file
// cannot be written; what was at `path` then stays as it was.
void write_png(const std::string& path, int width, int height, const std::vector<Rgba8>& rgba);

}  // namespace facet
