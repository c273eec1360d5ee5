// The frame's visibility kernels, launched in order on one stream (stages.h lists the stages).
// Each kernel after the first may start while the one before it drains (launch.h) and
// waits inside for its results.
//
// The frame's counters: two blocks used in turn, and resolve, the frame's last kernel, zeroes
// the block the next frame counts into (ResolveStageParams::next_counters). A memset node at the
// start of the frame would do the same for one more graph node and a gap before the geometry
// kernel; no other kernel runs after every reader of the counters. For the same
// reason resolve also copies the finished block to the host (ResolveStageParams::host_counters)
// instead of a copy node after it.
#include "kernels/frame/stages.h"
#include "kernels/frame/tuning.h"

namespace facet {

int tile_raster_blocks_per_sm();  // tile_raster.cu

PersistentBlocks persistent_blocks(int sm_count) {
  // The tile raster as one resident wave; the warp raster asks for more (tuning.h says why).
  return {sm_count * kWarpRasterBlocksPerSm, sm_count * tile_raster_blocks_per_sm()};
}

void launch_visibility(const RasterStageParams& params, cudaStream_t stream) {
  RasterStageParams p = params;
  if (p.occlusion.enabled) {  // occlusion culling: two passes with the tile bounds between them
    p.occlusion.pass = 1;
    launch_geometry(p, stream, false);
    launch_hiz(p, stream);
    p.occlusion.pass = 2;
    launch_geometry(p, stream, p.chain_launches);
  } else {
    launch_geometry(p, stream, false);
  }
  // Chained to the geometry kernel only when there is one (a scene without meshlets launches none).
  launch_warp_raster(p, stream, p.chain_launches && p.meshlet_count > 0);
  launch_tile_raster(p, stream, p.chain_launches);
}

}  // namespace facet
