// Reading one texture image file (PNG, JPEG, TGA, BMP, ... through stb_image) into RGBA8 texels,
// row 0 = top. Greyscale, grey+alpha, RGB and 16-bit images are converted. Mip chains are built
// elsewhere (scene.cpp add_texture).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/base/hd.h"

namespace facet {

struct TextureImage {
  int width = 0, height = 0;
  std::vector<Rgba8> texels;  // width * height, row 0 = top of the image
};

// Largest texture side accepted: a bigger one is most likely a corrupt header.
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
constexpr int kMaxTextureSide = 16384;
#else
// The fuzz build (tests/fuzz) only: the same check with a smaller bound. stb_image decodes a
// truncated uncompressed TGA without complaint, so a 30-byte file can declare 16384x16384 and cost
// a 1 GiB decode plus mips: slow and big under ASan (a libFuzzer timeout), though within the
// limit above. The fuzzer is after crashes, not the price of the largest legal texture.
constexpr int kMaxTextureSide = 2048;
#endif

// Texels a texture may have at most for its bytes: a real image compresses a few times, flat art
// some hundred times (the assets' most is 157 for RGBA8); a 67 KB PNG declaring 8192x8192 of one
// grey would cost 256 MiB decoded and 341 with its mips. Images up to kTextureBytesAlwaysDecoded
// (a 2048x2048 RGBA8 texture) decode whatever their file size.
constexpr uint64_t kMaxTextureInflation = 1024;
constexpr uint64_t kTextureBytesAlwaysDecoded = uint64_t(16) << 20;

// Returns false with *error set to the reason (no file name in it) when the file is missing,
// unreadable, not an image, or too large.
bool read_texture_file(const std::string& path, TextureImage* out, std::string* error);

// The same for an image already in memory (a glTF data URI or buffer view).
bool decode_texture_memory(const unsigned char* data, size_t size, TextureImage* out, std::string* error);

}  // namespace facet
