// Writing a frame's per-pixel outputs beside its PNG (`facet render --depth FILE --ids FILE`):
// depth as float32 .npy (or .exr through tinyexr, one channel) and triangle ids as int32 .npy,
// row 0 = top. NumPy's .npy format is a 128-byte header and the raw array: written here rather
// than through a library because none in Debian writes it from C++.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "engine/render/renderer.h"

namespace facet {

// Writes a height x width float32 image as `path` (.npy, or .exr where facet was built with
// tinyexr). Throws std::runtime_error("PATH: problem") when it cannot.
void write_depth_file(const std::string& path, int width, int height, const std::vector<float>& depth);
// Writes a height x width int32 image as `path` (.npy only).
void write_ids_file(const std::string& path, int width, int height, const std::vector<int32_t>& ids);

// Reads the renderer's last frame and writes the files whose paths are not empty: depth
// (distance along each pixel's ray, +inf where no triangle) and triangle ids (-1 where none).
void write_frame_output_files(Renderer& renderer, int width, int height, const std::string& depth_path,
                              const std::string& ids_path);

}  // namespace facet
