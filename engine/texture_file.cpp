// Texture files through stb_image (see texture_file.h). Always asks stb for 4 channels of 8 bits,
// which also converts greyscale and 16-bit PNGs.
#include "engine/texture_file.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include <stb_image.h>

namespace facet {

bool read_texture_file(const std::string& path, TextureImage* out, std::string* error) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    *error = std::strerror(errno);
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    *error = S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file";
    return false;
  }
  int w = 0, h = 0, channels = 0;
  // Header first: refuse giant sizes before decoding allocates for them.
  if (!stbi_info(path.c_str(), &w, &h, &channels)) {
    const char* why = stbi_failure_reason();
    *error = std::string("not a readable image (") + (why ? why : "unknown format") + ")";
    return false;
  }
  if (w <= 0 || h <= 0 || w > kMaxTextureSide || h > kMaxTextureSide) {
    *error = "image size " + std::to_string(w) + "x" + std::to_string(h) + " is outside 1.." +
             std::to_string(kMaxTextureSide) + " per side";
    return false;
  }
  stbi_uc* pixels = stbi_load(path.c_str(), &w, &h, &channels, 4);
  if (!pixels) {
    const char* why = stbi_failure_reason();
    *error = std::string("cannot decode image (") + (why ? why : "unknown error") + ")";
    return false;
  }
  out->width = w;
  out->height = h;
  out->texels.resize((size_t)w * h);
  std::memcpy(out->texels.data(), pixels, (size_t)w * h * 4);
  stbi_image_free(pixels);
  return true;
}

}  // namespace facet
