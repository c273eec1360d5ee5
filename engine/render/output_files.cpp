// .npy (format 1.0: magic, version, header length, a Python dict literal padded to 64 bytes,
// then the little-endian C-order data) and single-channel float .exr (tinyexr) writers, each
// file made in memory and written whole (platform::ReplacingFile), and the check that an output
// is none of the files a run reads.
#include "engine/render/output_files.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "engine/base/platform.h"

#ifdef FACET_HAVE_TINYEXR
#include <tinyexr.h>
#endif

namespace facet {

namespace {

bool ends_with(const std::string& s, const char* suffix) {
  const std::string t(suffix);
  return s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
}

std::runtime_error cannot_write(const std::string& path, const std::string& why) {
  return std::runtime_error(path + ": cannot write: " + why);
}

void write_npy(const std::string& path, const char* descr, int width, int height, const void* data, size_t bytes) {
  std::string header = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (" +
                       std::to_string(height) + ", " + std::to_string(width) + "), }";
  const size_t preamble = 10;  // magic (6), version (2), header length (2)
  header.append(63 - (preamble + header.size()) % 64, ' ');
  header += '\n';
  const unsigned char magic[8] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  const unsigned char len[2] = {(unsigned char)(header.size() & 0xff), (unsigned char)(header.size() >> 8)};
  std::vector<unsigned char> file(magic, magic + 8);
  file.insert(file.end(), len, len + 2);
  file.insert(file.end(), header.begin(), header.end());
  file.insert(file.end(), (const unsigned char*)data, (const unsigned char*)data + bytes);
  write_whole_file(path, file.data(), file.size());
}

#ifdef FACET_HAVE_TINYEXR
// One float channel named "A", ZIP-compressed from 16 pixels on a side: what tinyexr's SaveEXR
// writes for one component, made in memory so that the file is written whole.
void write_exr(const std::string& path, int width, int height, const std::vector<float>& depth) {
  EXRHeader header;
  InitEXRHeader(&header);
  header.compression_type = width < 16 && height < 16 ? TINYEXR_COMPRESSIONTYPE_NONE : TINYEXR_COMPRESSIONTYPE_ZIP;
  EXRChannelInfo channel{};
  std::strcpy(channel.name, "A");
  int pixel_type = TINYEXR_PIXELTYPE_FLOAT, stored_type = TINYEXR_PIXELTYPE_FLOAT;
  header.num_channels = 1;
  header.channels = &channel;
  header.pixel_types = &pixel_type;
  header.requested_pixel_types = &stored_type;
  EXRImage image;
  InitEXRImage(&image);
  const float* plane = depth.data();
  image.images = reinterpret_cast<unsigned char**>(const_cast<float**>(&plane));  // only read
  image.num_channels = 1;
  image.width = width;
  image.height = height;
  unsigned char* memory = nullptr;
  const char* err = nullptr;
  const size_t size = SaveEXRImageToMemory(&image, &header, &memory, &err);
  if (size == 0) {
    const std::string why = err ? err : "unknown error";
    if (err) FreeEXRErrorMessage(err);
    std::free(memory);
    throw std::runtime_error(path + ": cannot encode the EXR: " + why);
  }
  try {
    write_whole_file(path, memory, size);
  } catch (...) {
    std::free(memory);
    throw;
  }
  std::free(memory);
}
#endif

// `path` as the file system would reach it: symbolic links, "." and ".." resolved as far as the
// path exists, the rest kept as written.
std::string resolved(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec), ec);
  return ec ? path : p.string();
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return (char)std::tolower(c); });
  return s;
}

}  // namespace

void write_whole_file(const std::string& path, const void* data, size_t bytes) {
  platform::ReplacingFile file(path);
  std::string why = file.open();
  if (why.empty()) why = file.write(data, bytes);
  if (why.empty()) why = file.commit();
  if (!why.empty()) throw cannot_write(path, why);
}

void check_writable(const std::string& path) {
  platform::ReplacingFile file(path);
  const std::string why = file.open();
  if (!why.empty()) throw cannot_write(path, why);
  file.abandon();
}

std::string OutputOverInput::message() const {
  return output.what + " " + output.path + " is " + input.what + " (" + input.path + "); choose another output path";
}

std::optional<OutputOverInput> find_output_over_input(const std::vector<NamedFile>& outputs,
                                                      const std::vector<NamedFile>& inputs) {
  std::vector<platform::FileStatus> input_status;
  std::vector<std::string> input_paths;
  for (const NamedFile& in : inputs) {
    input_status.push_back(platform::file_status(in.path));
    input_paths.push_back(resolved(in.path));
  }
  for (const NamedFile& out : outputs) {
    const platform::FileStatus status = platform::file_status(out.path);
    const std::string path = status.exists ? std::string() : resolved(out.path);
    for (size_t i = 0; i < inputs.size(); ++i)
      if (status.exists ? platform::same_file(status, input_status[i]) : path == input_paths[i])
        return OutputOverInput{out, inputs[i]};
  }
  return std::nullopt;
}

std::vector<NamedFile> scene_inputs(const Scene& scene, const std::string& model, const std::string& doing) {
  std::vector<NamedFile> inputs{{"the model being " + doing, model}};
  std::vector<std::string> textures;
  for (const std::string& t : scene.texture_paths) textures.push_back(resolved(t));
  for (size_t i = 1; i < scene.source_files.size(); ++i) {  // [0] is the model
    const std::string& f = scene.source_files[i].path;
    if (!scene.source_files[i].exists()) continue;  // looked for, not read: nothing to lose
    const char* what = ends_with(lower(f), ".mtl") ? "a material library of the model"
                       : std::find(textures.begin(), textures.end(), resolved(f)) != textures.end()
                           ? "a texture of the model"
                       : ends_with(lower(f), ".bin") ? "a buffer of the model"
                                                     : "a file the model's load read";
    inputs.push_back({what, f});
  }
  return inputs;
}

void write_depth_file(const std::string& path, int width, int height, const std::vector<float>& depth) {
  if (ends_with(path, ".npy")) return write_npy(path, "<f4", width, height, depth.data(), depth.size() * 4);
  if (!ends_with(path, ".exr")) throw std::runtime_error(path + ": depth files are .npy or .exr");
#ifdef FACET_HAVE_TINYEXR
  write_exr(path, width, height, depth);
#else
  (void)width, (void)height;
  throw std::runtime_error(path + ": facet was built without tinyexr (libtinyexr-dev); write .npy instead");
#endif
}

void write_ids_file(const std::string& path, int width, int height, const std::vector<int32_t>& ids) {
  if (!ends_with(path, ".npy")) throw std::runtime_error(path + ": triangle id files are .npy");
  write_npy(path, "<i4", width, height, ids.data(), ids.size() * 4);
}

void write_frame_output_files(Renderer& renderer, int width, int height, const std::string& depth_path,
                              const std::string& ids_path) {
  if (depth_path.empty() && ids_path.empty()) return;
  const size_t pixels = (size_t)width * height;
  std::vector<float> depth(depth_path.empty() ? 0 : pixels);
  std::vector<int32_t> ids(ids_path.empty() ? 0 : pixels);
  FrameOutputs out;
  out.depth = depth.empty() ? nullptr : depth.data();
  out.triangle_id = ids.empty() ? nullptr : ids.data();
  renderer.read_outputs(out);
  if (!depth_path.empty()) write_depth_file(depth_path, width, height, depth);
  if (!ids_path.empty()) write_ids_file(ids_path, width, height, ids);
}

}  // namespace facet
