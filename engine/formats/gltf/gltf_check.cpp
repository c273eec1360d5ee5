// What glTF forbids, checked before anything is built (gltf_check.h).
#include "engine/formats/gltf/gltf_check.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <utility>

#include "engine/formats/gltf/gltf_accessors.h"
#include "engine/formats/gltf/gltf_files.h"
#include "engine/formats/gltf/gltf_messages.h"
#include "engine/formats/gltf/tinygltf_config.h"

namespace facet {

namespace {

std::string str(uint64_t v) { return std::to_string(v); }
std::string num(int64_t v) { return std::to_string(v); }

uint64_t add_sat(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }
uint64_t mul_sat(uint64_t a, uint64_t b) { return b && a > UINT64_MAX / b ? UINT64_MAX : a * b; }

// `index` (of `who`) must name one of the `count` elements of `kind`; -1 is tinygltf's "absent",
// allowed where the reference is optional.
void check_index(int index, size_t count, const char* kind, const std::string& who, bool optional = true) {
  if (optional && index == -1) return;
  if (index < 0 || (size_t)index >= count)
    throw GltfError(who + ": " + kind + " " + num(index) + " does not exist (the file has " + str(count) + ")");
}

const char* type_name(int type) {
  switch (type) {
    case TINYGLTF_TYPE_SCALAR:
      return "SCALAR";
    case TINYGLTF_TYPE_VEC2:
      return "VEC2";
    case TINYGLTF_TYPE_VEC3:
      return "VEC3";
    case TINYGLTF_TYPE_VEC4:
      return "VEC4";
    case TINYGLTF_TYPE_MAT2:
      return "MAT2";
    case TINYGLTF_TYPE_MAT3:
      return "MAT3";
    case TINYGLTF_TYPE_MAT4:
      return "MAT4";
    default:
      return nullptr;
  }
}

const char* component_name(int type) {
  switch (type) {
    case TINYGLTF_COMPONENT_TYPE_BYTE:
      return "byte";
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
      return "unsigned byte";
    case TINYGLTF_COMPONENT_TYPE_SHORT:
      return "short";
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT:
      return "unsigned short";
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
      return "unsigned int";
    case TINYGLTF_COMPONENT_TYPE_FLOAT:
      return "float";
    default:
      return nullptr;  // int and double are tinygltf's, not glTF's
  }
}

// Bytes of one element: matrix columns start on 4-byte boundaries (glTF 2.0, 3.6.2.4).
size_t element_bytes(int type, size_t component_bytes) {
  const size_t comps = (size_t)tinygltf::GetNumComponentsInType((uint32_t)type);
  if (type == TINYGLTF_TYPE_MAT2 || type == TINYGLTF_TYPE_MAT3 || type == TINYGLTF_TYPE_MAT4) {
    const size_t rows = type == TINYGLTF_TYPE_MAT2 ? 2 : type == TINYGLTF_TYPE_MAT3 ? 3 : 4;
    return rows * ((rows * component_bytes + 3) / 4 * 4);
  }
  return comps * component_bytes;
}

// ---- The node hierarchy ----

std::string loop_text(const std::vector<int>& loop) {
  std::string s;
  const auto add = [&](int n) { s += (s.empty() ? "" : " -> ") + num(n); };
  if (loop.size() <= 8) {
    for (int n : loop) add(n);
    return s;
  }
  for (size_t i = 0; i < 4; ++i) add(loop[i]);
  s += " -> ...";
  for (size_t i = loop.size() - 3; i < loop.size(); ++i) add(loop[i]);
  return s + ", a loop of " + str(loop.size() - 1) + " nodes";
}

void check_nodes(const tinygltf::Model& m) {
  const size_t n = m.nodes.size();
  std::vector<size_t> seen(n, SIZE_MAX);  // the node that last named each node as a child
  for (size_t i = 0; i < n; ++i) {
    const tinygltf::Node& node = m.nodes[i];
    const std::string who = "node " + str(i);
    check_index(node.mesh, m.meshes.size(), "mesh", who);
    check_index(node.skin, m.skins.size(), "skin", who);
    check_index(node.camera, m.cameras.size(), "camera", who);
    for (int c : node.children) {
      check_index(c, n, "child node", who, false);
      if ((size_t)c == i) throw GltfError(who + " is its own child");
      if (seen[(size_t)c] == i) throw GltfError(who + " names child node " + num(c) + " twice");
      seen[(size_t)c] = i;
    }
    const auto check_length = [&](const std::vector<double>& v, size_t want, const char* what) {
      if (!v.empty() && v.size() != want)
        throw GltfError(who + " has a " + what + " of " + str(v.size()) + " numbers (glTF: " + str(want) + ")");
    };
    check_length(node.matrix, 16, "matrix");
    check_length(node.translation, 3, "translation");
    check_length(node.rotation, 4, "rotation");
    check_length(node.scale, 3, "scale");  // (a matrix beside them is refused by check_json)
  }
  // A loop: a node reached again while its own children are walked (depth first, every node).
  std::vector<uint8_t> state(n, 0);          // 0 not reached, 1 on the current path, 2 done
  std::vector<std::pair<int, size_t>> path;  // node, next child
  for (size_t start = 0; start < n; ++start) {
    if (state[start]) continue;
    state[start] = 1;
    path.push_back({(int)start, 0});
    while (!path.empty()) {
      const int node = path.back().first;
      const std::vector<int>& children = m.nodes[(size_t)node].children;
      if (path.back().second == children.size()) {
        state[(size_t)node] = 2;
        path.pop_back();
        continue;
      }
      const int c = children[path.back().second++];
      if (state[(size_t)c] == 1) {
        std::vector<int> loop;
        size_t k = path.size();
        while (path[k - 1].first != c) --k;
        for (size_t j = k - 1; j < path.size(); ++j) loop.push_back(path[j].first);
        loop.push_back(c);
        throw GltfError("node " + num(c) + " is its own ancestor (" + loop_text(loop) + ")");
      }
      if (state[(size_t)c] == 0) {
        state[(size_t)c] = 1;
        path.push_back({c, 0});
      }
    }
  }
  // glTF's hierarchy is a set of disjoint trees: one parent at most.
  std::vector<int> parent(n, -1);
  for (size_t i = 0; i < n; ++i)
    for (int c : m.nodes[i].children) {
      if (parent[(size_t)c] >= 0)
        throw GltfError("node " + num(c) + " is a child of both node " + num(parent[(size_t)c]) + " and node " +
                        str(i) + " (a glTF node has one parent at most)");
      parent[(size_t)c] = (int)i;
    }
  if (m.defaultScene != -1 && (m.defaultScene < 0 || (size_t)m.defaultScene >= m.scenes.size()))
    throw GltfError("the default scene is scene " + num(m.defaultScene) + ", which does not exist (the file has " +
                    str(m.scenes.size()) + ")");
  std::vector<size_t> in_scene(n, SIZE_MAX);
  for (size_t s = 0; s < m.scenes.size(); ++s) {
    const std::string who = "scene " + str(s);
    for (int r : m.scenes[s].nodes) {
      check_index(r, n, "node", who, false);
      if (in_scene[(size_t)r] == s) throw GltfError(who + " names node " + num(r) + " twice");
      in_scene[(size_t)r] = s;
      if (parent[(size_t)r] >= 0)
        throw GltfError(who + " names node " + num(r) + " as a root, but it is a child of node " +
                        num(parent[(size_t)r]));
    }
  }
}

// ---- Meshes, materials, textures, images ----

// Every accessor a primitive names exists; indices have no byteStride. `use` gets, for each
// accessor, the first primitive that reads it ("mesh 0 primitive 1 POSITION"), for messages.
void check_meshes(const tinygltf::Model& m, std::vector<std::string>& use) {
  const auto used = [&](int a, const std::string& who) {
    check_index(a, m.accessors.size(), "accessor", who, false);
    if (use[(size_t)a].empty()) use[(size_t)a] = who;
  };
  for (size_t i = 0; i < m.meshes.size(); ++i)
    for (size_t p = 0; p < m.meshes[i].primitives.size(); ++p) {
      const tinygltf::Primitive& prim = m.meshes[i].primitives[p];
      const std::string who = "mesh " + str(i) + " primitive " + str(p);
      for (const auto& [name, a] : prim.attributes) used(a, who + " " + word_or_quoted(name, 32));
      for (size_t t = 0; t < prim.targets.size(); ++t)
        for (const auto& [name, a] : prim.targets[t]) used(a, who + " morph target " + str(t));
      check_index(prim.material, m.materials.size(), "material", who);
      if (prim.indices == -1) continue;
      used(prim.indices, who + " indices");
      const int view = m.accessors[(size_t)prim.indices].bufferView;
      if (view >= 0 && (size_t)view < m.bufferViews.size() && m.bufferViews[(size_t)view].byteStride)
        throw GltfError(who + " indices: accessor " + num(prim.indices) + " lies in buffer view " + num(view) +
                        ", which has byteStride " + str(m.bufferViews[(size_t)view].byteStride) +
                        " (glTF forbids a byteStride on the buffer view of indices)");
    }
}

void check_materials(const tinygltf::Model& m, const GltfFolder& folder) {
  for (size_t i = 0; i < m.materials.size(); ++i) {
    const tinygltf::Material& mat = m.materials[i];
    const std::string who = "material " + str(i);
    check_index(mat.pbrMetallicRoughness.baseColorTexture.index, m.textures.size(), "texture",
                who + " baseColorTexture");
    check_index(mat.pbrMetallicRoughness.metallicRoughnessTexture.index, m.textures.size(), "texture",
                who + " metallicRoughnessTexture");
    check_index(mat.normalTexture.index, m.textures.size(), "texture", who + " normalTexture");
    check_index(mat.occlusionTexture.index, m.textures.size(), "texture", who + " occlusionTexture");
    check_index(mat.emissiveTexture.index, m.textures.size(), "texture", who + " emissiveTexture");
  }
  for (size_t i = 0; i < m.textures.size(); ++i) {
    const std::string who = "texture " + str(i);
    check_index(m.textures[i].sampler, m.samplers.size(), "sampler", who);
    check_index(m.textures[i].source, m.images.size(), "image", who);
  }
  for (size_t i = 0; i < m.images.size(); ++i) {
    const tinygltf::Image& img = m.images[i];
    check_index(img.bufferView, m.bufferViews.size(), "buffer view", "image " + str(i));
    // tinygltf keeps the URI of an external file only (a data: URI is decoded into the bytes).
    if (!img.uri.empty() && img.uri.rfind("data:", 0) != 0)
      folder.resolve(percent_decode(img.uri), "image " + str(i) + "'s URI");
  }
}

// ---- Buffer views and accessors ----

void check_buffer_views(const tinygltf::Model& m) {
  for (size_t i = 0; i < m.bufferViews.size(); ++i) {
    const tinygltf::BufferView& v = m.bufferViews[i];
    const std::string who = "buffer view " + str(i);
    check_index(v.buffer, m.buffers.size(), "buffer", who, false);
    const size_t size = m.buffers[(size_t)v.buffer].data.size();
    if (v.byteOffset > size || v.byteLength > size - v.byteOffset)
      throw GltfError(who + " (bytes " + str(v.byteOffset) + ".." + str(add_sat(v.byteOffset, v.byteLength)) +
                      ") runs past the end of buffer " + num(v.buffer) + " (" + str(size) + " bytes)");
    if (v.byteStride && (v.byteStride < 4 || v.byteStride > 252 || v.byteStride % 4))
      throw GltfError(who + " has byteStride " + str(v.byteStride) + " (glTF: 4 to 252, a multiple of 4)");
  }
}

// `n` items of `item` bytes, `stride` apart from byte `offset` of buffer view `view`, lie inside
// it; `items` describes them ("8 VEC3 of float (12 bytes each)").
void check_span(const tinygltf::Model& m, int view, uint64_t offset, uint64_t n, uint64_t item, uint64_t stride,
                const std::string& who, const std::string& items) {
  if (n == 0) return;
  const uint64_t length = m.bufferViews[(size_t)view].byteLength;
  const uint64_t need = add_sat(mul_sat(stride, n - 1), item);
  if (add_sat(offset, need) > length)
    throw GltfError(who + ": " + items + " need " + str(need) + " bytes from byte " + str(offset) +
                    ", past the end of buffer view " + num(view) + " (" + str(length) + " bytes)");
}

void check_accessors(const tinygltf::Model& m, const std::vector<std::string>& use) {
  for (size_t i = 0; i < m.accessors.size(); ++i) {
    const tinygltf::Accessor& a = m.accessors[i];
    const std::string who = "accessor " + str(i) + (use[i].empty() ? "" : " (" + use[i] + ")");
    const char* type = type_name(a.type);
    const char* component = component_name(a.componentType);
    if (!type) throw GltfError(who + ": unknown type " + num(a.type));
    if (!component) throw GltfError(who + ": unknown component type " + num(a.componentType));
    const size_t csize = (size_t)tinygltf::GetComponentSizeInBytes((uint32_t)a.componentType);
    const size_t elem = element_bytes(a.type, csize);
    check_index(a.bufferView, m.bufferViews.size(), "buffer view", who);
    if (a.bufferView >= 0) {
      const tinygltf::BufferView& v = m.bufferViews[(size_t)a.bufferView];
      if (a.byteOffset % csize)
        throw GltfError(who + ": byteOffset " + str(a.byteOffset) + " is not a multiple of its component size (" +
                        str(csize) + " bytes)");
      if ((v.byteOffset + a.byteOffset) % csize)
        throw GltfError(who + ": starts at byte " + str(v.byteOffset + a.byteOffset) + " of buffer " + num(v.buffer) +
                        ", not a multiple of its component size (" + str(csize) + " bytes)");
      if (v.byteStride && v.byteStride < elem)
        throw GltfError(who + ": buffer view " + num(a.bufferView) + " has byteStride " + str(v.byteStride) +
                        ", less than one element (" + str(elem) + " bytes)");
      const size_t stride = v.byteStride ? v.byteStride : elem;
      check_span(m, a.bufferView, a.byteOffset, a.count, elem, stride, who,
                 str(a.count) + " " + type + " of " + component + " (" + str(elem) + " bytes each" +
                     (v.byteStride ? ", " + str(stride) + " apart" : "") + ")");
    }
    if (!a.sparse.isSparse) continue;
    const int n = a.sparse.count;
    if (n < 1 || (uint64_t)n > a.count)
      throw GltfError(who + ": sparse count " + num(n) + " (glTF: 1 to the accessor's " + str(a.count) + ")");
    const int itype = a.sparse.indices.componentType;
    if (itype != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE && itype != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
        itype != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT)
      throw GltfError(who + ": sparse indices of component type " + num(itype) + " (must be unsigned)");
    const int iview = a.sparse.indices.bufferView, vview = a.sparse.values.bufferView;
    check_index(iview, m.bufferViews.size(), "buffer view", who + " sparse indices", false);
    check_index(vview, m.bufferViews.size(), "buffer view", who + " sparse values", false);
    if (a.sparse.indices.byteOffset < 0 || a.sparse.values.byteOffset < 0)
      throw GltfError(who + ": a negative sparse byteOffset");
    const size_t isize = (size_t)tinygltf::GetComponentSizeInBytes((uint32_t)itype);
    check_span(m, iview, (uint64_t)a.sparse.indices.byteOffset, (uint64_t)n, isize, isize, who + " sparse indices",
               num(n) + " indices of " + str(isize) + " bytes");
    check_span(m, vview, (uint64_t)a.sparse.values.byteOffset, (uint64_t)n, elem, elem, who + " sparse values",
               num(n) + " values of " + str(elem) + " bytes");
  }
}

// ---- Skins and animations (not drawn, but what they name must exist) ----

void check_skins_and_animations(const tinygltf::Model& m) {
  for (size_t i = 0; i < m.skins.size(); ++i) {
    const tinygltf::Skin& s = m.skins[i];
    const std::string who = "skin " + str(i);
    check_index(s.inverseBindMatrices, m.accessors.size(), "accessor", who + " inverseBindMatrices");
    check_index(s.skeleton, m.nodes.size(), "node", who + " skeleton");
    for (int j : s.joints) check_index(j, m.nodes.size(), "node", who + " joints", false);
  }
  for (size_t i = 0; i < m.animations.size(); ++i) {
    const tinygltf::Animation& a = m.animations[i];
    for (size_t c = 0; c < a.channels.size(); ++c) {
      const std::string who = "animation " + str(i) + " channel " + str(c);
      check_index(a.channels[c].sampler, a.samplers.size(), "sampler", who, false);
      check_index(a.channels[c].target_node, m.nodes.size(), "node", who);
    }
    for (size_t s = 0; s < a.samplers.size(); ++s) {
      const std::string who = "animation " + str(i) + " sampler " + str(s);
      check_index(a.samplers[s].input, m.accessors.size(), "accessor", who + " input", false);
      check_index(a.samplers[s].output, m.accessors.size(), "accessor", who + " output", false);
    }
  }
}

}  // namespace

void check_gltf(const tinygltf::Model& m, const GltfFolder& folder) {
  check_nodes(m);
  std::vector<std::string> use(m.accessors.size());
  check_meshes(m, use);
  check_materials(m, folder);
  check_buffer_views(m);
  check_accessors(m, use);
  check_skins_and_animations(m);
}

std::vector<int> gltf_root_nodes(const tinygltf::Model& m) {
  const int s = m.defaultScene >= 0 ? m.defaultScene : m.scenes.empty() ? -1 : 0;
  if (s >= 0 && (size_t)s < m.scenes.size()) return m.scenes[(size_t)s].nodes;
  std::vector<bool> is_child(m.nodes.size(), false);
  for (const tinygltf::Node& n : m.nodes)
    for (int c : n.children)
      if (c >= 0 && (size_t)c < is_child.size()) is_child[(size_t)c] = true;
  std::vector<int> roots;
  for (size_t i = 0; i < m.nodes.size(); ++i)
    if (!is_child[i]) roots.push_back((int)i);
  return roots;
}

GltfSceneSize count_scene(const tinygltf::Model& m, const std::vector<int>& roots) {
  GltfSceneSize size;
  std::vector<int> stack(roots.rbegin(), roots.rend());
  const auto count_of = [&](int a) {
    return a >= 0 && (size_t)a < m.accessors.size() ? m.accessors[(size_t)a].count : 0;
  };
  while (!stack.empty()) {
    const int index = stack.back();
    stack.pop_back();
    if (index < 0 || (size_t)index >= m.nodes.size()) continue;  // refused by check_gltf
    // A checked hierarchy is a set of trees: every node is reached once at most.
    if (++size.node_instances > m.nodes.size()) throw GltfError("the node hierarchy is not a set of trees");
    const tinygltf::Node& node = m.nodes[(size_t)index];
    if (node.mesh >= 0 && (size_t)node.mesh < m.meshes.size())
      for (const tinygltf::Primitive& prim : m.meshes[(size_t)node.mesh].primitives) {
        auto pos = prim.attributes.find("POSITION");
        const uint64_t vertices = pos == prim.attributes.end() ? 0 : count_of(pos->second);
        const uint64_t corners = prim.indices >= 0 ? count_of(prim.indices) : vertices;
        uint64_t triangles = 0;
        if (prim.mode == TINYGLTF_MODE_TRIANGLES)
          triangles = corners / 3;
        else if (prim.mode == TINYGLTF_MODE_TRIANGLE_STRIP || prim.mode == TINYGLTF_MODE_TRIANGLE_FAN)
          triangles = corners >= 3 ? corners - 2 : 0;
        size.vertices = add_sat(size.vertices, vertices);
        size.triangles = add_sat(size.triangles, triangles);
      }
    stack.insert(stack.end(), node.children.rbegin(), node.children.rend());
  }
  return size;
}

void check_scene_size(const GltfSceneSize& size) {
  const std::string instances = " (" + str(size.node_instances) + " node instances)";
  if (size.triangles > kMaxInstancedTriangles)
    throw GltfError("the default scene has " + str(size.triangles) + " triangles with its instancing multiplied out" +
                    instances + ", more than facet's bound of " + str(kMaxInstancedTriangles) + " (2^31)");
  if (size.vertices > UINT32_MAX)
    throw GltfError("the default scene has " + str(size.vertices) + " vertices with its instancing multiplied out" +
                    instances + ", more than 32-bit indices reach (2^32 - 1)");
}

}  // namespace facet
