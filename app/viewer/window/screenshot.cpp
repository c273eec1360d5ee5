// Framebuffer to PNG through stb_image_write (its implementation is compiled in engine/scene/stb_impl.cpp).
#include "app/viewer/window/screenshot.h"

#include <glad/gl.h>
#include <stb_image_write.h>

#include <cstring>
#include <stdexcept>
#include <vector>

namespace facet {

void save_framebuffer_png(const std::string& path, int width, int height) {
  std::vector<unsigned char> pixels((size_t)width * height * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  // GL's row 0 is the bottom; PNG's is the top. Alpha is whatever the window kept: make it opaque.
  std::vector<unsigned char> flipped(pixels.size());
  size_t row = (size_t)width * 4;
  for (int y = 0; y < height; ++y) std::memcpy(&flipped[(size_t)(height - 1 - y) * row], &pixels[(size_t)y * row], row);
  for (size_t i = 3; i < flipped.size(); i += 4) flipped[i] = 255;
  if (!stbi_write_png(path.c_str(), width, height, 4, flipped.data(), (int)row))
    throw std::runtime_error(path + ": cannot write the screenshot");
}

}  // namespace facet
