// Writing a frame's per-pixel outputs beside its PNG (`facet render --depth FILE --ids FILE`):
// depth as float32 .npy (or .exr through tinyexr, one channel) and triangle ids as int32 .npy,
// row 0 = top. NumPy's .npy format is a 128-byte header and the raw array: written here rather
// than through a library because none in Debian writes it from C++. Also what every output file
// of facet goes through: written whole or not at all, and never over a file the run reads.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/render/renderer.h"

namespace facet {

// Writes `bytes` bytes as the file `path`, whole or not at all (platform::ReplacingFile: beside
// it, then renamed over it): on a failure whatever was at `path` stays as it was, and no other
// file is left behind. Throws std::runtime_error("PATH: cannot write: REASON").
void write_whole_file(const std::string& path, const void* data, size_t bytes);
// Throws as write_whole_file would where `path` cannot be written at all (no such folder, no
// permission, a folder there), writing nothing: for a command that writes only at its end.
void check_writable(const std::string& path);

// A file a command names: one it will write, or one it reads. `what` is how the user knows it:
// the option ("-o", "--depth") or the input's role ("the model being rendered").
struct NamedFile {
  std::string what;
  std::string path;
};
struct OutputOverInput {
  NamedFile output, input;
  // "-o model.obj is the model being rendered (/abs/model.obj); choose another output path"
  std::string message() const;
};
// The first output that is one of the inputs: the same file (device and inode) where the output
// exists, else the same resolved path (symbolic links, "." and ".." resolved; a missing file's
// folder resolved). Nothing when every output spares every input.
std::optional<OutputOverInput> find_output_over_input(const std::vector<NamedFile>& outputs,
                                                      const std::vector<NamedFile>& inputs);
// The files a load of `scene` read (Scene::source_files; not those it looked for and did not
// find), each named for a message: "the model being <doing>" for the model (`model`, as the user
// named it), else "a material library of the model", "a texture of the model", "a buffer of the
// model" or "a file the model's load read".
std::vector<NamedFile> scene_inputs(const Scene& scene, const std::string& model, const std::string& doing);

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
