// Output files (engine/render/image_io.h, output_files.h, platform::ReplacingFile): a PNG, .npy or
// .exr is written whole or not at all, a failed write (a full disk: /dev/full; a file-size limit
// reached mid-file) throws naming the path and the system's reason and leaves the previous file
// as it was and no temporary file behind; an output is matched against the files a load read by
// identity (hard and symbolic links) and by resolved path.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include "engine/base/platform.h"
#include "engine/load/load_model.h"
#include "engine/render/image_io.h"
#include "engine/render/output_files.h"
#include "engine/scene/texture_file.h"
#include "tests/support/scratch_dir.h"

namespace facet {
namespace {

namespace fs = std::filesystem;

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The names in `dir`, for "nothing else was left behind".
std::vector<std::string> names_in(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// Pixels that do not compress: a PNG of them is about 4 bytes a pixel.
std::vector<Rgba8> noise(int width, int height) {
  std::mt19937 random(7);
  std::vector<Rgba8> rgba((size_t)width * height);
  for (Rgba8& p : rgba) p = Rgba8{(uint8_t)random(), (uint8_t)random(), (uint8_t)random(), 255};
  return rgba;
}

// What the error of `write` says, or "" when it did not throw.
template <class Write>
std::string error_of(Write&& write) {
  try {
    write();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

// Files may grow to `bytes` while alive (RLIMIT_FSIZE), with SIGXFSZ ignored: a write past the
// limit fails with EFBIG, as one on a full disk fails with ENOSPC.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    getrlimit(RLIMIT_FSIZE, &m_before);
    m_handler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit limit = m_before;
    limit.rlim_cur = bytes;
    setrlimit(RLIMIT_FSIZE, &limit);
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &m_before);
    std::signal(SIGXFSZ, m_handler);
  }

 private:
  rlimit m_before{};
  void (*m_handler)(int) = nullptr;
};

TEST(WritePng, WritesTheImageWhole) {
  test::ScratchDir dir;
  const std::vector<Rgba8> image = noise(7, 5);
  write_png(dir.path("a.png"), 7, 5, image);
  TextureImage read;
  std::string why;
  ASSERT_TRUE(read_texture_file(dir.path("a.png"), &read, &why)) << why;
  ASSERT_EQ(read.width, 7);
  ASSERT_EQ(read.height, 5);
  for (size_t i = 0; i < image.size(); ++i) ASSERT_EQ(std::memcmp(&read.texels[i], &image[i], 4), 0) << i;
  const std::vector<uint8_t> png = encode_png(7, 5, image);
  EXPECT_EQ(bytes_of(dir.path("a.png")), std::string(png.begin(), png.end()));
  EXPECT_EQ(names_in(dir.path("")), std::vector<std::string>{"a.png"}) << "no temporary file is left";
}

TEST(WritePng, AFullDiskIsAnErrorNamingThePathAndTheReason) {
  const std::string error = error_of([] { write_png("/dev/full", 8, 8, noise(8, 8)); });
  EXPECT_NE(error.find("/dev/full: cannot write: "), std::string::npos) << error;
  EXPECT_NE(error.find(std::strerror(ENOSPC)), std::string::npos) << error;
}

TEST(WritePng, AWriteThatFailsMidFileLeavesThePreviousFileAndNothingElse) {
  test::ScratchDir dir;
  const std::string path = dir.write("out.png", "the previous file");
  std::string error;
  {
    FileSizeLimit limit(1024);  // the PNG of 64 x 64 noise is about 16 KiB
    error = error_of([&] { write_png(path, 64, 64, noise(64, 64)); });
  }
  EXPECT_NE(error.find(path + ": cannot write: " + std::strerror(EFBIG)), std::string::npos) << error;
  EXPECT_EQ(bytes_of(path), "the previous file");
  EXPECT_EQ(names_in(dir.path("")), std::vector<std::string>{"out.png"});
}

TEST(WritePng, AMissingFolderIsAnErrorNamingThePathAndTheReason) {
  test::ScratchDir dir;
  const std::string path = dir.path("missing/out.png");
  const std::string error = error_of([&] { write_png(path, 2, 2, noise(2, 2)); });
  EXPECT_EQ(error, path + ": cannot write: " + std::strerror(ENOENT));
}

TEST(WritePng, AFolderInTheWayIsAnErrorAndStays) {
  test::ScratchDir dir;
  fs::create_directories(dir.path("out.png"));
  const std::string error = error_of([&] { write_png(dir.path("out.png"), 2, 2, noise(2, 2)); });
  EXPECT_EQ(error, dir.path("out.png") + ": cannot write: " + std::strerror(EISDIR));
  EXPECT_TRUE(fs::is_directory(dir.path("out.png")));
  EXPECT_EQ(names_in(dir.path("")), std::vector<std::string>{"out.png"});
}

TEST(WritePng, ThroughASymbolicLinkReplacesTheFileItNamesAndKeepsTheLink) {
  test::ScratchDir dir;
  dir.write("real.png", "old");
  fs::create_symlink(dir.path("real.png"), dir.path("link.png"));
  write_png(dir.path("link.png"), 3, 2, noise(3, 2));
  EXPECT_TRUE(fs::is_symlink(dir.path("link.png")));
  const std::vector<uint8_t> png = encode_png(3, 2, noise(3, 2));
  EXPECT_EQ(bytes_of(dir.path("real.png")), std::string(png.begin(), png.end()));
  EXPECT_EQ(names_in(dir.path("")), (std::vector<std::string>{"link.png", "real.png"}));
}

TEST(ReplacingFile, ARenameThatFailsRemovesTheTemporaryFile) {
  test::ScratchDir dir;
  platform::ReplacingFile file(dir.path("out.bin"));
  ASSERT_EQ(file.open(), "");
  ASSERT_EQ(file.write("bytes", 5), "");
  EXPECT_NE(file.writing(), dir.path("out.bin"));
  EXPECT_TRUE(fs::exists(file.writing()));
  fs::create_directories(dir.path("out.bin/inside"));  // a folder, not empty, now in the target's place
  EXPECT_NE(file.commit(), "");
  EXPECT_EQ(names_in(dir.path("")), std::vector<std::string>{"out.bin"});
}

TEST(ReplacingFile, AbandonedBeforeCommitLeavesTheTargetAsItWas) {
  test::ScratchDir dir;
  const std::string path = dir.write("out.bin", "before");
  {
    platform::ReplacingFile file(path);
    ASSERT_EQ(file.open(), "");
    ASSERT_EQ(file.write("after", 5), "");
  }
  EXPECT_EQ(bytes_of(path), "before");
  EXPECT_EQ(names_in(dir.path("")), std::vector<std::string>{"out.bin"});
}

TEST(ReplacingFile, ANewFileGetsThePermissionsOfTheUmask) {
  test::ScratchDir dir;
  const mode_t mask = umask(022);
  write_whole_file(dir.path("f"), "x", 1);
  umask(mask);
  EXPECT_EQ(fs::status(dir.path("f")).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read);
}

TEST(WriteDepthFile, NpyIsTheHeaderAndTheFloats) {
  test::ScratchDir dir;
  write_depth_file(dir.path("d.npy"), 3, 2, {0, 1, 2, 3, 4, 5});
  const std::string file = bytes_of(dir.path("d.npy"));
  ASSERT_EQ(file.size(), 128u + 24u);
  EXPECT_EQ(file.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  EXPECT_NE(file.find("'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"), std::string::npos);
  EXPECT_EQ(file[127], '\n');
  float last = 0;
  std::memcpy(&last, file.data() + 128 + 20, 4);
  EXPECT_EQ(last, 5.0f);
}

TEST(WriteDepthFile, AFullDiskIsAnErrorNamingThePathAndTheReason) {
  test::ScratchDir dir;
  fs::create_symlink("/dev/full", dir.path("full.npy"));
  const std::string error = error_of([&] { write_depth_file(dir.path("full.npy"), 2, 2, {1, 2, 3, 4}); });
  EXPECT_EQ(error, dir.path("full.npy") + ": cannot write: " + std::strerror(ENOSPC));
  EXPECT_EQ(names_in(dir.path("")), std::vector<std::string>{"full.npy"});
}

TEST(WriteDepthFile, ExrAsTinyexrWritesIt) {
  test::ScratchDir dir;
  const std::string error = error_of([&] { write_depth_file(dir.path("d.exr"), 20, 17, std::vector<float>(340, 2)); });
  if (error.find("without tinyexr") != std::string::npos) GTEST_SKIP() << error;
  ASSERT_EQ(error, "");
  const std::string file = bytes_of(dir.path("d.exr"));
  ASSERT_GT(file.size(), 4u);
  EXPECT_EQ(file.substr(0, 4), std::string("\x76\x2f\x31\x01", 4)) << "OpenEXR's magic number";
  fs::create_symlink("/dev/full", dir.path("full.exr"));
  const std::string full = error_of([&] { write_depth_file(dir.path("full.exr"), 2, 2, {1, 2, 3, 4}); });
  EXPECT_EQ(full, dir.path("full.exr") + ": cannot write: " + std::strerror(ENOSPC));
}

// A textured OBJ: the model, its MTL and its texture are the files its load reads.
struct TexturedModel {
  test::ScratchDir dir;
  std::string obj, mtl, png;
  TexturedModel() {
    obj = dir.write("m/quad.obj",
                    "mtllib quad.mtl\nv 0 0 0\nv 1 0 0\nv 1 1 0\nvt 0 0\nvt 1 0\nvt 1 1\nusemtl t\nf 1/1 2/2 3/3\n");
    mtl = dir.write("m/quad.mtl", "newmtl t\nKd 1 1 1\nmap_Kd quad.png\n");
    png = dir.path("m/quad.png");
    write_png(png, 2, 2, noise(2, 2));
  }
};

TEST(SceneSourceFiles, ALoadRecordsTheModelItsMtlAndItsTextureAlikeFromTheCache) {
  TexturedModel m;
  LoadOptions options;
  const auto expected = std::vector<std::string>{fs::canonical(m.obj).string(), fs::canonical(m.mtl).string(),
                                                 fs::canonical(m.png).string()};
  auto paths = [](const Scene& s) {
    std::vector<std::string> out;
    for (const SourceFile& f : s.source_files) out.push_back(f.path);
    return out;
  };
  EXPECT_EQ(paths(load_model(m.obj, options)), expected);
  options.use_cache = true;
  options.cache_dir = m.dir.path("cache");
  EXPECT_EQ(paths(load_model(m.obj, options)), expected) << "a fresh load that stores";
  EXPECT_EQ(paths(load_model(m.obj, options)), expected) << "a cache hit";
}

TEST(OutputOverInput, TheSameFileUnderAnyNameIsFoundAndNamed) {
  TexturedModel m;
  const Scene scene = load_model(m.obj);
  const std::vector<NamedFile> inputs = scene_inputs(scene, m.obj, "rendered");
  fs::create_hard_link(m.obj, m.dir.path("hard.png"));
  fs::create_symlink(m.mtl, m.dir.path("soft.npy"));
  const auto model = find_output_over_input({{"-o", m.dir.path("hard.png")}}, inputs);
  ASSERT_TRUE(model);
  EXPECT_EQ(model->message(), "-o " + m.dir.path("hard.png") + " is the model being rendered (" + m.obj +
                                  "); choose another output path");
  const auto mtl = find_output_over_input({{"--depth", m.dir.path("soft.npy")}}, inputs);
  ASSERT_TRUE(mtl);
  EXPECT_EQ(mtl->input.what, "a material library of the model");
  const auto texture = find_output_over_input({{"--ids", m.dir.path("m/../m/./quad.png")}}, inputs);
  ASSERT_TRUE(texture);
  EXPECT_EQ(texture->input.what, "a texture of the model");
}

TEST(OutputOverInput, AFileNotYetThereMatchesByResolvedPath) {
  test::ScratchDir dir;
  fs::create_directories(dir.path("a"));
  fs::create_symlink(dir.path("a"), dir.path("b"));
  EXPECT_TRUE(find_output_over_input({{"-o", dir.path("b/new.png")}}, {{"the model", dir.path("a/./new.png")}}));
  EXPECT_FALSE(find_output_over_input({{"-o", dir.path("b/new.png")}}, {{"the model", dir.path("a/other.png")}}));
}

TEST(OutputOverInput, OtherFilesAreSpared) {
  TexturedModel m;
  const Scene scene = load_model(m.obj);
  m.dir.write("m/out.png", "an earlier frame");
  EXPECT_FALSE(find_output_over_input({{"-o", m.dir.path("m/out.png")}, {"--depth", m.dir.path("m/d.npy")}},
                                      scene_inputs(scene, m.obj, "rendered")));
}

}  // namespace
}  // namespace facet
