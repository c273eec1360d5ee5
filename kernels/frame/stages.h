// The CUDA stages of a frame and the parameter structs their launchers take. Host code calls
// the launchers (declared here, defined in the .cu files) and never needs nvcc itself.
//
// A frame (frame.cu launches it in this order):
//  1. geometry (geometry.cu): whole meshlets culled, vertices projected into shared memory, the
//     triangle front end (clip, cull, snap, setup); small triangles rasterized by the same block,
//     medium and large ones pushed to the warp queue. With occlusion culling: two passes, the
//     tile depth bounds (hiz.cu) between them.
//  2. warp raster (warp_raster.cu): a warp per queued triangle: medium ones rasterized whole,
//     large ones cut into 8x8-pixel tile items.
//  3. tile raster (tile_raster.cu): a warp per tile item, then whatever did not fit a queue.
//  4. resolve (resolve.cu): shade each pixel once from the 64-bit visibility buffer.
// The buffer is not reset inside resolve (a write right behind each read of the same line
// measures several times slower: docs/performance.md): keys carry a frame tag and a memset
// clears it every fourth frame (raster.h).
#pragma once
#include <cuda_runtime.h>

#include "kernels/frame/geometry/clip.h"
#include "kernels/frame/geometry/meshlet_cull.h"
#include "kernels/frame/geometry/occlusion.h"
#include "kernels/frame/geometry/size_classes.h"
#include "kernels/frame/params.h"
#include "kernels/frame/tuning.h"

namespace facet {

// One unit of tile work: large triangle `tri` (index into the warp queue) over tile (tx, ty).
struct TileItem {
  uint32_t tri;   // index into RasterQueues::warp_tris
  uint32_t tile;  // tile x in bits 0..15, tile y in bits 16..31
};

// Device-side counters of one frame. Two blocks are used in turn: the frame's resolve zeroes the
// block the next frame counts into (frame.cu says why). The triangle counters come in
// kTriCounterCopies copies (tuning.h) that blocks add into; the host sums them.
struct FrameCounters {
  TriCounters tris[kTriCounterCopies];  // what happened to the scene's triangles, in copies
  uint32_t warp_queued;                 // medium and large triangles pushed to the warp queue (may exceed
                                        //   its capacity: then the rest were rasterized where set up)
  uint32_t tile_items;                  // tile items requested by queued triangles (may exceed capacity)
  uint32_t tile_items_wanted;           // tile items all large triangles would need (sizes the queue)
  uint32_t fallback_count;              // large triangles that did not fit the tile-item queue
  uint32_t inline_overflow;             // triangles that did not fit the warp queue (rasterized inline)
  uint32_t meshlet_cursor[2];           // meshlets claimed by geometry blocks so far (may pass the
                                        //   count): the only pass or occlusion's first, its second
};

struct RasterQueues {
  RasterTri* warp_tris;  // [warp_capacity] medium and large triangles after setup: a warp each
  uint32_t warp_capacity;
  TileItem* tile_items;  // [tile_item_capacity]
  uint32_t tile_item_capacity;
  uint32_t* fallback;  // [warp_capacity] indices into warp_tris of triangles with no tile items
};

// The bench's standalone vertex projection (vertex_projection.cu): not a stage of the frame, whose
// vertices are projected per meshlet inside the geometry kernel.
struct ProjectPointsParams {
  const Vec3* positions;  // [count] world space
  ProjectedVertex* out;   // [count] snapped window position, depth, clip-plane code
  uint32_t count;
  Mat4 view_proj;
  int32_t width, height;  // frame size in pixels (the snap and guard band depend on it)
};

// Blocks of the two persistent raster kernels (grid-stride loops over their queues; sized by
// persistent_blocks).
struct PersistentBlocks {
  int warp_raster = 1, tile_raster = 1;
};

// Occlusion culling of whole meshlets (occlusion.h) in a frame's geometry stage.
struct OcclusionPass {
  bool enabled;             // this frame runs the two passes (engine/render/frame_plan.h decides)
  uint32_t* seen;           // [meshlet_count] the last frame each meshlet showed a pixel in
                            //   (resolve writes it), or null: no occlusion culling
  uint32_t previous_frame;  // pass 1 draws the meshlets seen in this frame
  uint32_t* hiz;            // the fine and coarse tile bounds, built between the passes by
  uint32_t* hiz_coarse;     //   hiz_kernel (test.hiz and test.coarse are the same arrays)
  OcclusionTest test;
  uint8_t pass;  // of this geometry launch: 1 or 2 (launch_visibility sets it)
};

struct RasterStageParams {
  const Meshlet* meshlets;  // [meshlet_count] the scene's triangles, grouped (meshlets.h)
  uint32_t meshlet_count;
  const MeshletPoint* meshlet_points;    // each meshlet's vertices, from Meshlet::first_vertex
  const uint32_t* meshlet_triangles;     // [triangle_count] by slot: packed local indices (local_index);
                                         //   where slots_in_corners, the scene's corner words
  bool slots_in_corners;                 // slot s holds triangle s (runs, a renumbered scene): no
                                         //   triangle ids, and its corner word's low 24 bits are the
                                         //   slot's packed indices (params.h, corner_word)
  const uint32_t* meshlet_triangle_ids;  // [triangle_count] by slot: the scene triangle (its key),
                                         //   or null when slot i holds triangle i (meshlets.h)
  FrameParams frame;
  ClipPlanes planes;  // make_clip_planes(frame.width, frame.height), computed once on
                      //   the host: two divisions fewer for every thread
  MeshletCull cull;   // make_meshlet_cull(frame, planes): whole meshlets dropped
  uint64_t* vis;      // [width * height * frame.samples] visibility buffer (vis_index):
                      //   kEmptyKey, older frames'
                      //   keys, or this frame's (tag frame.vis_tag)
  RasterQueues queues;
  FrameCounters* counters;
  PersistentBlocks persistent;  // blocks of the warp and tile raster kernels
  // How the geometry blocks share the meshlets (engine/render/frame_plan.h, geometry.cu): a block per
  // meshlet, or geometry_blocks blocks that take meshlet_chunk meshlets from
  // b * meshlet_chunk, then further chunks from the frame's cursor until none are left.
  uint32_t geometry_blocks;  // blocks of the geometry kernel
  uint32_t meshlet_chunk;    // meshlets a block claims at a time
  bool meshlet_claims;       // false: a block per meshlet
  int32_t small_tri_pixels;  // boxes of at most this many pixels are rasterized by the geometry
                             //   block that set them up, larger ones queued (size_classes.h)
  bool chain_launches;       // each kernel after the first starts while the one before drains
                             //   (launch.h)
  OcclusionPass occlusion;   // enabled only with claiming blocks
  SceneView scene;           // what cutout_keeps reads (materials, alpha maps, shade vertices);
                             //   scene.has_cutouts picks the raster kernels with the per-sample
                             //   cut-out test (cutout_visit.h), the others never read it
};

struct ResolveStageParams {
  SceneView scene;
  bool scene_textured;  // some pixel needs more than Kd and the headlight (a texture,
                        //   specular, emission, Ka, vertex colours: !plain_lit_scene):
                        //   resolve runs the general shading path (plain_lit_frame)
  FrameParams frame;
  const uint64_t* vis;               // [width * height * frame.samples] the frame's visibility buffer
  PixelBox drawable;                 // no pixel outside can show a triangle this frame (scene_pixel_box):
                                     //   background there, without reading its key
  bool tile_warps;                   // a warp shades kResolveTileRows rows of pixels, not one
                                     //   (plan_resolve_tiles, engine/render/frame_plan.h)
  Rgba8* out;                        // [width * height] row 0 = top, or null when writing `surface`
  unsigned long long surface;        // cudaSurfaceObject_t of an RGBA8 array, used when out is null
  FrameCounters* next_counters;      // the block the next frame counts into: zeroed by this frame's
                                     //   last kernel (frame.cu), or null
  const FrameCounters* counters;     // this frame's block, final once the raster kernels are done
  FrameCounters* host_counters;      // pinned host memory the counters are copied to, or null: written
                                     //   by the kernel, so the frame needs no copy node after it
  uint32_t* meshlet_seen;            // when not null: set to frame_number for each meshlet with a pixel
                                     //   on screen (occlusion culling's first pass next frame)
  const uint32_t* triangle_meshlet;  // [triangle_count] the meshlet of each scene triangle
  uint32_t frame_number;             // this frame's number (CudaRenderer counts them)
  bool after_kernel;                 // starts while the raster stage's last kernel drains
};

// The frame's visibility: geometry (one or two passes, with the tile bounds between them), then
// the warp and tile raster kernels (frame.cu).
void launch_visibility(const RasterStageParams& p, cudaStream_t stream);
void launch_resolve_stage(const ResolveStageParams& p, cudaStream_t stream);

// The frame's kernels one by one (frame.cu calls them in order).
void launch_geometry(const RasterStageParams& p, cudaStream_t stream, bool after_kernel);
void launch_hiz(const RasterStageParams& p, cudaStream_t stream);  // tile bounds after pass 1
void launch_warp_raster(const RasterStageParams& p, cudaStream_t stream, bool after_kernel);
void launch_tile_raster(const RasterStageParams& p, cudaStream_t stream, bool after_kernel);

// Claiming geometry blocks resident on one SM at a time (occupancy of their launch bounds).
int geometry_blocks_per_sm();
// The grids of the warp and tile raster kernels on a device of sm_count SMs.
PersistentBlocks persistent_blocks(int sm_count);

// The bench's vertex projection alone, one thread per vertex.
void launch_project_points(const ProjectPointsParams& p, cudaStream_t stream);

}  // namespace facet
