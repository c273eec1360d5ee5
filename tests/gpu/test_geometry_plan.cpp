// How plan_geometry_work shares the meshlets among geometry blocks. Host code only: runs without a
// device.
#include <gtest/gtest.h>

#include <tuple>

#include "kernels/stages.h"

namespace facet {
namespace {

constexpr uint32_t kResident = 132 * 16;  // an H200's claiming blocks: 132 SMs, 16 each

RasterStageParams planned(uint32_t meshlets, int width, int height, bool force = false) {
  RasterStageParams p{};
  p.meshlet_count = meshlets;
  p.frame.width = width;
  p.frame.height = height;
  plan_geometry_work(p, kResident, force);
  return p;
}

TEST(GeometryPlan, ABlockPerMeshletForFewMeshletsOrLargeTriangles) {
  RasterStageParams p = planned(100, 1920, 1080);
  EXPECT_FALSE(p.meshlet_claims);
  EXPECT_EQ(p.geometry_blocks, 100u);
  EXPECT_EQ(p.meshlet_chunk, 1u);
  // The 2 M sphere's 15,880 meshlets at 4K: about one triangle for four pixels.
  EXPECT_FALSE(planned(15880, 3840, 2160).meshlet_claims);
  // The dragon's 6,900 meshlets at 1080p: under one triangle for two pixels.
  EXPECT_FALSE(planned(6900, 1920, 1080).meshlet_claims);
  // A dense frame of few meshlets (a small test scene in a small frame) keeps a block each.
  EXPECT_FALSE(planned(kResident, 64, 64).meshlet_claims);
}

TEST(GeometryPlan, ClaimsForManyMeshletsOrDenseFrames) {
  // The 2 M sphere at 1080p: a triangle for every pixel.
  RasterStageParams p = planned(15880, 1920, 1080);
  EXPECT_TRUE(p.meshlet_claims);
  EXPECT_EQ(p.geometry_blocks, kResident);
  EXPECT_GE(p.meshlet_chunk, 1u);
  // 20 M triangles: claims at any size, in chunks of about an eighth of a block's share.
  p = planned(161000, 3840, 2160);
  EXPECT_TRUE(p.meshlet_claims);
  EXPECT_EQ(p.meshlet_chunk, 161000u / (8 * kResident));
  // Forced (tests): never more blocks than meshlets.
  p = planned(10, 64, 64, true);
  EXPECT_TRUE(p.meshlet_claims);
  EXPECT_EQ(p.geometry_blocks, 10u);
}

TEST(GeometryPlan, OcclusionCullingWhereTheFrameIsDense) {
  uint32_t seen = 0;  // any non-null array: the renderer's per-meshlet frame numbers
  auto plan = [&](uint32_t meshlets, int width, int height, OcclusionMode mode, bool buffers = true,
                  bool cull_backfaces = false) {
    RasterStageParams p{};
    p.meshlet_count = meshlets;
    p.frame.width = width;
    p.frame.height = height;
    p.frame.cull_backfaces = cull_backfaces;
    p.occlusion.seen = buffers ? &seen : nullptr;
    plan_geometry_work(p, kResident, false, mode);
    return p;
  };
  // The 20 M sphere at 1080p and 4K: dense, culled in two passes by claiming blocks.
  for (auto [m, w, h] : {std::tuple{161000u, 1920, 1080}, std::tuple{161000u, 3840, 2160}}) {
    RasterStageParams p = plan(m, w, h, OcclusionMode::Auto);
    EXPECT_TRUE(p.occlusion.enabled) << m << " " << w;
    EXPECT_TRUE(p.meshlet_claims) << "the passes run on claiming blocks";
    EXPECT_LE(p.geometry_blocks, kResident);
  }
  // The 2 M sphere at 1080p is dense but has under 16 meshlets a resident block; at 4K, and the
  // dragon at 1080p, most triangles draw pixels.
  EXPECT_FALSE(plan(15880, 1920, 1080, OcclusionMode::Auto).occlusion.enabled);
  EXPECT_TRUE(plan(15880, 1920, 1080, OcclusionMode::Auto).meshlet_claims);
  EXPECT_FALSE(plan(15880, 3840, 2160, OcclusionMode::Auto).occlusion.enabled);
  EXPECT_FALSE(plan(6900, 1920, 1080, OcclusionMode::Auto).occlusion.enabled);
  // With back faces culled the normal cones drop the hidden half already: off unless forced.
  EXPECT_FALSE(plan(161000, 1920, 1080, OcclusionMode::Auto, true, true).occlusion.enabled);
  EXPECT_TRUE(plan(161000, 1920, 1080, OcclusionMode::Always, true, true).occlusion.enabled);
  // Forced either way; never without the renderer's buffers or without meshlets.
  RasterStageParams always = plan(10, 64, 64, OcclusionMode::Always);
  EXPECT_TRUE(always.occlusion.enabled);
  EXPECT_TRUE(always.meshlet_claims);
  EXPECT_FALSE(plan(161000, 1920, 1080, OcclusionMode::Off).occlusion.enabled);
  EXPECT_FALSE(plan(161000, 1920, 1080, OcclusionMode::Always, false).occlusion.enabled);
  EXPECT_FALSE(plan(0, 1920, 1080, OcclusionMode::Always).occlusion.enabled);
}

}  // namespace
}  // namespace facet
