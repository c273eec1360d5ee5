// Framebuffer to PNG: read back with GL, written through the engine's PNG writer (image_io.h),
// whole or not at all.
#include "app/viewer/window/screenshot.h"

#include <glad/gl.h>

#include <cstring>
#include <vector>

#include "engine/render/image_io.h"

namespace facet {

void save_framebuffer_png(const std::string& path, int width, int height) {
  std::vector<Rgba8> pixels((size_t)width * height);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  // GL's row 0 is the bottom; PNG's is the top. Alpha is whatever the window kept: make it opaque.
  std::vector<Rgba8> flipped(pixels.size());
  const size_t row = (size_t)width;
  for (int y = 0; y < height; ++y)
    std::memcpy(&flipped[(size_t)(height - 1 - y) * row], &pixels[(size_t)y * row], row * sizeof(Rgba8));
  for (Rgba8& p : flipped) p.a = 255;
  write_png(path, width, height, flipped);
}

}  // namespace facet
