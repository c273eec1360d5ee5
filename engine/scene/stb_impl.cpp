// The one translation unit that compiles stb_image and stb_image_write (Debian's libstb-dev
// headers) for the whole program, with its PNG settings. Nothing else belongs here.
//
// PNG writing: stb tries five row filters on every row and deflates with its own compressor,
// slow for a 1080p frame whatever stb's compression level. With every row filtered "up" and zlib
// (zlib1g-dev) deflating at level 1 it is several times faster, and the files are smaller
// (docs/performance.md has the measurement). Without zlib, stb's own deflate with the same filter,
// in between.
#ifdef FACET_HAVE_ZLIB
#include <zlib.h>

#include <cstdlib>

namespace {

// STBIW_ZLIB_COMPRESS's contract: a malloc'd buffer stb frees, or null on failure.
unsigned char* deflate_png_data(unsigned char* data, int length, int* out_length, int /*stb's quality*/) {
  uLongf bound = compressBound((uLong)length);
  unsigned char* out = static_cast<unsigned char*>(std::malloc(bound));
  if (!out) return nullptr;
  constexpr int kLevel = 1;  // the fastest: larger levels cost several times as much for a few %
  if (compress2(out, &bound, data, (uLong)length, kLevel) != Z_OK) {
    std::free(out);
    return nullptr;
  }
  *out_length = (int)bound;
  return out;
}

}  // namespace

#define STBIW_ZLIB_COMPRESS deflate_png_data
#endif

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wall"
#pragma GCC diagnostic ignored "-Wextra"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image.h>
#include <stb_image_write.h>
#pragma GCC diagnostic pop

namespace {

// PNG filter 2 ("up") for every row, set once before main (see the top of this file).
[[maybe_unused]] const bool g_png_filter_chosen = (stbi_write_force_png_filter = 2, true);

}  // namespace
