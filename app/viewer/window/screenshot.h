// Screenshots: what is in the bound framebuffer (the frame with the overlay, as shown) to a PNG.
#pragma once
#include <string>

namespace facet {

// Reads width x height pixels of the bound read framebuffer and writes them as an opaque RGBA PNG with
// row 0 = top, whole or not at all. Throws std::runtime_error("PATH: cannot write: REASON") when
// it cannot be written.
void save_framebuffer_png(const std::string& path, int width, int height);

}  // namespace facet
