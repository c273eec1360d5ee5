// StagedUpload: what arrives on the device is, byte for byte, what the fill wrote, for an array
// spanning every staging buffer several times with a short last piece, for one small enough to go
// by plain cudaMemcpy, for records built by the fill itself (interleaved vertices) and for
// 12-byte elements, whose slices start off the 16-byte grid; the staging copy at every alignment
// (host code, run anywhere). The device tests skip, saying why, where no CUDA device exists.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "engine/cuda/device_buffer.h"
#include "engine/cuda/staged_upload.h"
#include "engine/scene/scene.h"
#include "tests/support/gpu_skip.h"

using namespace facet;

namespace {

class StagedUploadTest : public ::testing::Test {
 protected:
  void SetUp() override { FACET_SKIP_WITHOUT_CUDA(); }
};

template <class T>
std::vector<T> copy_to_host(const DeviceBuffer<T>& buffer) {
  std::vector<T> out(buffer.size());
  EXPECT_EQ(cudaMemcpy(out.data(), buffer.data(), buffer.bytes(), cudaMemcpyDeviceToHost), cudaSuccess);
  return out;
}

// Values that differ at every index, so a piece sent to the wrong place shows.
std::vector<uint32_t> numbered(size_t count) {
  std::vector<uint32_t> v(count);
  for (size_t i = 0; i < count; ++i) v[i] = (uint32_t)(i * 2654435761u);
  return v;
}

}  // namespace

TEST_F(StagedUploadTest, ArraySpanningEveryStagingBufferArrivesWhole) {
  const size_t count = (kStageBuffers + 1) * kStageBytes / sizeof(uint32_t) + kStageBytes / 8 + 7;
  const std::vector<uint32_t> src = numbered(count);
  DeviceBuffer<uint32_t> dst;
  StagedUpload staged;
  staged.upload(dst, src, "test array");
  ASSERT_EQ(dst.size(), count);
  EXPECT_TRUE(copy_to_host(dst) == src);
}

TEST_F(StagedUploadTest, SmallArrayArrivesWhole) {
  const std::vector<uint32_t> src = numbered(1000);
  DeviceBuffer<uint32_t> dst;
  StagedUpload staged;
  staged.upload(dst, src, "test array");
  EXPECT_TRUE(copy_to_host(dst) == src);
}

TEST_F(StagedUploadTest, RecordsBuiltByTheFillArriveAsTheHostBuildsThem) {
  Scene s;
  const size_t count = 3 * kStageBytes / sizeof(ShadeVertex) + 5;
  for (size_t i = 0; i < count; ++i) {
    s.positions.push_back({(float)i, -(float)i, 0.5f});
    s.normals.push_back({0, 0, (float)(i % 7)});
  }
  const std::vector<ShadeVertex> expected = interleave_shade_vertices(s);
  DeviceBuffer<ShadeVertex> dst;
  StagedUpload staged;
  staged.upload(dst, count, "test records", [&s](void* host, size_t begin, size_t end) {
    interleave_shade_range(s, begin, end, static_cast<ShadeVertex*>(host));
  });
  const std::vector<ShadeVertex> got = copy_to_host(dst);
  ASSERT_EQ(got.size(), expected.size());
  EXPECT_EQ(std::memcmp(got.data(), expected.data(), got.size() * sizeof(ShadeVertex)), 0);
}

TEST_F(StagedUploadTest, TwelveByteElementsArriveWholeFromSlicesOffTheSixteenByteGrid) {
  std::vector<Vec3> src(2 * kStageBytes / sizeof(Vec3) + 11);
  for (size_t i = 0; i < src.size(); ++i) src[i] = {(float)i, 0.5f * (float)i, -(float)i};
  DeviceBuffer<Vec3> dst;
  StagedUpload staged;
  staged.upload(dst, src, "test positions");
  const std::vector<Vec3> got = copy_to_host(dst);
  ASSERT_EQ(got.size(), src.size());
  EXPECT_EQ(std::memcmp(got.data(), src.data(), got.size() * sizeof(Vec3)), 0);
}

// The staging copy itself (host code: runs with or without a device), at every alignment of
// either side and lengths around its 16- and 64-byte steps.
TEST(CopyToStage, CopiesEveryByteAtEveryAlignmentAndLength) {
  std::vector<unsigned char> src(512), dst(512);
  for (size_t i = 0; i < src.size(); ++i) src[i] = (unsigned char)(i * 37 + 11);
  for (size_t from = 0; from < 17; ++from)
    for (size_t to = 0; to < 17; ++to)
      for (size_t bytes : {0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 200, 300}) {
        std::fill(dst.begin(), dst.end(), 0);
        copy_to_stage(dst.data() + to, src.data() + from, bytes);
        ASSERT_EQ(std::memcmp(dst.data() + to, src.data() + from, bytes), 0) << from << " " << to << " " << bytes;
        for (size_t i = 0; i < to; ++i) ASSERT_EQ(dst[i], 0) << "wrote before the start";
        for (size_t i = to + bytes; i < dst.size(); ++i) ASSERT_EQ(dst[i], 0) << "wrote past the end";
      }
}
