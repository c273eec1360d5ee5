// Every performance tunable of the pipeline, in one place, each with the reason for its value.
// The measurements behind the values are in docs/performance.md. Format limits (meshlet sizes,
// sub-pixel bits) live in params.h and correctness slacks beside the test they protect: changing
// those changes pixels, changing these changes only time.
#pragma once
#include <cstdint>

namespace facet {

// ---- Size classes of rasterization (size_classes.h) ----
// A triangle whose pixel box has at most this many pixels is rasterized by the thread that set
// it up: dense meshes are mostly such triangles, and a queue round trip would cost more.
constexpr int kSmallTriPixels = 64;
// Unless the scene has fewer meshlets than the device has SMs: then its geometry grid (a block
// per meshlet) leaves SMs idle while a block's threads each walk a small triangle's box alone
// (Spot, 47 meshlets), and the warp queue, whose warps fill every SM, takes all but the triangles
// whose box holds at most this many samples (pixels times samples a pixel); limits of 1 and 8
// measured alike, 16 slower. Meshlets against SMs, not threads against the device: a scene of
// few-pixel triangles whose meshlets reach every SM (the bunny's 600) is slower with its small
// triangles queued. docs/performance.md has the measurements.
constexpr int kFewMeshletsSmallSamples = 4;
// Large triangles are cut into square tiles of this side, one warp each (two pixels a lane).
constexpr int kTileSide = 8;
// At N > 1 samples a medium triangle's box holds at most this many pixels; larger ones go to
// tiles. A warp walking a whole 30x30 box alone at 4 samples makes the longest tail of a frame of
// such triangles (the 2 K sphere's); a lower limit sends small triangles' 10-16 px boxes (the
// 200 K sphere at 4K) to tiles, which costs far more than it saves. docs/performance.md has the
// measurements at 4 and 8 samples.
constexpr int64_t kMediumBoxSampledPixels = 256;
// At one sample a medium box holds at most this many pixels (16 steps of the warp's 32). A warp
// walking a box of up to 60x60 px alone makes the tail of a frame of such triangles (the 2 K
// sphere's at 1080p); no scene measured slower at 512, and 256 sends small boxes to tiles (the
// 200 K sphere at 4K slower). docs/performance.md has the measurements.
constexpr int64_t kMediumBoxPixels = 512;

// ---- Geometry (geometry.cu) ----
// The block-per-meshlet shape: a thread per triangle and per vertex of a full meshlet.
constexpr int kGeometryMeshletThreads = 128;
// The claiming shape: two triangles and two vertices a thread, so that a meshlet's barriers are
// shared by more work.
constexpr int kGeometryClaimingThreads = 64;
// Both geometry kernels are bounded for a full SM of threads (64 registers): the stage is
// latency-bound and wants every warp it can get.
constexpr int kGeometryThreadsPerSm = 1024;

// ---- Planning the geometry work (engine/render/frame_plan.cpp) ----
// A block per meshlet while the scene has at most this many meshlets per resident claiming
// block: launches measure cheaper there than the claiming blocks' barrier chains
// (docs/performance.md).
constexpr uint64_t kMeshletsPerBlockForLaunches = 8;
// A frame is dense when its triangles number at least the pixels divided by this: most cover no
// pixel centre, and claiming blocks' cheaper bookkeeping wins.
constexpr uint64_t kDensePixelsPerTriangle = 2;
// A claiming block takes chunks of about 1/kChunksPerBlockShare of its share of the meshlets:
// fine enough to even out, few enough that the frame's cursor is not a queue.
constexpr uint64_t kChunksPerBlockShare = 8;
// Occlusion culling (Auto) needs at least this many meshlets per resident claiming block: a
// closed mesh hides half of itself and the two passes pay off only when they skip a lot: a
// 20 M-triangle sphere gains, a 2 M one loses (docs/performance.md).
constexpr uint64_t kOcclusionMeshletsPerBlock = 16;

// ---- Whole-meshlet culling (meshlet_cull.h) ----
// The test of a 1-sample frame's meshlets against the pixel centres runs only where the scene's
// meshlets share its bounding disc on screen at most this many pixels each (or the disc cannot
// be estimated). On the 87 M-triangle grid of dragons at 0.21 px a meshlet the test drops most
// front meshlets and the frame gains much; at 0.85 px it drops a few percent and gains nothing,
// and with back faces kept (where whole-meshlet tests are otherwise skipped) it costs time.
// docs/performance.md has the measurements.
constexpr double kBetweenSamplesMeshletPixels = 0.5;

// ---- Occlusion culling's tile depth bounds (occlusion.h, hiz.cu) ----
constexpr int kHizTile = 16;      // pixels a side of a tile of the depth bound
constexpr int kHizCoarse = 4;     // fine tiles a side of a coarse tile (64 px): for meshlets
                                  //   whose bounds reach too many fine ones (strips of a UV sphere)
constexpr int kHizMaxTiles = 16;  // tiles tested at most, fine or else coarse; beyond, drawn untested

// ---- Warp and tile rasterization (warp_raster.cu, tile_raster.cu) ----
// Threads a block of the two persistent raster kernels: eight warps, each working alone.
constexpr int kRasterThreads = 256;
// Blocks of the warp-raster kernel an SM: twice its resident wave (64 registers: 4 blocks),
// so that a second wave picks up medium triangles the first wave's share would leave waiting.
// The tile kernel runs one resident wave (occupancy.h).
constexpr int kWarpRasterBlocksPerSm = 8;

// ---- Resolve (resolve.cu) ----
constexpr int kResolveThreads = 128;
// The general kernel takes two pixels a thread from this many pixels a frame (4K), one below
// (1080p), where its 80 registers leave too few threads for two; so does the plain lit kernel at
// 4 samples.
constexpr int64_t kResolveTwoPixelsFrom = int64_t{4} << 20;
// A resolve warp shades kResolveTileRows rows of 32 / kResolveTileRows pixels rather than one row
// of 32 where the scene's triangles average at least kResolveTilePixelsPerTriangle pixels of the
// box it can reach, except in the plain lit kernel at one sample (engine/render/frame_plan.cpp). A
// straight edge crosses about 2.75 times fewer 8 x 4 tiles than rows of 32 (their perimeters, 24
// and 66 pixels), and at N > 1 samples a warp holding an edge pixel shades every lane twice; a
// texture's reads gain the tile's 2-D locality: tiles measured faster on Spot and the 2 K sphere.
// Where triangles are a few pixels (the 200 K and 2 M spheres, whose strip-ordered meshlets run
// along rows) tiles measured slower at 4 samples; the plain lit kernel at one sample has no
// second shading to save. docs/performance.md has the measurements.
constexpr uint64_t kResolveTilePixelsPerTriangle = 64;
constexpr int kResolveTileRows = 4;
// Resident threads an SM the resolve kernels are bounded for: the plain lit kernel fits a full
// SM at 56 registers; the general one at one pixel a thread too, at two 768.
constexpr int kResolvePlainThreadsPerSm = 1024;
constexpr int kResolveOnePixelThreadsPerSm = 1024;
constexpr int kResolveTwoPixelThreadsPerSm = 768;

// ---- Frame buffers (engine/cuda/cuda_renderer.cpp) ----
// Starting sizes of the queues; a frame that needed more grows them for the frames after it.
constexpr uint32_t kWarpQueueStart = 1u << 16;      // triangles (medium and large)
constexpr uint32_t kTileItemQueueStart = 1u << 20;  // tile items
// A queue that overflowed grows to what the frame needed plus this fraction, so that a camera
// moving closer does not overflow again on the next frame.
constexpr uint32_t kQueueGrowthDivisor = 4;  // + 1/4
// Copies of the triangle counters the geometry blocks add into (block b into b % copies): one
// word for tens of thousands of blocks serialized on it. The host sums the copies.
constexpr int kTriCounterCopies = 64;

// ---- Bench-only vertex projection (vertex_projection.cu) ----
constexpr int kProjectPointsThreads = 256;  // bandwidth-bound: any full-occupancy size does

// ---- facet.project (point_projection.cu) ----
constexpr int kPointProjectionThreads = 256;  // streaming: enough warps in flight at any size

// ---- Per-pixel passes after resolve (ground_grid.cu: the ground grid; frame_outputs.cu) ----
// A warp along a row segment: coalesced key loads and pixel stores.
constexpr int kPixelPassBlockX = 32;
constexpr int kPixelPassBlockY = 4;     // the grid: 128 threads a block
constexpr int kFrameOutputsBlockY = 8;  // depth, ids and barycentrics: 256 threads a block

// ---- Meshlet building (engine/meshlets/meshlets.cpp) ----
// Keep the file's order when its runs need at most this many vertices a triangle (strip-ordered
// meshes: a generated UV sphere needs about 1); otherwise build compact patches.
constexpr double kKeepFileOrder = 1.05;
// The patch builder's vertex limit, below the format's kMeshletMaxVertices: a claiming geometry
// block projects 32 vertices a warp pass, and 96 keeps a full patch of a regular mesh (~86
// vertices) within three passes rather than four.
constexpr int kPatchMaxVertices = 96;
// Triangles a range of the patch builder grows apart from the others (engine/meshlets/meshlet_ranges.h):
// large enough that the patches cut short at a range's border cost little quality, small enough
// that a million triangles give every core of a small machine a range.
constexpr uint32_t kPatchRangeTriangles = 1 << 17;

// ---- The closed-surface check on the device (closed_check.cu) ----
// Each step is a pass over the vertices or triangles bound by memory and atomics: any
// full-occupancy block size does.
constexpr int kClosedCheckThreads = 256;
// Blocks of the edge-balance pass, each looping over the triangles: enough to fill 132 SMs many
// times over, few enough that the per-block sums reach the two 64-bit totals in a few thousand
// atomics rather than one a warp.
constexpr int kClosedBalanceBlocks = 2048;
// The weld's table holds at least this many slots a vertex: short probes, and 8 bytes a vertex
// of device memory for a load's moment.
constexpr uint64_t kWeldSlotsPerVertex = 2;

// ---- Each triangle's meshlet, written on the device at upload (triangle_meshlets.cu) ----
// Blocks at most (a block a meshlet, walking meshlets a grid apart): a few per SM slot fill the
// GPU; 87 M triangles are 690 K meshlets, a store of 4 bytes a thread.
constexpr unsigned kTriangleMeshletsMaxBlocks = 1u << 16;

// ---- The meshlet layout of the shading, built on the device at upload (meshlet_shading.cu) ----
// Blocks at most (a block a meshlet, walking meshlets a grid apart): a few per SM slot fill the
// GPU; 87 M triangles are 690 K meshlets, a slot a thread.
constexpr unsigned kMeshletShadingMaxBlocks = 1u << 16;

// ---- The Morton order of the patch meshlets' triangles on the device (centroid_order.cu) ----
// The codes: a pass over the triangles bound by memory, a thread a triangle a grid apart; any
// full-occupancy block size does, and 32 K blocks fill 132 SMs many times over.
constexpr int kCentroidCodeThreads = 256;
constexpr uint64_t kCentroidCodeMaxBlocks = 1u << 15;
// A load hands the sort to the device (Renderer::centroid_order_ahead) from this many triangles.
// Below it the CPU's sort on a desktop's cores takes about what the wait for the upload before
// the device's sort would cost; on the largest models the device's sort, that wait included, is
// the faster (docs/performance.md).
constexpr uint64_t kDeviceOrderMinTriangles = uint64_t(1) << 24;

// ---- CPU backend (engine/render/cpu_renderer.cpp) ----
constexpr int64_t kCpuLargeTriPixels = 4096;   // boxes past this are split over row bands
constexpr int kCpuRowBand = 16;                // rows a band: a worker's share of a large triangle
constexpr uint64_t kCpuVertexChunk = 1 << 16;  // vertices a task: enough to amortize a hand-out
constexpr uint64_t kCpuMeshletChunk = 32;      // meshlets a task
constexpr uint64_t kCpuResolveRows = 8;        // rows a task of resolve
constexpr uint64_t kCpuClearChunk = 1 << 18;   // visibility keys a task of the clear (2 MB)

}  // namespace facet
