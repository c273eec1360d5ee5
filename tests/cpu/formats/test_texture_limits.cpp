// Texture files cannot cost more memory than their bytes can honestly hold: a PNG whose
// header declares far more texels than kMaxTextureInflation times its size is refused before any
// decoding, naming both sizes; small images always decode; a PNG too large for stb says so rather
// than "unknown image type".
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "engine/render/image_io.h"
#include "engine/scene/texture_file.h"
#include "tests/support/scratch_dir.h"

namespace facet {
namespace {

// A PNG signature and header chunk declaring width x height of 8-bit grey, and no pixel data:
// all a header check may read.
std::string png_header_only(uint32_t width, uint32_t height) {
  std::string png("\x89PNG\r\n\x1a\n", 8);
  auto be32 = [&](uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) png += (char)((v >> shift) & 0xff);
  };
  be32(13);
  png += "IHDR";
  be32(width);
  be32(height);
  png += std::string("\x08\x00\x00\x00\x00", 5);  // 8 bits, grey, deflate, no filter, no interlace
  be32(0);                                        // the CRC, which the header check does not read
  return png;
}

std::string texture_error(const std::string& path) {
  TextureImage image;
  std::string why;
  EXPECT_FALSE(read_texture_file(path, &image, &why)) << path;
  EXPECT_TRUE(image.texels.empty());
  return why;
}

TEST(TextureLimits, AHeaderDeclaringFarMoreTexelsThanItsBytesIsRefusedBeforeDecoding) {
  test::ScratchDir dir;
  const std::string path = dir.write("bomb.png", png_header_only(8192, 8192));
  std::string why = texture_error(path);
  EXPECT_NE(why.find("8192x8192 would decode to 256 MiB"), std::string::npos) << why;
  EXPECT_NE(why.find("decompression bomb"), std::string::npos) << why;
  const std::string data = png_header_only(8192, 8192);
  TextureImage image;
  EXPECT_FALSE(decode_texture_memory((const unsigned char*)data.data(), data.size(), &image, &why));
  EXPECT_NE(why.find("decompression bomb"), std::string::npos) << "embedded images alike: " << why;
}

TEST(TextureLimits, SmallImagesDecodeWhateverTheirRatio) {
  test::ScratchDir dir;
  const std::string path = dir.path("flat.png");
  write_png(path, 1024, 1024, std::vector<Rgba8>(1024 * 1024, Rgba8{9, 9, 9, 255}));  // 4 MiB, a few KB of file
  TextureImage image;
  std::string why;
  EXPECT_TRUE(read_texture_file(path, &image, &why)) << why;
  EXPECT_EQ(image.width, 1024);
}

TEST(TextureLimits, APngTooLargeForTheDecoderSaysSoNotUnknownType) {
  test::ScratchDir dir;
  const std::string why = texture_error(dir.write("huge.png", png_header_only(100000, 100000)));
  EXPECT_NE(why.find("a PNG of 100000x100000"), std::string::npos) << why;
  EXPECT_EQ(why.find("unknown image type"), std::string::npos) << why;
}

}  // namespace
}  // namespace facet
