// How a CUDA frame's geometry stage shares the scene's meshlets among its blocks, whether it
// culls hidden meshlets in two passes, and the shape of resolve's warps: host policy, decided
// once a frame from the scene's size, the frame's size and the device's resident blocks. No CUDA
// here, so that it is tested on any machine; the thresholds are named in kernels/frame/tuning.h.
#pragma once
#include <cstdint>

namespace facet {

// Occlusion culling of whole meshlets (kernels/frame/geometry/occlusion.h) in a frame's geometry stage.
enum class OcclusionMode : uint8_t {
  Auto,  // dense two-sided frames with kOcclusionMeshletsPerBlock or more meshlets a resident
         //   claiming block
  Off,
  Always,  // tests: every frame the renderer has the buffers for
};

struct GeometryPlanInput {
  uint32_t meshlet_count = 0;      // meshlets of the scene
  int width = 0, height = 0;       // frame size in pixels
  int samples = 1;                 // samples a pixel
  uint32_t resident_blocks = 1;    // claiming geometry blocks resident on the whole device at once
  bool cull_backfaces = false;     // the frame drops back faces (the normal cones already cull
                                   //   the hidden half: occlusion culling would not pay)
  bool occlusion_buffers = false;  // the renderer has the per-meshlet and tile-bound buffers
  OcclusionMode occlusion = OcclusionMode::Auto;
  bool force_claims = false;  // claiming blocks whatever the scene's size (tests)
};

struct GeometryPlan {
  uint32_t blocks = 0;           // blocks of the geometry kernel
  uint32_t meshlet_chunk = 1;    // meshlets a claiming block takes at a time
  bool claims = false;           // false: a block per meshlet; true: resident blocks claim chunks
                                 //   (the first at b * meshlet_chunk, then from a frame cursor)
  bool occlusion = false;        // two geometry passes with tile depth bounds between them
  int32_t small_tri_pixels = 0;  // triangle boxes the geometry blocks rasterize themselves, in
                                 //   pixels (kernels/frame/geometry/size_classes.h): kSmallTriPixels, less when
                                 //   the grid leaves SMs idle (kFewMeshletsSmallSamples)
};

// Never more blocks than meshlets or than fit at once; a chunk is at least one meshlet and at
// most a claiming block's threads (kGeometryClaimingThreads: one meshlet tested a thread).
GeometryPlan plan_geometry_work(const GeometryPlanInput& in);

// What decides the shape of resolve's warps (kernels/frame/resolve/resolve.cu).
struct ResolvePlanInput {
  uint64_t box_pixels = 0;  // pixels of the box the scene can reach this frame (scene_pixel_box)
  uint64_t triangles = 0;   // triangles of the scene
  int samples = 1;          // samples a pixel
  bool plain = true;        // the plain lit kernel runs (plain_lit_frame), not the general one
};

// True when resolve's warps shade tiles of kResolveTileRows rows rather than rows of 32 pixels:
// triangles of kResolveTilePixelsPerTriangle pixels or more, and a kernel that gains from it
// (kernels/frame/tuning.h).
bool plan_resolve_tiles(const ResolvePlanInput& in);

}  // namespace facet
