// glTF accessors into arrays (gltf_accessors.h). tinygltf parses the JSON and loads the buffers
// but leaves the byte ranges of accessors and buffer views to the reader: every one is checked
// here before a byte is read.
#include "engine/formats/gltf/gltf_accessors.h"

#include <algorithm>
#include <cstring>

#include "engine/formats/gltf/tinygltf_config.h"

namespace facet {

namespace {

// An accessor with no buffer view is all zeros but for its sparse values (glTF 2.0, 3.6.2.3) and
// costs the file nothing to declare: a count beyond this is a corrupt file, not a model. 2^24
// elements of the widest attribute facet reads (VEC4 of float) are 256 MiB; a primitive whose
// POSITION has no data at all is skipped before it is read (gltf_loader.cpp).
constexpr size_t kMaxElementsWithoutData = size_t(1) << 24;

std::string str(size_t v) { return std::to_string(v); }

// Where `count` elements of `elem` bytes start in buffer view `view_index` at `offset`, and the
// distance between them; throws GltfError when any of them lies outside the view or its buffer.
struct Span {
  const unsigned char* base = nullptr;
  size_t stride = 0;
};

Span checked_span(const tinygltf::Model& m, int view_index, size_t offset, size_t count, size_t elem, bool strided,
                  const std::string& what) {
  if (view_index < 0 || (size_t)view_index >= m.bufferViews.size())
    throw GltfError(what + ": buffer view " + std::to_string(view_index) + " does not exist");
  const tinygltf::BufferView& v = m.bufferViews[(size_t)view_index];
  const std::string view = "buffer view " + std::to_string(view_index);
  if (v.buffer < 0 || (size_t)v.buffer >= m.buffers.size())
    throw GltfError(what + ": " + view + " names buffer " + std::to_string(v.buffer) + ", which does not exist");
  const std::vector<unsigned char>& data = m.buffers[(size_t)v.buffer].data;
  if (v.byteOffset > data.size() || v.byteLength > data.size() - v.byteOffset)
    throw GltfError(what + ": " + view + " (bytes " + str(v.byteOffset) + ".." + str(v.byteOffset + v.byteLength) +
                    ") runs past the end of buffer " + std::to_string(v.buffer) + " (" + str(data.size()) + " bytes)");
  const size_t stride = strided && v.byteStride ? v.byteStride : elem;
  if (stride < elem)
    throw GltfError(what + ": " + view + " has byteStride " + str(stride) + ", less than one element (" + str(elem) +
                    " bytes)");
  if (count &&
      (offset > v.byteLength || elem > v.byteLength - offset || count - 1 > (v.byteLength - offset - elem) / stride))
    throw GltfError(what + ": " + str(count) + " elements of " + str(elem) + " bytes from byte " + str(offset) +
                    " run past the end of " + view + " (" + str(v.byteLength) + " bytes)");
  return {data.data() + v.byteOffset + offset, stride};
}

const tinygltf::Accessor& accessor_at(const tinygltf::Model& m, int index, const std::string& what) {
  if (index < 0 || (size_t)index >= m.accessors.size())
    throw GltfError(what + ": accessor " + std::to_string(index) + " does not exist (the file has " +
                    str(m.accessors.size()) + ")");
  return m.accessors[(size_t)index];
}

uint32_t unsigned_at(const unsigned char* p, int type) {
  switch (type) {
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
      return p[0];
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
      uint16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    default: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
  }
}

float float_at(const unsigned char* p, int type, bool normalized) {
  switch (type) {
    case TINYGLTF_COMPONENT_TYPE_FLOAT: {
      float v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case TINYGLTF_COMPONENT_TYPE_BYTE: {
      int8_t v;
      std::memcpy(&v, p, 1);
      return normalized ? std::max(v / 127.0f, -1.0f) : v;
    }
    case TINYGLTF_COMPONENT_TYPE_SHORT: {
      int16_t v;
      std::memcpy(&v, p, 2);
      return normalized ? std::max(v / 32767.0f, -1.0f) : v;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
      return normalized ? p[0] / 255.0f : p[0];
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT:
      return normalized ? unsigned_at(p, type) / 65535.0f : unsigned_at(p, type);
    default:
      return (float)unsigned_at(p, type);
  }
}

// Calls put(element, bytes of its first component, component size) for every element of `a`:
// the dense data first, then the sparse substitutions over it. Checks the element size.
template <class Put>
void visit_accessor(const tinygltf::Model& m, const tinygltf::Accessor& a, int comps, const std::string& what,
                    Put put) {
  const int csize = tinygltf::GetComponentSizeInBytes((uint32_t)a.componentType);
  if (csize <= 0) throw GltfError(what + ": unknown component type " + std::to_string(a.componentType));
  const size_t elem = (size_t)comps * (size_t)csize;
  if (a.bufferView >= 0) {
    Span s = checked_span(m, a.bufferView, a.byteOffset, a.count, elem, true, what);
    for (size_t i = 0; i < a.count; ++i) put(i, s.base + i * s.stride, csize);
  }
  if (!a.sparse.isSparse) return;
  const size_t n = (size_t)std::max(a.sparse.count, 0);
  const int itype = a.sparse.indices.componentType;
  const int isize = tinygltf::GetComponentSizeInBytes((uint32_t)itype);
  if (itype != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE && itype != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
      itype != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT)
    throw GltfError(what + ": sparse indices of component type " + std::to_string(itype) + " (must be unsigned)");
  Span idx = checked_span(m, a.sparse.indices.bufferView, (size_t)std::max(a.sparse.indices.byteOffset, 0), n,
                          (size_t)isize, false, what + " (sparse indices)");
  Span val = checked_span(m, a.sparse.values.bufferView, (size_t)std::max(a.sparse.values.byteOffset, 0), n, elem,
                          false, what + " (sparse values)");
  for (size_t k = 0; k < n; ++k) {
    uint32_t i = unsigned_at(idx.base + k * idx.stride, itype);
    if (i >= a.count)
      throw GltfError(what + ": sparse index " + str(i) + " is past the accessor's " + str(a.count) + " elements");
    put(i, val.base + k * val.stride, csize);
  }
}

// Checks the element type and that the dense data lies inside the file, before anything is
// allocated for the accessor's count.
void check_accessor(const tinygltf::Model& m, const tinygltf::Accessor& a, int index, int comps,
                    const std::string& what) {
  const int have = tinygltf::GetNumComponentsInType((uint32_t)a.type);
  if (have != comps)
    throw GltfError(what + ": accessor " + std::to_string(index) + " has " + std::to_string(have) +
                    " components per element, expected " + std::to_string(comps));
  const int csize = tinygltf::GetComponentSizeInBytes((uint32_t)a.componentType);
  if (csize <= 0) throw GltfError(what + ": unknown component type " + std::to_string(a.componentType));
  if (a.bufferView >= 0)
    checked_span(m, a.bufferView, a.byteOffset, a.count, (size_t)comps * (size_t)csize, true, what);
  else if (a.count > kMaxElementsWithoutData)
    throw GltfError(what + ": " + str(a.count) + " elements with no buffer view (at most " +
                    str(kMaxElementsWithoutData) + ")");
}

}  // namespace

size_t accessor_count(const tinygltf::Model& model, int index, const std::string& what) {
  return accessor_at(model, index, what).count;
}

bool accessor_has_data(const tinygltf::Model& model, int index, const std::string& what) {
  const tinygltf::Accessor& a = accessor_at(model, index, what);
  return a.bufferView >= 0 || a.sparse.isSparse;
}

std::vector<float> read_accessor_floats(const tinygltf::Model& model, int index, int components,
                                        const std::string& what) {
  const tinygltf::Accessor& a = accessor_at(model, index, what);
  check_accessor(model, a, index, components, what);
  std::vector<float> out(a.count * (size_t)components, 0.0f);
  visit_accessor(model, a, components, what, [&](size_t i, const unsigned char* p, int csize) {
    for (int c = 0; c < components; ++c)
      out[i * (size_t)components + (size_t)c] = float_at(p + c * csize, a.componentType, a.normalized);
  });
  return out;
}

std::vector<uint32_t> read_accessor_indices(const tinygltf::Model& model, int index, size_t vertex_count,
                                            const std::string& what) {
  const tinygltf::Accessor& a = accessor_at(model, index, what);
  check_accessor(model, a, index, 1, what);
  const int t = a.componentType;
  if (t != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE && t != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
      t != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT)
    throw GltfError(what + ": indices of component type " + std::to_string(t) + " (must be unsigned)");
  std::vector<uint32_t> out(a.count, 0u);
  visit_accessor(model, a, 1, what, [&](size_t i, const unsigned char* p, int) { out[i] = unsigned_at(p, t); });
  for (size_t i = 0; i < out.size(); ++i)
    if (out[i] >= vertex_count)
      throw GltfError(what + ": index " + str(out[i]) + " (element " + str(i) + ") is past the " + str(vertex_count) +
                      " vertices");
  return out;
}

}  // namespace facet
