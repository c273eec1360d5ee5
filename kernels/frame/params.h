// Plain-data structs the pipeline stages take: the scene as flat arrays (device or host pointers,
// the math does not care which), per-frame parameters, and the per-triangle raster record.
// Every field says its units or layout. No behaviour lives here.
#pragma once
#include "kernels/base/hd.h"

namespace facet {

enum class Shading : uint8_t { Lit = 0, Texture = 1, Normals = 2, Depth = 3 };
enum class Filter : uint8_t { Nearest = 0, Bilinear = 1, Trilinear = 2 };

// Largest frame side in pixels: keeps 24.8 fixed-point coordinates inside the guard band within
// 2^23, so every edge-function product fits in 48 bits of an int64.
constexpr int kMaxFrameSide = 16384;
// Guard band beyond each frame edge, in pixels. Triangles reaching past it are clipped in clip space.
constexpr float kGuardBandPx = 16384.0f;
// Sub-pixel precision: vertices snap to 1/256 pixel, as GPU hardware and Mesa do.
constexpr int kSubpixelBits = 8;
constexpr int kSubpixel = 1 << kSubpixelBits;
// Visibility-buffer value of a pixel no triangle covers.
constexpr uint64_t kEmptyKey = ~0ull;

// A surface's material, every colour in linear light (decoded from sRGB at load). 80 bytes in
// four 16-byte groups (each vec3 with the int or float after it): the std430 layout that
// shaders/reference.frag reads. The defaults are a plain Kd material.
struct Material {
  Vec3 kd{0, 0, 0};               // diffuse albedo, 0..1 (MTL Kd, glTF baseColorFactor)
  int32_t texture = -1;           // index into SceneView::textures for map_Kd, or -1
  Vec3 ks{0, 0, 0};               // Blinn-Phong specular colour (MTL Ks); zero: no highlight
  float ns = 1;                   // specular exponent (MTL Ns), a whole number 1..kMaxShininess
  Vec3 ka{1, 1, 1};               // ambient colour (MTL Ka): the kAmbient share of light is
                                  //   kAmbient * ka * albedo; white when the file gives none
  int32_t specular_texture = -1;  // map_Ks (multiplies ks), or -1
  Vec3 ke{0, 0, 0};               // emitted colour, added unlit (MTL Ke, glTF emissiveFactor)
  int32_t emission_texture = -1;  // map_Ke / glTF emissiveTexture (multiplies ke), or -1
  float alpha = 1;                // opacity (MTL d, 1 - Tr; glTF baseColor alpha scaled so its
                                  //   alphaCutoff falls at 0.5): a sample is cut below 0.5
  int32_t alpha_texture = -1;     // map_d / glTF baseColorTexture: its alpha channel multiplies
                                  //   `alpha` (a map_d without alpha channel has its grey there)
  int32_t pad[2] = {0, 0};        // to 16-byte groups
};
static_assert(sizeof(Material) == 80, "shaders/reference.frag reads Material as 80 bytes");
// Largest specular exponent: raised by repeated squaring (the same floats on both backends,
// where powf is not), ten squarings; MTL files stay below 1000.
constexpr int kMaxShininess = 1024;

// What resolve reads of a vertex, interleaved so that one 32-byte sector holds all of it, and
// aligned so that it arrives in two 16-byte loads (eight 4-byte loads unaligned).
struct alignas(16) ShadeVertex {
  Vec3 p;   // world position
  Vec3 n;   // unit normal
  Vec2 uv;  // texture coordinates (0, 0 when the model has none)
};
static_assert(sizeof(ShadeVertex) == 32, "one sector per vertex");

// A vertex after the vertex stage: what triangle setup reads, 16 bytes. Dividing by w and
// snapping once per vertex (not three times per triangle) is what makes dense meshes cheap.
struct ProjectedVertex {
  int32_t x, y;   // snapped window position, 1/256 px, y down; valid only when code == 0
  float z;        // window depth (0 near .. 1 far); valid only when code == 0
  uint32_t code;  // bit i: outside clip plane i (clip.h); kCodeNonFinite: NaN or Inf position
};
constexpr uint32_t kCodeNonFinite = 1u << 31;

// A group of triangles (a run of the file's order, or a compact patch: engine/meshlets/meshlets.h) with its
// own copy of the vertices they use.
// The CUDA geometry stage projects a meshlet's vertices into shared memory once and sets up its
// triangles from there: positions and 8-bit local indices stream in order, and no triangle waits
// on an index load before it can fetch its vertices (what bounds a frame of many triangles
// otherwise: docs/performance.md).
constexpr int kMeshletMaxTriangles = 128;  // a thread each in a block-per-meshlet block of 128,
                                           // two each in a claiming block of 64 (geometry.cu;
                                           // measured faster than 256: docs/performance.md)
constexpr int kMeshletMaxVertices = 128;   // likewise; local indices are 8 bits
struct alignas(16) Meshlet {
  // Bounds for culling the whole meshlet before any per-triangle work (meshlet_cull.h). A meshlet
  // with a non-finite vertex gets a NaN radius, which no cull test passes.
  Vec3 center;              // world-space centre of a sphere holding every vertex
  float radius;             // its radius (rounded up), or NaN
  Vec3 cone_axis;           // unit vector within cone_angle of every triangle's unit normal
  float cone_cos;           // cos(cone_angle), rounded down; 0 (with cone_sin 1) when the normals
  float cone_sin;           //   span 90 degrees or more, or a triangle has no normal: never culled
  uint32_t first_triangle;  // offset of its slots in the meshlet triangle arrays (packed local
                            //   indices, scene triangle ids); triangle_count slots follow
  uint32_t first_vertex;    // offset of its vertices in the meshlet position array
  uint16_t triangle_count;  // 1..kMeshletMaxTriangles
  uint16_t vertex_count;    // 1..kMeshletMaxVertices
};
static_assert(sizeof(Meshlet) == 48, "three 16-byte loads");
// A meshlet triangle's local vertex indices: l0 | l1 << 8 | l2 << 16.
FACET_HD uint32_t local_index(uint32_t packed, int corner) { return (packed >> (8 * corner)) & 0xffu; }

struct TextureDesc {
  uint32_t offset;  // index of texel (0,0) of mip level 0 in SceneView::texels; levels follow
  int32_t width;    // level-0 width in texels
  int32_t height;   // level-0 height in texels
  int32_t levels;   // mip levels, each half the previous (floor, at least 1), down to 1x1
};

// Where a triangle's vertices are in the meshlet layout (MeshletShading): one 32-bit corner word,
// l0 | l1 << 8 | l2 << 16 | d << 24 (its packed local indices, local_index, and d), and its
// meshlet's first vertex, vertex_bases[triangle >> base_shift] + d. A covered pixel's two reads
// are independent (the base is shared by a block of triangles and mostly in cache), so it still
// waits on one latency before its vertices, as with an index triple, for 4 bytes a triangle
// where a first vertex beside the indices took 8.
FACET_HD uint32_t corner_word(uint32_t locals, uint32_t d) { return locals | d << 24; }
FACET_HD uint32_t corner_base_offset(uint32_t word) { return word >> 24; }
// Triangles that share a base where they are in their meshlets' order (slot i holds triangle i):
// d is then at most a meshlet's vertices (kMeshletMaxVertices) plus three for each triangle of the
// block ahead of its own meshlet's (every meshlet vertex is some corner's): 128 + 3 * 31 < 256.
// A block of 64 could need 317. Elsewhere each triangle has its own base (shift 0, d = 0).
constexpr uint32_t kCornerBaseShift = 5;
static_assert(kMeshletMaxVertices + 3 * ((1u << kCornerBaseShift) - 1) <= 255, "d fits its 8 bits");

// A meshlet vertex in the meshlet layout (MeshletShading): its position, which the geometry
// stage projects, and its normal's 32-bit code (normal_code.h), so that resolve reads both in one
// aligned 16-byte load, one sector, as the geometry stage reads the position.
struct alignas(16) MeshletPoint {
  Vec3 p;           // world position (Meshlets::positions)
  uint32_t normal;  // encode_normal of the quantized unit normal the scene layout holds
};

// The scene's per-vertex shading kept with the meshlets instead of with the scene's vertices:
// what the CUDA backend holds on the device (kernels/prepare/meshlet_shading.h builds it at upload), where
// it replaces the 32-byte vertex records, the 12-byte index triples and the geometry stage's
// 12-byte positions (a closed scan's 36 of its 45 bytes a triangle: 16 B for half a vertex, 12,
// and 8 for two-thirds of a meshlet vertex) by 4 bytes a triangle (and an eighth of a byte of
// bases) and 16 (24 with uvs) a meshlet vertex (11 B for two-thirds of one). Every value is a
// copy of the scene vertex's, the normal as the code of the quantized normal the scene layout
// holds, so both layouts give the same floats and the same bits (scene_vertices.h).
struct MeshletShading {
  const uint32_t* corners;       // [triangle_count] each scene triangle's corner word (corner_word)
  const uint32_t* vertex_bases;  // [((triangle_count - 1) >> base_shift) + 1] first vertices
  uint32_t base_shift;           // kCornerBaseShift where slot i holds triangle i, else 0
  const MeshletPoint* points;    // per meshlet vertex: position and normal code
  const Vec2* uvs;               // per meshlet vertex: texture coordinates; null without uvs
};

// The scene as the stages read it. Pointers are device pointers on the CUDA backend, host
// pointers on the CPU backend. Per-vertex shading comes in one of two layouts (read through
// kernels/frame/resolve/scene_vertices.h): per scene vertex (`shade`, `indices`; the CPU backend), or per
// meshlet vertex (`meshlet`, when meshlet.corners is set; the CUDA backend).
struct SceneView {
  const Vec3* positions;         // [vertex_count] world space (models are not transformed), or null
  const ShadeVertex* shade;      // [vertex_count] positions, normals, uvs interleaved (resolve), or
                                 //   null in the meshlet layout
  bool has_uvs;                  // the model has texture coordinates (else shade[].uv are zero)
  const uint32_t* indices;       // [3 * triangle_count] vertex indices, 3 per triangle, or null in
                                 //   the meshlet layout
  const uint32_t* tri_material;  // [triangle_count] index into materials, or null when every
                                 //   triangle uses single_material (no read a covered pixel)
  const Material* materials;     // [material_count], at least one
  const TextureDesc* textures;   // [texture_count]
  const Rgba8* texels;           // all mip levels of all textures, row 0 = top of the image
  uint32_t vertex_count;
  uint32_t triangle_count;
  uint32_t single_material;  // the material of every triangle, when tri_material is null
  const Rgba8* colors;       // [vertex_count] sRGB vertex colours multiplying Kd (alpha unused),
                             //   or null when the model has none; per meshlet vertex in the
                             //   meshlet layout
  bool has_cutouts;          // some material can cut samples away (kernels/frame/raster/cutout.h): alpha
                             //   below 0.5, or an alpha texture and uvs to sample it with
  MeshletShading meshlet;    // the meshlet layout, or all null
};

// What one frame needs to know besides the scene.
struct FrameParams {
  Mat4 view_proj;       // world -> clip, OpenGL conventions (view looks down -Z, clip z in [-w, w])
  int32_t width;        // frame width in pixels (<= kMaxFrameSide)
  int32_t height;       // frame height in pixels (<= kMaxFrameSide)
  Vec3 eye;             // world-space camera position (headlight origin)
  float depth_near;     // view distance shown white in Depth shading (world units)
  float depth_far;      // view distance shown black in Depth shading (world units)
  Shading shading;      // what resolve writes
  Filter filter;        // texture filter for map_Kd
  bool cull_backfaces;  // drop triangles facing away (front = counter-clockwise in GL's NDC)
  bool wireframe;       // overlay triangle edges, about one pixel wide
  bool clamp_uv;        // clamp texture coordinates instead of repeating
  Rgba8 background;     // colour of pixels no triangle covers
  uint32_t vis_tag;     // 0..3, in bits 62-63 of every visibility key this frame writes (raster.h)
  // Orthographic frames (view_proj's last row is (0, 0, 0, 1): clip w = 1) have no centre of
  // projection: the headlight shines along view_dir and view distances are measured along it
  // from the plane through `eye` (kernels/frame/view.h).
  bool orthographic;    // parallel projection; false: perspective from `eye`
  Vec3 view_dir;        // unit world-space view direction (eye towards target)
  uint8_t samples = 1;  // samples a pixel: 1 (the pixel centre), 4 or 8 (kernels/frame/raster/samples.h); the
                        //   visibility buffer holds this many keys a pixel, sample-major
};

// One triangle (or one piece of a triangle clipped in clip space) ready for coverage tests.
// Coordinates are 24.8 fixed point in pixels with y pointing down (row 0 = top of the image),
// oriented so that the edge functions are positive inside.
struct RasterTri {
  int32_t x[3], y[3];  // snapped vertex positions, 1/256 pixel
  int32_t px0, py0;    // first pixel (inclusive) whose centre can be covered, inside the frame
  int32_t px1, py1;    // last pixel (inclusive), inside the frame
  float z0;            // window depth (0 near .. 1 far) at vertex 0
  float dz1, dz2;      // window depth at vertex 1 and 2 minus z0
  float inv_area;      // 1 / (twice the signed area), in 1/(1/256 px)^2
  uint32_t tri;        // index of the original triangle in the scene
};

// Per-frame counters, summed over all triangles (both backends fill them).
struct TriCounters {
  uint32_t culled;    // back-facing, zero area, off-screen, or covering no pixel centre
  uint32_t clipped;   // crossed a clip plane (near, far or guard band) and were cut
  uint32_t nan;       // had a NaN or infinite vertex and were dropped
  uint32_t drawn;     // reached rasterization (clipped pieces count once per piece)
  uint32_t occluded;  // in meshlets skipped as hidden behind what the frame drew first
                      //   (CUDA occlusion culling, occlusion.h; the CPU backend draws them)
};

}  // namespace facet
