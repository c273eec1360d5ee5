// plan_geometry_work and plan_resolve_tiles (frame_plan.h): the thresholds and their reasons are
// in kernels/frame/tuning.h.
#include "engine/render/frame_plan.h"

#include <algorithm>

#include "kernels/frame/params.h"
#include "kernels/frame/tuning.h"

namespace facet {

GeometryPlan plan_geometry_work(const GeometryPlanInput& in) {
  const uint64_t meshlets = in.meshlet_count, resident = std::max(1u, in.resident_blocks);
  const uint64_t pixels = (uint64_t)std::max(in.width, 0) * (uint64_t)std::max(in.height, 0);
  // Most triangles of a dense frame cover no pixel centre: little is rasterized per meshlet.
  const bool dense = meshlets > resident && meshlets * kMeshletMaxTriangles >= pixels / kDensePixelsPerTriangle;
  GeometryPlan plan;
  plan.occlusion =
      in.occlusion_buffers && meshlets > 0 &&
      (in.occlusion == OcclusionMode::Always || (in.occlusion == OcclusionMode::Auto && dense && !in.cull_backfaces &&
                                                 meshlets >= kOcclusionMeshletsPerBlock * resident));
  const bool claims = in.force_claims || plan.occlusion || dense || meshlets > kMeshletsPerBlockForLaunches * resident;
  plan.small_tri_pixels = kSmallTriPixels;
  if (!claims) {
    plan.blocks = in.meshlet_count;
    // Fewer blocks than the device has SMs (its resident threads / kGeometryThreadsPerSm): SMs
    // idle while each thread walks a small box alone; the warp queue spreads those triangles
    // over every SM.
    if (meshlets * kGeometryThreadsPerSm < resident * kGeometryClaimingThreads)
      plan.small_tri_pixels = std::max(1, kFewMeshletsSmallSamples / std::max(in.samples, 1));
    return plan;
  }
  plan.claims = true;
  plan.blocks = (uint32_t)std::max<uint64_t>(1, std::min(resident, meshlets));
  const uint64_t chunk = meshlets / (kChunksPerBlockShare * resident);
  plan.meshlet_chunk = (uint32_t)std::clamp<uint64_t>(chunk, 1, kGeometryClaimingThreads);
  return plan;
}

bool plan_resolve_tiles(const ResolvePlanInput& in) {
  if (in.plain && in.samples == 1) return false;
  return in.triangles > 0 && in.box_pixels / in.triangles >= kResolveTilePixelsPerTriangle;
}

}  // namespace facet
