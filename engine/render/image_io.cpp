// PNG output through stb_image_write (implementation compiled in stb_impl.cpp).
#include "engine/render/image_io.h"

#include <stb_image_write.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace facet {

void write_png(const std::string& path, int width, int height, const std::vector<Rgba8>& rgba) {
  if (rgba.size() != (size_t)width * height)
    throw std::runtime_error(path + ": image has " + std::to_string(rgba.size()) + " pixels, expected " +
                             std::to_string((size_t)width * height));
  // Open first so that the error names the real reason (stb only says it failed).
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw std::runtime_error(path + ": cannot write: " + std::strerror(errno));
  std::fclose(f);
  if (!stbi_write_png(path.c_str(), width, height, 4, rgba.data(), width * 4))
    throw std::runtime_error(path + ": writing the PNG failed");
}

}  // namespace facet
