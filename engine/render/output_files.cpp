// .npy (format 1.0: magic, version, header length, a Python dict literal padded to 64 bytes,
// then the little-endian C-order data) and single-channel float .exr (tinyexr) writers.
#include "engine/render/output_files.h"

#include <cstdio>
#include <memory>
#include <stdexcept>

#ifdef FACET_HAVE_TINYEXR
#include <tinyexr.h>
#endif

namespace facet {

namespace {

bool ends_with(const std::string& s, const char* suffix) {
  const std::string t(suffix);
  return s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
}

void write_npy(const std::string& path, const char* descr, int width, int height, const void* data, size_t bytes) {
  std::string header = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (" +
                       std::to_string(height) + ", " + std::to_string(width) + "), }";
  const size_t preamble = 10;  // magic (6), version (2), header length (2)
  header.append(63 - (preamble + header.size()) % 64, ' ');
  header += '\n';
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "wb"), &std::fclose);
  if (!f) throw std::runtime_error(path + ": cannot open for writing");
  const unsigned char magic[8] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  const unsigned char len[2] = {(unsigned char)(header.size() & 0xff), (unsigned char)(header.size() >> 8)};
  bool ok = std::fwrite(magic, 1, 8, f.get()) == 8 && std::fwrite(len, 1, 2, f.get()) == 2 &&
            std::fwrite(header.data(), 1, header.size(), f.get()) == header.size() &&
            std::fwrite(data, 1, bytes, f.get()) == bytes;
  if (!ok || std::fflush(f.get()) != 0) throw std::runtime_error(path + ": write failed");
}

}  // namespace

void write_depth_file(const std::string& path, int width, int height, const std::vector<float>& depth) {
  if (ends_with(path, ".npy")) return write_npy(path, "<f4", width, height, depth.data(), depth.size() * 4);
  if (!ends_with(path, ".exr")) throw std::runtime_error(path + ": depth files are .npy or .exr");
#ifdef FACET_HAVE_TINYEXR
  const char* err = nullptr;
  if (SaveEXR(depth.data(), width, height, 1, 0, path.c_str(), &err) != TINYEXR_SUCCESS) {
    std::string why = err ? err : "unknown error";
    if (err) FreeEXRErrorMessage(err);
    throw std::runtime_error(path + ": " + why);
  }
#else
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
