// The host-side scene: one flat set of arrays a model is loaded into (positions, normals, UVs,
// triangles, materials, textures with full mip chains), and the bounds the camera frames.
// Loading lives in load_model.h; device upload in the CUDA backend.
#pragma once
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "engine/base/big_vector.h"
#include "kernels/frame/params.h"

namespace facet {

struct Meshlets;  // meshlets.h

// How a load groups the triangles into meshlets (LoadOptions::meshlets), for the renderer that
// draws the scene (Renderer::meshlet_grouping). Keys hold scene indices, and a load that groups
// patches renumbers the scene's triangles in their order (triangle_renumber.h): depth ties go to
// the lower index of the order the scene is held in, which every backend draws.
enum class MeshletGrouping {
  Auto,       // runs of a strip-ordered file, patches of any other (build_meshlets): the CUDA
              //   geometry stage reads each meshlet's own copy of its vertices, and a scan's patches
              //   need about half the copies its runs do
  FileOrder,  // runs whatever the order (build_meshlet_runs): the CPU backend projects each vertex
              //   once and reads triangles through the scene's indices, so patches buy it no fewer
              //   vertices, only a scattered order, and grouping them is most of a first open's
              //   preparing on two cores
};

struct Bounds {
  Vec3 min{0, 0, 0};
  Vec3 max{0, 0, 0};
  Vec3 center{0, 0, 0};  // centre of the bounding sphere (the box centre)
  float radius = 0;      // radius of the bounding sphere around center, > 0 once computed
  bool closed = false;   // the triangles form a closed surface facing outward (closed_outward,
                         //   set by the loader and generators): from outside, back faces never show
};

// A file a load read, or looked for and did not find, as it was when the load looked. The scene
// cache's entry goes stale once any of them differs (a file that appears included: the load would
// read it), and no output may replace one (output_files.h).
struct SourceFile {
  std::string path;       // resolved (absolute, links followed) when it exists, else as looked for
  uint64_t size = 0;      // bytes
  int64_t mtime_ns = -1;  // last modification; -1: not there
  bool exists() const { return mtime_ns >= 0; }
};
// Stamps `path` now and adds it to `files` unless it is there already. Readers call it before they
// read the file: a change after the stamp then makes the cache entry stale, never the picture.
void add_source_file(std::vector<SourceFile>& files, const std::string& path);

struct Scene {
  std::string source;  // file it was loaded from, or a generator's name
  // Every file the load read or looked for: the model first, then each MTL, texture, buffer and
  // image in the order the format's reader came to it. Empty for a generated scene.
  std::vector<SourceFile> source_files;
  // The big arrays are BigVectors (big_vector.h): growing one leaves the new elements unwritten.
  BigVector<Vec3> positions;          // one per vertex, world space
  BigVector<Vec3> normals;            // one per vertex, unit length (computed when the file has none)
  BigVector<Vec2> uvs;                // one per vertex, or empty when the model has no texcoords
  BigVector<Rgba8> colors;            // one per vertex (sRGB as read, alpha unused), or empty when the model has none
  BigVector<uint32_t> indices;        // 3 per triangle
  BigVector<uint32_t> tri_material;   // one per triangle, index into materials
  BigVector<uint32_t> file_triangle;  // per triangle: its index in the file, where the load
                                      //   renumbered the triangles in meshlet order
                                      //   (triangle_renumber.h); empty: the file's order
  std::vector<Material> materials;    // at least one (a default grey when the file has none)
  std::vector<std::string> material_names;  // parallel to materials
  std::vector<TextureDesc> textures;        // map_Kd images with their mip chains
  std::vector<std::string> texture_paths;   // parallel to textures: resolved file, or "<checker>"
  std::vector<Rgba8> texels;                // all levels of all textures
  Bounds bounds;
  std::vector<std::string> warnings;         // what was dropped or replaced while loading
  std::shared_ptr<const Meshlets> meshlets;  // prepared by load_model (meshlets.h); null: the
                                             //   backends build them. Whoever edits the arrays resets it

  uint32_t vertex_count() const { return (uint32_t)positions.size(); }
  uint32_t triangle_count() const { return (uint32_t)(indices.size() / 3); }
  // The file's index of triangle t (what the user is told: frame outputs, the viewer's pick).
  uint32_t file_index(uint32_t t) const { return file_triangle.empty() ? t : file_triangle[t]; }
  // The material every triangle uses, or -1 when they differ (or there are no triangles).
  int64_t single_material() const;
  // Bytes the arrays above occupy (what a backend uploads; file_triangle goes to the device only
  // where frame outputs ask for triangle ids).
  size_t byte_size() const;
  // Pointers into this scene's arrays (and `shade`, built by interleave_shade_vertices), for the
  // CPU backend.
  SceneView view(const ShadeVertex* shade) const;
};

// No pixel of the scene needs more than Kd and the headlight: no texture to sample, no specular,
// emission, ambient colour or vertex colours (the short resolve path, kernels/frame/resolve/shade.h).
bool plain_lit_scene(const Scene& scene);
// Some material can cut samples away (SceneView::has_cutouts).
bool scene_has_cutouts(const Scene& scene);

// positions, normals and uvs interleaved, one 32-byte record per vertex (what resolve reads).
// The normals are quantized to what their 32-bit codes decode to (kernels/frame/resolve/normal_code.h), the
// normals the device holds: both backends shade with the same floats.
std::vector<ShadeVertex> interleave_shade_vertices(const Scene& scene);
// Vertices [begin, end) of the same records written to out[0 .. end - begin), on the calling
// thread: for callers that split the work or write straight into a staging buffer.
void interleave_shade_range(const Scene& scene, uint64_t begin, uint64_t end, ShadeVertex* out);

// Every coordinate finite (no NaN, no infinity).
inline bool finite3(const Vec3& p) { return std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z); }

// Bounding box and sphere of the positions (finite ones only).
Bounds compute_bounds(const BigVector<Vec3>& positions);

// Area-weighted vertex normals of the triangles (for meshes without normals).
BigVector<Vec3> compute_vertex_normals(const BigVector<Vec3>& positions, const BigVector<uint32_t>& indices);

// Appends an RGBA8 image and its full mip chain (box filter) to the scene; returns its index.
int32_t add_texture(Scene& scene, const std::string& path, int width, int height, const std::vector<Rgba8>& level0);

// A 8x8-square checker, the visible stand-in for a texture that could not be loaded.
int32_t add_checker_texture(Scene& scene);

}  // namespace facet
