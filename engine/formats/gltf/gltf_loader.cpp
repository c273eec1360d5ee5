// load_gltf: the file is read and checked (gltf_files.h: size, GLB chunks, JSON nesting, buffer
// and image files confined to the model's folder; gltf_json.h: the JSON's indices and sizes;
// gltf_check.h: every index, the node trees, buffer views and accessors, and the default scene's
// size with its instancing multiplied out, all before anything is built); tinygltf parses it and
// loads its buffers; the nodes of the scene are walked with their transforms (matrix or TRS,
// parent times child), and each triangle primitive is appended to the one flat mesh, positions
// transformed, normals by the inverse transpose, winding kept outward under mirroring transforms.
// Accessors are read with every range checked (gltf_accessors.h); materials and textures by
// gltf_materials.h. The Scene is finished as OBJ's is: normals computed where a primitive has
// none, faces with non-finite positions dropped, bounds (the closed-surface flag is the load's,
// load_pipeline.cpp). Warnings that repeat for many elements are counted (gltf_messages.h).
#include "engine/formats/gltf/gltf_loader.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <set>

#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

#include "engine/formats/gltf/gltf_accessors.h"
#include "engine/formats/gltf/gltf_check.h"
#include "engine/formats/gltf/gltf_files.h"
#include "engine/formats/gltf/gltf_json.h"
#include "engine/formats/gltf/gltf_materials.h"
#include "engine/formats/gltf/gltf_messages.h"
#include "engine/formats/gltf/tinygltf_config.h"
#include "engine/scene/scene_finish.h"
#include "kernels/frame/resolve/srgb.h"

namespace facet {

namespace {

// Required extensions facet reads correctly although it does not implement them: quantized
// attributes are normalised or integer components, which the accessor reader converts.
const std::set<std::string> kSupportedRequiredExtensions = {"KHR_mesh_quantization"};
// Vertex colour of primitives without COLOR_0 in a model where others have it.
constexpr Rgba8 kNoVertexColor{255, 255, 255, 255};

bool ends_with(const std::string& s, const std::string& suffix) {
  if (s.size() < suffix.size()) return false;
  return std::equal(suffix.rbegin(), suffix.rend(), s.rbegin(),
                    [](char a, char b) { return std::tolower((unsigned char)a) == b; });
}

// What tinygltf's image callback sees of the model being read, and why it refused an image.
struct ImageBytes {
  const tinygltf::Model* model = nullptr;
  std::string refusal;
};

// Keeps an embedded image's bytes as they are: texture_file.h decodes them (tinygltf_config.h).
// tinygltf hands over an image in a buffer view without checking that the view lies inside its
// buffer: that is checked here, and only the buffer's own bytes are read.
bool keep_image_bytes(tinygltf::Image* image, const int index, std::string*, std::string*, int, int,
                      const unsigned char* bytes, int size, void* user) {
  ImageBytes& ctx = *static_cast<ImageBytes*>(user);
  if (image->bufferView >= 0) {
    const tinygltf::Model& m = *ctx.model;
    const tinygltf::BufferView& v = m.bufferViews.at((size_t)image->bufferView);  // both checked by tinygltf
    const std::vector<unsigned char>& data = m.buffers.at((size_t)v.buffer).data;
    if (v.byteOffset > data.size() || v.byteLength > data.size() - v.byteOffset) {
      ctx.refusal = "image " + std::to_string(index) + ": buffer view " + std::to_string(image->bufferView) +
                    " (bytes " + std::to_string(v.byteOffset) + ".." + std::to_string(v.byteOffset + v.byteLength) +
                    ") runs past the end of buffer " + std::to_string(v.buffer) + " (" + std::to_string(data.size()) +
                    " bytes)";
      return false;
    }
    image->image.assign(data.begin() + (std::ptrdiff_t)v.byteOffset,
                        data.begin() + (std::ptrdiff_t)(v.byteOffset + v.byteLength));
  } else {
    image->image.assign(bytes, bytes + std::max(size, 0));
  }
  image->as_is = true;
  return true;
}

// The first line of tinygltf's message, with any data URI it quotes cut short, control characters
// escaped, at most 200 bytes.
std::string first_line(const std::string& s, const char* fallback) {
  std::string line = safe_line(s, std::string::npos);
  if (line.empty()) return fallback;
  size_t data = line.find("data:");
  if (data != std::string::npos) {
    size_t end = line.find_first_of(" '\"", data);
    if (end == std::string::npos) end = line.size();
    line.replace(data, end - data, "data:... (" + std::to_string(end - data) + " characters)");
  }
  return safe_line(line);
}

// The required extensions facet does not read. tinygltf may stumble over what such an extension
// changes (Draco leaves accessors without buffer views) before saying why: this names it.
void refuse_unsupported_extensions(const std::vector<std::string>& required) {
  for (const std::string& ext : required)
    if (!kSupportedRequiredExtensions.count(ext))
      throw GltfError("requires the extension " + word_or_quoted(ext) + ", which facet does not read");
}

// The file through tinygltf, after its own checks (gltf_files.h): the JSON's nesting, its
// indices and sizes, the required extensions; buffers are read through `folder`.
tinygltf::Model read_model(const std::string& path, GltfFolder& folder, Scene& scene) {
  const std::string bytes = read_model_file(path);
  const bool binary = ends_with(path, ".glb");
  const JsonSpan json = gltf_json_span(bytes, binary);
  check_json_depth(bytes.data() + json.offset, json.size, json.offset);
  const JsonFacts facts = check_json(bytes.data() + json.offset, json.size);
  if (facts.parsed) refuse_unsupported_extensions(facts.required);
  tinygltf::Model model;
  tinygltf::TinyGLTF reader;
  ImageBytes images{&model, ""};
  reader.SetImageLoader(keep_image_bytes, &images);
  folder.install(reader);
  std::string err, warn;
  // Sizes fit 32 bits: read_model_file caps them.
  const bool ok =
      binary ? reader.LoadBinaryFromMemory(&model, &err, &warn, reinterpret_cast<const unsigned char*>(bytes.data()),
                                           (unsigned)bytes.size(), folder.base())
             : reader.LoadASCIIFromString(&model, &err, &warn, bytes.data(), (unsigned)bytes.size(), folder.base());
  if (!ok) {
    if (!folder.refusal().empty()) throw GltfError(folder.refusal());
    if (!images.refusal.empty()) throw GltfError(images.refusal);
    check_json_references(bytes.data() + json.offset, json.size, facts);
    throw GltfError(first_line(err, "cannot be parsed as glTF"));
  }
  if (!warn.empty()) scene.warnings.push_back(path + ": " + first_line(warn, ""));
  refuse_unsupported_extensions(model.extensionsRequired);
  check_gltf(model, folder);
  return model;
}

glm::mat4 local_transform(const tinygltf::Node& n) {
  glm::mat4 m(1.0f);
  if (n.matrix.size() == 16) {  // column-major, as glm stores it
    for (int i = 0; i < 16; ++i) m[i / 4][i % 4] = (float)n.matrix[(size_t)i];
    return m;
  }
  if (n.translation.size() == 3)
    m = glm::translate(m, glm::vec3((float)n.translation[0], (float)n.translation[1], (float)n.translation[2]));
  if (n.rotation.size() == 4)  // glTF stores x, y, z, w
    m *= glm::mat4_cast(
        glm::quat((float)n.rotation[3], (float)n.rotation[0], (float)n.rotation[1], (float)n.rotation[2]));
  if (n.scale.size() == 3) m = glm::scale(m, glm::vec3((float)n.scale[0], (float)n.scale[1], (float)n.scale[2]));
  return m;
}

// The triangles of a primitive's vertex sequence `v` (glTF 2.0, 3.7.2.1: strips alternate
// their winding, fans turn about the first vertex).
BigVector<uint32_t> triangle_list(int mode, const std::vector<uint32_t>& v, const std::string& what) {
  if (mode == TINYGLTF_MODE_TRIANGLES) {
    if (v.size() % 3) throw GltfError(what + ": " + std::to_string(v.size()) + " vertices, not a multiple of 3");
    return {v.begin(), v.end()};
  }
  BigVector<uint32_t> t;
  for (size_t i = 0; i + 2 < v.size(); ++i) {
    if (mode == TINYGLTF_MODE_TRIANGLE_STRIP) {
      const size_t odd = i % 2;
      t.insert(t.end(), {v[i], v[i + 1 + odd], v[i + 2 - odd]});
    } else {
      t.insert(t.end(), {v[i + 1], v[i + 2], v[0]});
    }
  }
  return t;
}

struct Builder {
  std::string path;
  const tinygltf::Model& model;
  Scene& scene;
  GltfWarnings& warnings;
  GltfMaterials materials;
  bool any_uvs = false, any_colors = false;
  size_t skipped_primitives = 0;  // points and lines
  size_t empty_primitives = 0;    // POSITION without data
};

// COLOR_0 (vec3 or vec4, float or normalised integers; linear, as glTF defines it) as the
// scene's sRGB RGBA8 (alpha stays linear).
std::vector<Rgba8> read_colors(const tinygltf::Model& m, int accessor, size_t count, const std::string& what) {
  const int comps =
      accessor >= 0 && (size_t)accessor < m.accessors.size() && m.accessors[(size_t)accessor].type == TINYGLTF_TYPE_VEC3
          ? 3
          : 4;
  std::vector<float> c = read_accessor_floats(m, accessor, comps, what);
  if (c.size() != count * (size_t)comps) throw GltfError(what + ": not one colour per vertex");
  auto q = [](float v) { return (uint8_t)std::lround(std::clamp(std::isfinite(v) ? v : 0.0f, 0.0f, 1.0f) * 255.0f); };
  std::vector<Rgba8> out(count);
  for (size_t i = 0; i < count; ++i) {
    const float* p = &c[i * (size_t)comps];
    out[i] = {srgb_encode8(p[0]), srgb_encode8(p[1]), srgb_encode8(p[2]), comps == 4 ? q(p[3]) : (uint8_t)255};
  }
  return out;
}

// An attribute with `comps` floats per vertex, or empty when the primitive has none.
std::vector<float> attribute(const Builder& b, const tinygltf::Primitive& prim, const char* name, int comps,
                             size_t count, const std::string& what) {
  auto it = prim.attributes.find(name);
  if (it == prim.attributes.end()) return {};
  std::vector<float> v = read_accessor_floats(b.model, it->second, comps, what + " " + name);
  if (v.size() != count * (size_t)comps)
    throw GltfError(what + ": " + name + " has " + std::to_string(v.size() / (size_t)comps) + " elements, POSITION " +
                    std::to_string(count));
  return v;
}

void append_vertices(Builder& b, const tinygltf::Primitive& prim, const glm::mat4& world, size_t n,
                     const std::vector<float>& pos, const BigVector<uint32_t>& tris, const std::string& what) {
  Scene& s = b.scene;
  const size_t base = s.positions.size();
  for (size_t i = 0; i < n; ++i) {
    glm::vec4 p = world * glm::vec4(pos[3 * i], pos[3 * i + 1], pos[3 * i + 2], 1.0f);
    s.positions.push_back({p.x, p.y, p.z});
  }
  std::vector<float> nrm = attribute(b, prim, "NORMAL", 3, n, what);
  if (nrm.empty()) {  // this primitive's own area-weighted normals, in world space
    const BigVector<Vec3> own(s.positions.begin() + (std::ptrdiff_t)base, s.positions.end());
    const BigVector<Vec3> computed = compute_vertex_normals(own, tris);
    s.normals.insert(s.normals.end(), computed.begin(), computed.end());
  } else {
    const glm::mat3 to_world = glm::transpose(glm::inverse(glm::mat3(world)));
    for (size_t i = 0; i < n; ++i) {
      glm::vec3 v = to_world * glm::vec3(nrm[3 * i], nrm[3 * i + 1], nrm[3 * i + 2]);
      float len = glm::length(v);
      v = len > 0.0f && std::isfinite(len) ? v / len : glm::vec3(0, 0, 1);
      s.normals.push_back({v.x, v.y, v.z});
    }
  }
  std::vector<float> uv = attribute(b, prim, "TEXCOORD_0", 2, n, what);
  b.any_uvs |= !uv.empty();
  // glTF's v runs down from the image's top row, facet's (OBJ's) up from its bottom row.
  for (size_t i = 0; i < n; ++i) s.uvs.push_back(uv.empty() ? Vec2{0, 0} : Vec2{uv[2 * i], 1.0f - uv[2 * i + 1]});
  auto col = prim.attributes.find("COLOR_0");
  if (col != prim.attributes.end()) {
    std::vector<Rgba8> c = read_colors(b.model, col->second, n, what + " COLOR_0");
    s.colors.insert(s.colors.end(), c.begin(), c.end());
    b.any_colors = true;
  } else {
    s.colors.insert(s.colors.end(), n, kNoVertexColor);
  }
}

void add_primitive(Builder& b, const tinygltf::Primitive& prim, const glm::mat4& world, const std::string& what) {
  if (prim.mode <= TINYGLTF_MODE_LINE_STRIP && prim.mode >= TINYGLTF_MODE_POINTS) {
    ++b.skipped_primitives;
    return;
  }
  if (prim.mode != TINYGLTF_MODE_TRIANGLES && prim.mode != TINYGLTF_MODE_TRIANGLE_STRIP &&
      prim.mode != TINYGLTF_MODE_TRIANGLE_FAN)
    throw GltfError(what + ": unknown primitive mode " + std::to_string(prim.mode));
  auto pos_it = prim.attributes.find("POSITION");
  if (pos_it == prim.attributes.end()) throw GltfError(what + ": no POSITION attribute");
  if (!accessor_has_data(b.model, pos_it->second, what + " POSITION")) {
    // All zeros (glTF 2.0, 3.6.2.3): every triangle would collapse onto the origin and draw
    // nothing, however many the accessor's count asks for.
    ++b.empty_primitives;
    b.warnings.add("primitives whose POSITION has no data",
                   what + ": POSITION (accessor " + std::to_string(pos_it->second) + ", " +
                       std::to_string(b.model.accessors[(size_t)pos_it->second].count) +
                       " elements) has no buffer view and no sparse values, so every vertex lies at the origin; " +
                       "skipped");
    return;
  }
  std::vector<float> pos = read_accessor_floats(b.model, pos_it->second, 3, what + " POSITION");
  const size_t n = pos.size() / 3, base = b.scene.positions.size();
  if (n > std::numeric_limits<uint32_t>::max() - base) throw GltfError(what + ": more than 2^32 vertices in all");
  std::vector<uint32_t> seq;
  if (prim.indices >= 0) {
    seq = read_accessor_indices(b.model, prim.indices, n, what + " indices");
  } else {
    seq.resize(n);
    std::iota(seq.begin(), seq.end(), 0u);
  }
  BigVector<uint32_t> tris = triangle_list(prim.mode, seq, what);
  if (glm::determinant(glm::mat3(world)) < 0.0f)  // a mirroring transform turns the winding inside out
    for (size_t t = 0; t + 2 < tris.size(); t += 3) std::swap(tris[t + 1], tris[t + 2]);
  append_vertices(b, prim, world, n, pos, tris, what);
  const uint32_t material = b.materials.material(prim.material);
  for (uint32_t i : tris) b.scene.indices.push_back((uint32_t)base + i);
  b.scene.tri_material.insert(b.scene.tri_material.end(), tris.size() / 3, material);
}

// Every node under the roots, depth first, each mesh's primitives with the node's world transform.
// check_gltf has made the hierarchy a set of trees: every node is walked once at most.
void walk_nodes(Builder& b, const std::vector<int>& roots) {
  const tinygltf::Model& m = b.model;
  std::vector<std::pair<int, glm::mat4>> stack;
  for (int r : roots) stack.push_back({r, glm::mat4(1.0f)});
  size_t visited = 0;
  while (!stack.empty()) {
    auto [index, parent] = stack.back();
    stack.pop_back();
    if (index < 0 || (size_t)index >= m.nodes.size())
      throw GltfError("node " + std::to_string(index) + " does not exist");
    if (++visited > m.nodes.size()) throw GltfError("the node hierarchy is not a set of trees");
    const tinygltf::Node& node = m.nodes[(size_t)index];
    const glm::mat4 world = parent * local_transform(node);
    if (node.mesh >= 0) {
      if ((size_t)node.mesh >= m.meshes.size())
        throw GltfError("node " + std::to_string(index) + " names mesh " + std::to_string(node.mesh) +
                        ", which does not exist");
      const tinygltf::Mesh& mesh = m.meshes[(size_t)node.mesh];
      for (size_t p = 0; p < mesh.primitives.size(); ++p)
        add_primitive(b, mesh.primitives[p], world,
                      "mesh " + std::to_string(node.mesh) + " primitive " + std::to_string(p));
    }
    for (auto c = node.children.rbegin(); c != node.children.rend(); ++c) stack.push_back({*c, world});
  }
}

// Faces with a NaN or infinite position (after the transforms) are dropped; returns how many.
size_t drop_nonfinite_faces(Scene& s) {
  size_t kept = 0, dropped = 0;
  for (size_t t = 0; t < s.tri_material.size(); ++t) {
    const uint32_t* v = &s.indices[3 * t];
    if (!finite3(s.positions[v[0]]) || !finite3(s.positions[v[1]]) || !finite3(s.positions[v[2]])) {
      ++dropped;
      continue;
    }
    std::copy(v, v + 3, &s.indices[3 * kept]);
    s.tri_material[kept++] = s.tri_material[t];
  }
  s.indices.resize(3 * kept);
  s.tri_material.resize(kept);
  return dropped;
}

Scene load_gltf_unguarded(const std::string& path, const LoadOptions& options) {
  auto progress = [&](float f, const char* stage) {
    if (options.progress) options.progress(f, stage);
  };
  progress(0.0f, "reading");
  Scene scene;
  scene.source = path;
  GltfFolder folder(path, options.read_outside_folder);
  GltfWarnings warnings(path);
  const tinygltf::Model model = read_model(path, folder, scene);
  scene.source_files = folder.files_read();  // the buffers; images follow as they are read
  // Counted before a triangle is built: instancing can multiply a small file into any amount.
  const std::vector<int> roots = gltf_root_nodes(model);
  check_scene_size(count_scene(model, roots));
  progress(0.5f, "building");
  Builder b{path, model, scene, warnings, GltfMaterials(model, scene, folder, warnings)};
  walk_nodes(b, roots);
  warnings.finish(scene);
  if (b.skipped_primitives)
    scene.warnings.push_back(path + ": skipped " + std::to_string(b.skipped_primitives) +
                             " point or line primitives (facet draws triangles)");
  size_t dropped = drop_nonfinite_faces(scene);
  if (scene.indices.empty())
    throw GltfError(dropped ? "no triangles left after dropping " + std::to_string(dropped) +
                                  " faces with NaN or infinite vertex positions"
                            : "no triangles to show in the default scene (" + std::to_string(b.skipped_primitives) +
                                  " point or line primitives skipped" +
                                  (b.empty_primitives ? ", " + std::to_string(b.empty_primitives) +
                                                            " primitives whose POSITION has no data skipped"
                                                      : "") +
                                  ")");
  if (dropped)
    scene.warnings.push_back(path + ": dropped " + std::to_string(dropped) +
                             " faces with NaN or infinite vertex positions");
  if (!b.any_uvs) scene.uvs.clear();
  if (!b.any_colors) scene.colors.clear();
  if (scene.materials.empty()) b.materials.material(-1);
  scene.bounds = compute_bounds(scene.positions);  // the closed-surface flag is the load's
  drop_repeated_warnings(scene);
  progress(1.0f, "done");
  return scene;
}

}  // namespace

bool is_gltf_path(const std::string& path) { return ends_with(path, ".gltf") || ends_with(path, ".glb"); }

Scene load_gltf(const std::string& path, const LoadOptions& options) {
  try {
    return load_gltf_unguarded(path, options);
  } catch (const std::bad_alloc&) {
    throw LoadError(path + ": out of memory while loading");
  } catch (const std::exception& e) {
    throw LoadError(path + ": " + e.what());
  }
}

}  // namespace facet
