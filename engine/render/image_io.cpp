// PNG output through stb_image_write (implementation compiled in stb_impl.cpp), encoded into
// memory: stb's own file writer does not check its writes.
#include "engine/render/image_io.h"

#include <stb_image_write.h>

#include <algorithm>
#include <stdexcept>

#include "engine/render/output_files.h"

namespace facet {

namespace {

void append(void* context, void* data, int size) {
  auto* out = static_cast<std::vector<uint8_t>*>(context);
  out->insert(out->end(), static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + size);
}

}  // namespace

std::vector<uint8_t> encode_png(int width, int height, const std::vector<Rgba8>& rgba) {
  if (width <= 0 || height <= 0 || rgba.size() != (size_t)width * height)
    throw std::runtime_error("the image has " + std::to_string(rgba.size()) + " pixels, expected " +
                             std::to_string((size_t)std::max(width, 0) * std::max(height, 0)));
  std::vector<uint8_t> png;
  if (!stbi_write_png_to_func(append, &png, width, height, 4, rgba.data(), width * 4) || png.empty())
    throw std::runtime_error("the PNG encoder failed (" + std::to_string(width) + "x" + std::to_string(height) + ")");
  return png;
}

void write_png(const std::string& path, int width, int height, const std::vector<Rgba8>& rgba) {
  std::vector<uint8_t> png;
  try {
    png = encode_png(width, height, rgba);
  } catch (const std::exception& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
  write_whole_file(path, png.data(), png.size());
}

}  // namespace facet
