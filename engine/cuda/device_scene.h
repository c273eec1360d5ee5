// The scene in device memory, uploaded once per model. Replacing it builds the new buffers
// first, so a failed upload (out of memory) leaves the previous scene intact.
#pragma once
#include "engine/cuda/device_buffer.h"
#include "engine/meshlets/meshlets.h"
#include "engine/scene/scene.h"

namespace facet {

class StagedUpload;
struct CornerBases;

class DeviceScene {
 public:
  // Throws (naming the array and its size) when device memory runs out; *this is unchanged then.
  // Through the scene's vertex records where the device has room for them beside the layout they
  // become, else through the host route (device_scene.cpp): either way the same bytes.
  void upload(const Scene& scene);
  // The host route alone (what upload takes on a device short of room; the tests call it).
  void upload_from_host(const Scene& scene, const Meshlets& meshlets, StagedUpload& staged);
  // Whether the device has room for upload_shading's vertex records and index triples and the
  // least the layout built from them needs: else a load's head start is no use.
  static bool room_for_vertex_route(const Scene& scene);
  // The upload in two parts, for a scene whose meshlets are still being built, or from another
  // thread than the frames' (Renderer::upload_ahead): first every array but the meshlets'
  // (the vertex records and index triples among them), then, once the meshlets exist, theirs,
  // with the meshlet layout of the shading built from both (which frees the first part's vertex
  // arrays: upload_meshlets runs once). Into a fresh DeviceScene: a throw leaves it half made,
  // to be dropped.
  void upload_shading(const Scene& scene, StagedUpload& staged);
  void upload_meshlets(const Scene& scene, StagedUpload& staged);
  // upload_shading (upload_meshlets) ran on this scene: the same arrays, moved or not (a moved
  // std::vector keeps its storage, a moved shared_ptr its object).
  bool holds_shading_of(const Scene& scene) const;
  bool holds_meshlets_of(const Scene& scene) const;
  // The scene as resolve reads it, in the meshlet layout (params.h, MeshletShading; null until
  // upload_meshlets has run): the device code reads no other. `positions`, `shade` and
  // `indices` are null.
  SceneView view() const;
  // The scene's vertex records and index triples, from upload_shading until upload_meshlets
  // turns them into the meshlet layout and frees them; null outside that time. What the load's
  // head start on the device reads (the closed-surface check, the Morton order).
  const ShadeVertex* vertex_records() const { return m_shade.data(); }
  const uint32_t* vertex_indices() const { return m_indices.data(); }
  // The scene as the geometry stage reads it (RasterStageParams' first four fields).
  const Meshlet* meshlets() const { return m_meshlets.data(); }
  uint32_t meshlet_count() const { return (uint32_t)m_meshlets.size(); }
  const MeshletPoint* meshlet_points() const { return m_meshlet_points.data(); }
  // Each slot's packed local indices: their own array, or where slot i holds triangle i (runs,
  // a renumbered scene) the triangles' corner words, whose low 24 bits are the same values and
  // whose d local_index never reads (slots_in_corners: 4 bytes a triangle fewer;
  // RasterStageParams::slots_in_corners).
  const uint32_t* meshlet_triangles() const {
    return slots_in_corners() ? m_triangle_corners.data() : m_meshlet_triangles.data();
  }
  bool slots_in_corners() const { return m_meshlet_triangles.size() == 0 && m_triangle_corners.size() > 0; }
  const uint32_t* meshlet_triangle_ids() const { return m_meshlet_triangle_ids.data(); }
  // [meshlet_count] the last frame number each meshlet showed a pixel in (resolve writes it,
  // occlusion culling reads it); zero after an upload: no meshlet counts as seen.
  uint32_t* meshlet_seen() const { return m_meshlet_seen.data(); }
  // [triangle_count] each scene triangle's meshlet, for occlusion culling (resolve marks the
  // meshlets that show): null until build_triangle_meshlets. 4 bytes a triangle that most
  // scenes never need (a closed model culls its back faces and so never culls by occlusion).
  const uint32_t* triangle_meshlet() const { return m_triangle_meshlet.data(); }
  // Builds them on `stream` from the meshlets (once a scene); false where the device has no room
  // for them (or the scene no meshlets), and the frames then go without occlusion culling.
  bool build_triangle_meshlets(cudaStream_t stream);
  // [triangle_count] the file's number of each scene triangle (Scene::file_triangle) for the
  // triangle_id output, sent the first time a frame's outputs ask (4 bytes a triangle that most
  // frames never need); null for a scene in the file's order.
  const uint32_t* file_triangles(const Scene& scene);
  // Some pixel needs more than Kd and the headlight (plain_lit_scene): resolve's general path.
  bool general_shading() const { return !m_plain_lit; }
  size_t bytes() const;
  bool empty() const { return m_triangle_count == 0 && m_vertex_count == 0; }

 private:
  void upload_meshlets(const Scene& scene, const Meshlets& meshlets, StagedUpload& staged);
  // What both routes send first: the scene's flags, materials, textures and per-triangle
  // materials; the meshlets and, where `slots`, each slot's packed indices.
  void upload_materials(const Scene& scene, StagedUpload& staged);
  void upload_meshlet_arrays(const Meshlets& meshlets, bool slots, StagedUpload& staged);
  static bool reads_slots_from_corners(const Meshlets& meshlets);
  // Sends the corners' vertex bases (both routes: the host makes them from the meshlet records).
  void upload_vertex_bases(const CornerBases& bases, StagedUpload& staged);
  // The meshlet layout from the uploaded meshlets, vertex bases and scene vertex layout, which it
  // then frees. `sent_at`: where the index triples sent are of each scene triangle
  // (MeshletShadingArrays::source_triangles), or null.
  void build_meshlet_shading(size_t meshlet_vertices, const uint32_t* sent_at);

  DeviceBuffer<Meshlet> m_meshlets;  // what geometry streams: about 16 bytes a triangle
  DeviceBuffer<uint32_t> m_meshlet_triangles, m_meshlet_triangle_ids;
  DeviceBuffer<uint32_t> m_triangle_meshlet;  // each scene triangle's meshlet, once needed
  DeviceBuffer<uint32_t> m_meshlet_seen;      // per meshlet, written by the frames
  DeviceBuffer<uint32_t> m_file_triangle;     // Scene::file_triangle, once outputs ask
  // The meshlet layout of the shading (upload_meshlets builds it): what resolve gathers.
  DeviceBuffer<uint32_t> m_triangle_corners;  // corner words (params.h, corner_word)
  DeviceBuffer<uint32_t> m_vertex_bases;      // corner_bases.h
  uint32_t m_base_shift = 0;
  DeviceBuffer<MeshletPoint> m_meshlet_points;  // the geometry stage's positions too
  DeviceBuffer<Vec2> m_meshlet_uvs;             // empty when the model has no uvs
  DeviceBuffer<Rgba8> m_meshlet_colors;         // empty when the model has no vertex colours
  // The scene vertex layout, from upload_shading until the meshlet layout replaces it.
  DeviceBuffer<ShadeVertex> m_shade;
  DeviceBuffer<Rgba8> m_colors;  // per-vertex sRGB colours, empty when the model has none
  DeviceBuffer<uint32_t> m_indices;
  bool m_has_uvs = false;
  bool m_plain_lit = true;         // plain_lit_scene
  bool m_has_cutouts = false;      // scene_has_cutouts
  bool m_sent_renumbered = false;  // the index triples and materials sent are in the order of a
                                   //   renumbered scene (upload_shading saw file_triangle)
  DeviceBuffer<uint32_t> m_tri_material;
  DeviceBuffer<Material> m_materials;
  DeviceBuffer<TextureDesc> m_textures;
  DeviceBuffer<Rgba8> m_texels;
  uint32_t m_vertex_count = 0, m_triangle_count = 0;
  uint32_t m_single_material = 0;  // when m_tri_material is empty
  // The host arrays the two parts read (identity only, never dereferenced): holds_*_of.
  const void* m_source_positions = nullptr;
  const void* m_source_indices = nullptr;
  const void* m_source_meshlets = nullptr;
};

}  // namespace facet
