// How plan_geometry_work (engine/render/frame_plan.h) shares the meshlets among geometry blocks, as
// properties that hold whatever the thresholds of kernels/frame/tuning.h are: never more blocks than
// meshlets or than fit at once, a valid chunk, a shape that changes in one direction as a scene
// grows, and occlusion culling only where the frame allows it; and where plan_resolve_tiles gives
// resolve's warps tiles of pixels.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/render/frame_plan.h"
#include "kernels/frame/params.h"
#include "kernels/frame/tuning.h"

namespace facet {
namespace {

constexpr uint32_t kResident = 132 * 16;  // an H200's claiming blocks; any positive count works

GeometryPlan planned(uint32_t meshlets, int width, int height, OcclusionMode mode = OcclusionMode::Auto,
                     bool buffers = true, bool cull_backfaces = false, bool force = false, int samples = 1) {
  GeometryPlanInput in;
  in.meshlet_count = meshlets;
  in.width = width;
  in.height = height;
  in.samples = samples;
  in.resident_blocks = kResident;
  in.occlusion_buffers = buffers;
  in.occlusion = mode;
  in.cull_backfaces = cull_backfaces;
  in.force_claims = force;
  return plan_geometry_work(in);
}

TEST(GeometryPlan, NeverMoreBlocksThanMeshletsOrResidentBlocks) {
  for (uint32_t m : {1u, 7u, 100u, kResident, kResident + 1, 15880u, 161000u, 3000000u})
    for (auto [w, h] : {std::pair{64, 64}, std::pair{1920, 1080}, std::pair{3840, 2160}})
      for (bool force : {false, true}) {
        const GeometryPlan p = planned(m, w, h, OcclusionMode::Auto, true, false, force);
        EXPECT_LE(p.blocks, m) << m << " " << w;
        EXPECT_GE(p.blocks, 1u) << m << " " << w;
        if (p.claims)
          EXPECT_LE(p.blocks, kResident) << m << " " << w;
        else
          EXPECT_EQ(p.blocks, m) << "a block per meshlet: " << m << " " << w;
        EXPECT_GE(p.meshlet_chunk, 1u);
        EXPECT_LE(p.meshlet_chunk, (uint32_t)kGeometryClaimingThreads) << "one meshlet tested a thread";
      }
}

TEST(GeometryPlan, ClaimingOnceAScenePassesTheLaunchThresholdAndNeverBack) {
  // At a size where no scene is dense, the shape depends on the meshlet count alone, and switches
  // to claiming blocks once, at kMeshletsPerBlockForLaunches meshlets a resident block.
  const uint64_t threshold = kMeshletsPerBlockForLaunches * kResident;
  bool claimed = false;
  for (uint64_t m = 1; m <= 4 * threshold; m += threshold / 16 + 1) {
    const bool claims = planned((uint32_t)m, 16384, 16384).claims;
    EXPECT_FALSE(claimed && !claims) << "back to a block per meshlet at " << m;
    claimed = claimed || claims;
    EXPECT_EQ(claims, m > threshold) << m;
  }
  EXPECT_TRUE(claimed);
}

TEST(GeometryPlan, DenseFramesClaimAtFewerMeshlets) {
  // The same scene: claiming in a frame with fewer pixels than twice its triangles, a block per
  // meshlet in one large enough that most triangles draw pixels.
  const uint32_t m = 4 * kResident;
  const uint64_t triangles = (uint64_t)m * kMeshletMaxTriangles;
  EXPECT_TRUE(planned(m, 1024, (int)(triangles * kDensePixelsPerTriangle / 1024 / 2)).claims);
  EXPECT_FALSE(planned(m, 16384, 16384).claims);
  // Never dense with at most one meshlet a resident block: a block each.
  EXPECT_FALSE(planned(kResident, 64, 64).claims);
}

TEST(GeometryPlan, ChunksGrowWithTheSceneAndStayBounded) {
  uint32_t last = 0;
  for (uint32_t m : {20000u, 161000u, 1000000u, 4000000u, 40000000u}) {
    const GeometryPlan p = planned(m, 1920, 1080);
    ASSERT_TRUE(p.claims);
    EXPECT_GE(p.meshlet_chunk, last) << m;
    last = p.meshlet_chunk;
  }
  EXPECT_EQ(last, (uint32_t)kGeometryClaimingThreads) << "capped for the largest scene";
}

TEST(GeometryPlan, OcclusionCullingOnlyForDenseTwoSidedFramesOfManyMeshlets) {
  const uint32_t many = (uint32_t)(kOcclusionMeshletsPerBlock * kResident);
  const GeometryPlan auto_plan = planned(many, 1920, 1080);
  EXPECT_TRUE(auto_plan.occlusion);
  EXPECT_TRUE(auto_plan.claims) << "the passes run on claiming blocks";
  EXPECT_FALSE(planned(many - 1, 1920, 1080).occlusion) << "too few meshlets a block";
  EXPECT_FALSE(planned(many, 16384, 16384).occlusion) << "not dense";
  EXPECT_FALSE(planned(many, 1920, 1080, OcclusionMode::Auto, true, true).occlusion)
      << "back faces culled: the normal cones drop the hidden half already";
  EXPECT_FALSE(planned(many, 1920, 1080, OcclusionMode::Off).occlusion);
  EXPECT_FALSE(planned(many, 1920, 1080, OcclusionMode::Always, false).occlusion) << "no buffers";
  EXPECT_FALSE(planned(0, 1920, 1080, OcclusionMode::Always).occlusion) << "no meshlets";
  const GeometryPlan always = planned(10, 64, 64, OcclusionMode::Always);
  EXPECT_TRUE(always.occlusion);
  EXPECT_TRUE(always.claims);
  EXPECT_TRUE(planned(many, 1920, 1080, OcclusionMode::Always, true, true).occlusion);
}

TEST(GeometryPlan, AGridOfFewerBlocksThanSmsQueuesItsSmallTriangles) {
  // A block per meshlet and fewer meshlets than SMs: the blocks keep only boxes of a few samples,
  // the rest go to the warps that fill every SM. Otherwise kSmallTriPixels (a scan of 600
  // meshlets, which reach every SM, included).
  const uint32_t sms = (uint32_t)((uint64_t)kResident * kGeometryClaimingThreads / kGeometryThreadsPerSm);
  ASSERT_EQ(sms, 132u);
  const uint32_t few = sms - 1;
  for (int samples : {1, 4, 8}) {
    for (uint32_t m : {1u, 15u, 47u, few}) {
      const GeometryPlan p = planned(m, 1920, 1080, OcclusionMode::Auto, true, false, false, samples);
      ASSERT_FALSE(p.claims) << m;
      EXPECT_EQ(p.small_tri_pixels, std::max(1, kFewMeshletsSmallSamples / samples)) << m << " " << samples;
      EXPECT_LT(p.small_tri_pixels, kSmallTriPixels);
    }
    for (uint32_t m : {few + 1, 600u, 4 * kResident, 161000u, 3000000u})
      EXPECT_EQ(planned(m, 1920, 1080, OcclusionMode::Auto, true, false, false, samples).small_tri_pixels,
                kSmallTriPixels)
          << m << " " << samples;
    EXPECT_EQ(planned(15, 1920, 1080, OcclusionMode::Auto, true, false, true, samples).small_tri_pixels,
              kSmallTriPixels)
        << "claiming blocks keep theirs";
  }
}

bool tiles(uint64_t box_pixels, uint64_t triangles, int samples, bool plain) {
  ResolvePlanInput in;
  in.box_pixels = box_pixels;
  in.triangles = triangles;
  in.samples = samples;
  in.plain = plain;
  return plan_resolve_tiles(in);
}

TEST(ResolvePlan, TilesFromTheThresholdOfPixelsATriangleAndNeverBack) {
  const uint64_t box = 600ull * 600ull;
  for (int samples : {1, 4, 8})
    for (bool plain : {false, true}) {
      bool tiled = false;
      // Fewer triangles, more pixels each: once tiles, always tiles.
      for (uint64_t t = 2000000; t >= 1; t = t * 9 / 10) {
        const bool now = tiles(box, t, samples, plain);
        EXPECT_FALSE(tiled && !now) << "back to rows at " << t << " triangles";
        tiled = tiled || now;
        if (!(plain && samples == 1)) {
          EXPECT_EQ(now, box / t >= kResolveTilePixelsPerTriangle) << t;
        }
        if (t == 1) break;
      }
      EXPECT_EQ(tiled, !(plain && samples == 1)) << samples << " " << plain;
    }
}

TEST(ResolvePlan, NoTilesForAnEmptyBoxNoTrianglesOrThePlainKernelAtOneSample) {
  for (int samples : {1, 4, 8}) {
    EXPECT_FALSE(tiles(0, 100, samples, false));
    EXPECT_FALSE(tiles(1920ull * 1080ull, 0, samples, false));
    EXPECT_FALSE(tiles(1920ull * 1080ull, 0, samples, true));
  }
  EXPECT_FALSE(tiles(1920ull * 1080ull, 2, 1, true)) << "one triangle a pixel: nothing to save";
  EXPECT_TRUE(tiles(1920ull * 1080ull, 2, 1, false));
  EXPECT_TRUE(tiles(1920ull * 1080ull, 2, 4, true));
}

}  // namespace
}  // namespace facet
