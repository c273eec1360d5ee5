// Texture files through stb_image (see texture_file.h). Always asks stb for 4 channels of 8 bits,
// which also converts greyscale and 16-bit PNGs.
#include "engine/scene/texture_file.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include <stb_image.h>

#include "engine/base/platform.h"

namespace facet {

namespace {

// Uncompressed TGA and BMP store every pixel: a file shorter than its header's size claims is
// truncated. stb_image would decode the missing part as zeros, so a 30-byte file could cost a
// gigabyte and seconds; refuse it instead. Other formats (and RLE/compressed variants) pass.
// `hd`: the file's first bytes (n of them).
bool truncated_uncompressed(const unsigned char* hd, size_t n, int w, int h, long long file_size, std::string* why) {
  long long need = -1;
  auto u16 = [&](int o) { return (long long)hd[o] | ((long long)hd[o + 1] << 8); };
  auto u32 = [&](int o) { return u16(o) | (u16(o + 2) << 16); };
  if (n >= 54 && hd[0] == 'B' && hd[1] == 'M' && u32(30) == 0) {  // BMP, BI_RGB
    long long row = ((u16(28) * (long long)w + 31) / 32) * 4;
    need = u32(10) + row * h;
  } else if (n >= 18 && (hd[2] == 1 || hd[2] == 2 || hd[2] == 3)) {  // TGA, uncompressed
    long long colormap = hd[1] ? u16(5) * ((hd[7] + 7) / 8) : 0;
    need = 18 + hd[0] + colormap + (long long)w * h * ((hd[16] + 7) / 8);
  }
  if (need < 0 || file_size >= need) return false;
  *why = "truncated: its header declares " + std::to_string(w) + "x" + std::to_string(h) + " uncompressed pixels (" +
         std::to_string(need) + " bytes) but the file has " + std::to_string(file_size) + " bytes";
  return true;
}

// Closes the file on every return path.
struct FileOwner {
  std::FILE* f;
  ~FileOwner() {
    if (f) std::fclose(f);
  }
};

// Why stb refused the last image, or `fallback` where it gives no reason.
std::string stb_reason(const char* fallback) {
  const char* why = stbi_failure_reason();
  return why && *why ? why : fallback;
}

// Refuses (with the reason in *error) an image whose header gives a size outside 1..kMaxTextureSide
// a side, or more texels than its `bytes` can honestly hold (kMaxTextureInflation), before
// decoding allocates for it.
bool size_in_bounds(int w, int h, uint64_t bytes, std::string* error) {
  if (!(w > 0 && h > 0 && w <= kMaxTextureSide && h <= kMaxTextureSide)) {
    *error = "image size " + std::to_string(w) + "x" + std::to_string(h) + " is outside 1.." +
             std::to_string(kMaxTextureSide) + " per side";
    return false;
  }
  const uint64_t decoded = (uint64_t)w * (uint64_t)h * sizeof(Rgba8);
  if (decoded <= kTextureBytesAlwaysDecoded || decoded / kMaxTextureInflation <= bytes) return true;
  *error = "image size " + std::to_string(w) + "x" + std::to_string(h) + " would decode to " +
           std::to_string(decoded >> 20) + " MiB from " + std::to_string(bytes) + " bytes, more than " +
           std::to_string(kMaxTextureInflation) + " times its size: refused as a decompression bomb";
  return false;
}

// The size a PNG's header declares, for the message when stb refuses it: stb tries every format
// in turn, and its last reason ("unknown image type") hides the PNG's own ("too large").
std::string png_declared_size(const unsigned char* hd, size_t n) {
  static const unsigned char kPng[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (n < 24 || std::memcmp(hd, kPng, 8) != 0) return "";
  auto be32 = [&](int o) {
    return (uint32_t)hd[o] << 24 | (uint32_t)hd[o + 1] << 16 | (uint32_t)hd[o + 2] << 8 | hd[o + 3];
  };
  return "a PNG of " + std::to_string(be32(16)) + "x" + std::to_string(be32(20));
}

}  // namespace

bool read_texture_file(const std::string& path, TextureImage* out, std::string* error) {
  // Only regular files are opened: opening a FIFO would wait for a writer.
  platform::FileStatus st = platform::file_status(path);
  if (!st.exists) {
    *error = st.error;
    return false;
  }
  if (!st.regular) {
    *error = st.directory ? "is a directory" : "not a regular file";
    return false;
  }
  // Then one open file for every step (size, header checks, decode): what was checked is what
  // is decoded, even if the path is replaced meanwhile.
  FileOwner file{platform::open_regular_file(path)};
  if (!file.f) {
    *error = std::strerror(errno);
    return false;
  }
  st = platform::file_status(file.f);
  if (!st.exists || !st.regular) {
    *error = "not a regular file";
    return false;
  }
  int w = 0, h = 0, channels = 0;
  // Header first: refuse giant sizes before decoding allocates for them. (stbi_info_from_file
  // leaves the file where it found it.)
  unsigned char header[54] = {};
  const size_t header_bytes = std::fread(header, 1, sizeof header, file.f);
  std::rewind(file.f);
  if (!stbi_info_from_file(file.f, &w, &h, &channels)) {
    const std::string png = png_declared_size(header, header_bytes);
    *error = png.empty() ? "not a readable image (" + stb_reason("unknown format") + ")"
                         : png + " that cannot be read (too large, or a damaged header; at most " +
                               std::to_string(kMaxTextureSide) + " a side)";
    return false;
  }
  // Truncation first: it names the precise fault of a short uncompressed file.
  if (truncated_uncompressed(header, header_bytes, w, h, (long long)st.size, error)) return false;
  if (!size_in_bounds(w, h, st.size, error)) return false;
  std::rewind(file.f);
  stbi_uc* pixels = stbi_load_from_file(file.f, &w, &h, &channels, 4);
  if (!pixels) {
    *error = "cannot decode image (" + stb_reason("unknown error") + ")";
    return false;
  }
  out->width = w;
  out->height = h;
  out->texels.resize((size_t)w * h);
  std::memcpy(out->texels.data(), pixels, (size_t)w * h * 4);
  stbi_image_free(pixels);
  return true;
}

bool decode_texture_memory(const unsigned char* data, size_t size, TextureImage* out, std::string* error) {
  int w = 0, h = 0, channels = 0;
  if (size == 0 || size > (size_t)INT32_MAX || !stbi_info_from_memory(data, (int)size, &w, &h, &channels)) {
    *error = "not a readable image (" + (size ? stb_reason("unknown format") : std::string("no bytes")) + ")";
    return false;
  }
  if (truncated_uncompressed(data, size, w, h, (long long)size, error)) return false;
  if (!size_in_bounds(w, h, size, error)) return false;
  stbi_uc* pixels = stbi_load_from_memory(data, (int)size, &w, &h, &channels, 4);
  if (!pixels) {
    *error = "cannot decode image (" + stb_reason("unknown error") + ")";
    return false;
  }
  out->width = w;
  out->height = h;
  out->texels.assign((const Rgba8*)pixels, (const Rgba8*)pixels + (size_t)w * h);
  stbi_image_free(pixels);
  return true;
}

}  // namespace facet
