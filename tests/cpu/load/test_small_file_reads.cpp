// Small text files are read whole but never more than a cap, and only from regular files
// (platform::read_small_file): a FIFO nobody writes, /dev/zero, a folder or a sparse
// file of gigabytes given where a defaults file, a cameras file or an MTL is expected is refused
// at once, saying which it is; a model file that is a FIFO is refused without waiting for a writer.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "engine/base/platform.h"
#include "engine/load/load_model.h"
#include "tests/support/scratch_dir.h"

namespace facet {
namespace {

namespace fs = std::filesystem;

std::string refusal(const std::string& path, uint64_t cap) {
  std::string text = "untouched";
  const std::string why = platform::read_small_file(path, cap, text);
  EXPECT_TRUE(text.empty()) << "nothing is handed back with a refusal: " << path;
  return why;
}

TEST(SmallFileReads, ARegularFileComesBackWholeUpToItsCap) {
  test::ScratchDir dir;
  const std::string path = dir.write("a.txt", std::string(1000, 'x'));
  std::string text;
  EXPECT_EQ(platform::read_small_file(path, 1000, text), "");
  EXPECT_EQ(text, std::string(1000, 'x'));
  EXPECT_EQ(refusal(path, 999), "is 1000 bytes; at most 999 are read");
  EXPECT_EQ(platform::read_small_file(dir.write("empty", ""), 10, text), "");
  EXPECT_EQ(text, "");
}

TEST(SmallFileReads, FoldersDevicesAndFifosAreRefusedWithoutReading) {
  test::ScratchDir dir;
  EXPECT_EQ(refusal(dir.path(""), 1 << 20), "is a folder, not a file");
  EXPECT_EQ(refusal("/dev/zero", 1 << 20), "is not a regular file (a FIFO, a device or a socket)");
  const std::string fifo = dir.path("pipe");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(refusal(fifo, 1 << 20), "is not a regular file (a FIFO, a device or a socket)") << "and no hang";
  EXPECT_EQ(refusal(dir.path("missing"), 1 << 20), "No such file or directory");
}

TEST(SmallFileReads, AGigabyteSparseFileIsRefusedBeforeAnyByteIsRead) {
  test::ScratchDir dir;
  const std::string path = dir.write("huge.json", "");
  fs::resize_file(path, uint64_t(2) << 30);  // sparse: no disk used
  EXPECT_EQ(refusal(path, uint64_t(16) << 20), "is 2147483648 bytes; at most 16777216 are read");
}

TEST(SmallFileReads, AModelThatIsAFifoIsRefusedWithoutWaitingForAWriter) {
  test::ScratchDir dir;
  const std::string fifo = dir.path("model.obj");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  try {
    load_model(fifo);
    ADD_FAILURE() << "a FIFO loaded";
  } catch (const LoadError& e) {
    EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
  }
}

TEST(SmallFileReads, AnMtlThatIsADeviceIsAWarningNotAHang) {
  test::ScratchDir dir;
  ASSERT_EQ(mkfifo(dir.path("pipe.mtl").c_str(), 0600), 0);
  const Scene s = load_model(dir.write("m.obj", "mtllib pipe.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl a\nf 1 2 3\n"));
  bool named = false;
  for (const std::string& w : s.warnings)
    named |= w.find("pipe.mtl") != std::string::npos && w.find("not a regular file") != std::string::npos;
  EXPECT_TRUE(named);
}

}  // namespace
}  // namespace facet
