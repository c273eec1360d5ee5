// facet_png_diff: compares two PNGs of the same size for the viewer's scripted tests.
//   facet_png_diff same A B MAX_CHANNEL MAX_FRACTION [DIFF.png]
//     passes when at most MAX_FRACTION of the pixels differ by more than MAX_CHANNEL in some
//     channel; on failure writes DIFF.png (red where they differ).
//   facet_png_diff differ A B MIN_FRACTION
//     passes when at least MIN_FRACTION of the pixels differ at all (e.g. an overlay was drawn).
// Exit code 0 = pass, 1 = fail, 2 = usage or unreadable file.
#include <stb_image.h>
#include <stb_image_write.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

struct Image {
  int width = 0, height = 0;
  std::vector<unsigned char> rgba;
};

bool load(const char* path, Image& img) {
  int channels = 0;
  unsigned char* data = stbi_load(path, &img.width, &img.height, &channels, 4);
  if (!data) {
    std::fprintf(stderr, "%s: cannot read: %s\n", path, stbi_failure_reason());
    return false;
  }
  img.rgba.assign(data, data + (size_t)img.width * img.height * 4);
  stbi_image_free(data);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: %s same A B MAX_CHANNEL MAX_FRACTION [DIFF.png] | differ A B MIN_FRACTION\n", argv[0]);
    return 2;
  }
  std::string mode = argv[1];
  Image a, b;
  if (!load(argv[2], a) || !load(argv[3], b)) return 2;
  if (a.width != b.width || a.height != b.height) {
    std::printf("FAIL: sizes differ: %dx%d vs %dx%d\n", a.width, a.height, b.width, b.height);
    return 1;
  }
  const size_t pixels = (size_t)a.width * a.height;
  const int max_channel = mode == "same" ? std::atoi(argv[4]) : 0;
  size_t over = 0;
  int largest = 0;
  std::vector<unsigned char> diff(pixels * 4, 0);
  for (size_t i = 0; i < pixels; ++i) {
    int d = 0;
    for (int c = 0; c < 3; ++c) d = std::max(d, std::abs((int)a.rgba[i * 4 + c] - (int)b.rgba[i * 4 + c]));
    largest = std::max(largest, d);
    bool bad = d > max_channel;
    over += bad;
    diff[i * 4 + 0] = bad ? 255 : a.rgba[i * 4 + 0] / 4;
    diff[i * 4 + 1] = bad ? 0 : a.rgba[i * 4 + 1] / 4;
    diff[i * 4 + 2] = bad ? 0 : a.rgba[i * 4 + 2] / 4;
    diff[i * 4 + 3] = 255;
  }
  double fraction = (double)over / (double)pixels;
  std::printf("%zu of %zu pixels (%.4f%%) differ by more than %d; largest channel difference %d\n", over, pixels,
              100.0 * fraction, max_channel, largest);
  if (mode == "same") {
    double max_fraction = std::atof(argv[5]);
    if (fraction <= max_fraction) return 0;
    if (argc > 6 && stbi_write_png(argv[6], a.width, a.height, 4, diff.data(), a.width * 4))
      std::printf("diff image: %s\n", argv[6]);
    std::printf("FAIL: more than %.4f%% differ\n", 100.0 * max_fraction);
    return 1;
  }
  if (mode == "differ") {
    double min_fraction = std::atof(argv[4]);
    if (fraction >= min_fraction) return 0;
    std::printf("FAIL: fewer than %.4f%% differ\n", 100.0 * min_fraction);
    return 1;
  }
  std::fprintf(stderr, "unknown mode '%s'\n", mode.c_str());
  return 2;
}
