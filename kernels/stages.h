// The CUDA stages of a frame and the parameter structs their launchers take. Host code calls
// the launchers (declared here, defined in the .cu files) and never needs nvcc itself.
//
// Frame: geometry (geometry.cu: whole meshlets culled, vertices projected into shared memory,
// then the triangle front end: clip, cull, snap, setup; small triangles are collected per block
// and rasterized one thread each) -> one warp per queued triangle: medium ones rasterized whole,
// large ones binned into 8x8-pixel tiles -> tile rasterization (one warp per tile item; then, in
// the same kernel, whatever did not fit a queue) -> resolve (shade each pixel once from the
// 64-bit visibility buffer). The buffer is not reset inside resolve (a write right behind
// each read of the same line measured 5x slower, NOTES.md): keys carry a frame tag and a memset
// clears it every fourth frame (raster.h).
#pragma once
#include <cuda_runtime.h>

#include "kernels/clip.h"
#include "kernels/cluster.h"
#include "kernels/occlusion.h"
#include "kernels/params.h"
#include "kernels/size_classes.h"

namespace facet {

// One unit of tile work: large triangle `tri` (index into the big queue) over tile (tx, ty).
struct TileItem {
  uint32_t big;    // index into RasterQueues::big
  uint32_t tile;   // tile x in bits 0..15, tile y in bits 16..31
};

// Device-side counters of one frame. Zeroed at the start of each frame.
// Copies of the triangle counters that blocks add into (block b into copy b % kTriCounterCopies):
// every block adding to one word serialized on it (tens of thousands of blocks at 20 M
// triangles). The host sums the copies.
constexpr int kTriCounterCopies = 64;

struct FrameCounters {
  TriCounters tris[kTriCounterCopies];  // what happened to the scene's triangles, in copies
  uint32_t big_count;      // medium and large triangles pushed (may exceed capacity: then the
                           //   rest fell back)
  uint32_t item_count;     // tile items requested by queued triangles (may exceed capacity)
  uint32_t items_wanted;   // tile items all large triangles would need (sizes the queue exactly)
  uint32_t fallback_count; // large triangles that did not fit the tile-item queue
  uint32_t inline_overflow;// large triangles that did not fit the big queue (rasterized inline)
  uint32_t meshlet_cursor[2]; // meshlets claimed by geometry blocks so far (may pass the
                              //   count): the only pass or occlusion's first, its second
};

struct RasterQueues {
  RasterTri* big;          // [big_capacity] medium and large triangles after setup
  uint32_t big_capacity;
  TileItem* items;         // [item_capacity]
  uint32_t item_capacity;
  uint32_t* fallback;      // [big_capacity] indices into big of triangles with no tile items
};

struct VertexStageParams {
  const Vec3* positions;   // [count] world space
  ProjectedVertex* out;    // [count] snapped window position, depth, clip-plane code
  uint32_t count;
  Mat4 view_proj;
  int32_t width, height;   // frame size in pixels (the snap and guard band depend on it)
};

// Blocks of the two persistent raster kernels (grid-stride loops over their queues; sized by
// persistent_blocks).
struct PersistentBlocks {
  int bin = 1, tile = 1;
};

// Occlusion culling of whole meshlets (occlusion.h) in a frame's geometry stage.
enum class OcclusionMode : uint8_t {
  Auto,    // dense two-sided frames (triangles outnumber half the pixels) of 16 or more
           //   meshlets a resident geometry block (plan_geometry_work)
  Off,
  Always,  // tests: every frame that has the buffers
};
struct OcclusionPass {
  bool enabled;               // this frame runs the two passes (plan_geometry_work decides)
  uint32_t* seen;             // [meshlet_count] the last frame each meshlet showed a pixel in
                              //   (resolve writes it), or null: no occlusion culling
  uint32_t previous_frame;    // pass 1 draws the meshlets seen in this frame
  uint32_t* hiz;              // the fine and coarse tile bounds, built between the passes by
  uint32_t* hiz_coarse;       //   hiz_kernel (test.hiz and test.coarse are the same arrays)
  OcclusionTest test;
  uint8_t pass;               // of this geometry launch: 1 or 2 (launch_raster_stage sets it)
};

struct RasterStageParams {
  const Meshlet* meshlets;      // [meshlet_count] the scene's triangles, grouped (meshlets.h)
  uint32_t meshlet_count;
  const Vec3* meshlet_positions;    // each meshlet's vertices, from Meshlet::first_vertex
  const uint32_t* meshlet_triangles;// [triangle_count] by slot: packed local indices (local_index)
  const uint32_t* meshlet_triangle_ids; // [triangle_count] by slot: the scene triangle (its key),
                                        //   or null when slot i holds triangle i (meshlets.h)
  FrameParams frame;
  ClipPlanes planes;            // make_clip_planes(frame.width, frame.height), computed once on
                                //   the host: two divisions fewer for every thread
  ClusterCull cull;             // make_cluster_cull(frame, planes): whole meshlets dropped
  uint64_t* vis;                // [width * height] visibility buffer: kEmptyKey, older frames'
                                //   keys, or this frame's (tag frame.vis_tag)
  RasterQueues queues;
  FrameCounters* counters;
  PersistentBlocks persistent;  // blocks of bin_kernel and tile_kernel
  // How the geometry blocks share the meshlets (plan_geometry_work, geometry.cu): a block per
  // meshlet, or geometry_blocks blocks that take meshlet_chunk meshlets from
  // b * meshlet_chunk, then further chunks from the frame's cursor until none are left.
  uint32_t geometry_blocks;     // blocks of the geometry kernel
  uint32_t meshlet_chunk;       // meshlets a block claims at a time
  bool meshlet_claims;          // false: a block per meshlet
  bool chain_launches;          // bin and tile start while the kernel before them drains
                                //   (dependent_launch.h)
  OcclusionPass occlusion;      // enabled only with claiming blocks
};

struct ResolveStageParams {
  SceneView scene;
  bool scene_textured;          // some material has a texture and the model has uvs: resolve
                                //   runs the general shading path (plain_lit_frame)
  FrameParams frame;
  const uint64_t* vis;          // [width * height] the frame's visibility buffer
  PixelBox drawable;            // no pixel outside can show a triangle this frame (scene_pixel_box):
                                //   background there, without reading its key
  Rgba8* out;                   // [width * height] row 0 = top, or null when writing `surface`
  unsigned long long surface;   // cudaSurfaceObject_t of an RGBA8 array, used when out is null
  FrameCounters* next_counters; // zeroed here for the next frame (which counts into it), or null
  uint32_t* meshlet_seen;       // when not null: set to frame_number for each meshlet with a pixel
                                //   on screen (occlusion culling's first pass next frame)
  const uint32_t* triangle_meshlet; // [triangle_count] the meshlet of each scene triangle
  uint32_t frame_number;         // this frame's number (CudaRenderer counts them)
  bool after_kernel;            // starts while the raster stage's last kernel drains
};

void launch_vertex_stage(const VertexStageParams& p, cudaStream_t stream);
void launch_raster_stage(const RasterStageParams& p, cudaStream_t stream);  // geometry, bin, tile
void launch_geometry(const RasterStageParams& p, cudaStream_t stream, bool after_kernel = false);
// The tile bounds of occlusion culling's second pass (hiz.cu), from what the first drew.
void launch_hiz(const RasterStageParams& p, cudaStream_t stream);
// Claiming geometry blocks resident on one SM at a time (occupancy of their launch bounds).
int geometry_blocks_per_sm();
// The grids of bin_kernel and tile_kernel on a device of sm_count SMs.
PersistentBlocks persistent_blocks(int sm_count);
// Sets p.geometry_blocks, p.meshlet_chunk and p.meshlet_claims for p.meshlet_count meshlets in
// a p.frame.width x p.frame.height frame on a device where `resident` claiming geometry blocks
// fit at once (claiming whatever the count when force_claims: tests).
// Also sets p.occlusion.enabled, by `occlusion`, where p.occlusion.seen is set.
void plan_geometry_work(RasterStageParams& p, uint32_t resident, bool force_claims = false,
                        OcclusionMode occlusion = OcclusionMode::Auto);
void launch_resolve_stage(const ResolveStageParams& p, cudaStream_t stream);

}  // namespace facet
