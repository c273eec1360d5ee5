// The meshlet being filled, shared by both meshlet groupings (meshlets.h), and the joining of
// groupings built apart (a range of triangles each) into one Meshlets. Not the choice of which
// triangle comes next: that is each grouping's own.
//
// A meshlet's scene vertex -> local index map is a small hash table of its own, not an array over
// every scene vertex: many groupings run at once (one per worker), and 128 entries stay in L1
// where a per-vertex array is a cache miss a corner.
#pragma once
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "engine/meshlets/meshlets.h"

namespace facet {

// Scene vertex -> local index for at most kMeshletMaxVertices vertices (open addressing).
class LocalVertices {
 public:
  LocalVertices() { std::fill(m_key, m_key + kSlots, kFree); }
  // v's local index, or -1.
  int find(uint32_t v) const {
    for (uint32_t s = slot(v);; s = (s + 1) & (kSlots - 1)) {
      if (m_key[s] == v) return m_local[s];
      if (m_key[s] == kFree) return -1;
    }
  }
  void insert(uint32_t v, int local) {
    uint32_t s = slot(v);
    while (m_key[s] != kFree) s = (s + 1) & (kSlots - 1);
    m_key[s] = v;
    m_local[s] = (uint8_t)local;
    m_used[m_count++] = (uint16_t)s;
  }
  void clear() {
    for (uint32_t i = 0; i < m_count; ++i) m_key[m_used[i]] = kFree;
    m_count = 0;
  }

 private:
  // Twice the vertex limit: probes stay short when the meshlet is full.
  static constexpr uint32_t kSlots = 2 * kMeshletMaxVertices;
  static constexpr uint32_t kFree = ~0u;  // not a vertex: indices were checked below vertex_count
  static uint32_t slot(uint32_t v) { return (v * 0x9e3779b1u) >> 24 & (kSlots - 1); }
  uint32_t m_key[kSlots];
  uint8_t m_local[kSlots];
  uint16_t m_used[kMeshletMaxVertices];
  uint32_t m_count = 0;
};
static_assert(2 * kMeshletMaxVertices <= 256, "slot() yields 8 bits");

// Local index of each vertex of a range of vertices numbered 0..count-1 (a patch range's own
// numbering, meshlet_patches.cpp): a plain array, cheaper than hashing.
class LocalVertexArray {
 public:
  explicit LocalVertexArray(uint32_t count) : m_local(count, -1) {}
  // Empty again, for vertices 0..count-1 (keeping the memory).
  void reset(uint32_t count) {
    m_local.assign(count, -1);
    m_used.clear();
  }
  int find(uint32_t v) const { return m_local[v]; }
  void insert(uint32_t v, int local) {
    m_local[v] = (int16_t)local;
    m_used.push_back(v);
  }
  void clear() {
    for (uint32_t v : m_used) m_local[v] = -1;
    m_used.clear();
  }

 private:
  std::vector<int16_t> m_local;  // -1: not in the meshlet
  std::vector<uint32_t> m_used;
};

// The meshlet being filled, appended to `out` as triangles join it. Its vertices are told apart
// by a key a corner (the scene's vertex index, or a range's own numbering) through `Local`:
// LocalVertices or LocalVertexArray.
template <class Local>
class MeshletBeingFilled {
 public:
  MeshletBeingFilled(Meshlets& out, Local local) : m_out(out), m_local(std::move(local)) {}

  const Meshlet& meshlet() const { return m_cur; }
  // Vertices a triangle with these three corner keys would add (a repeated corner counts once).
  int fresh_vertices(const uint32_t* key) const {
    int fresh = 0;
    for (int k = 0; k < 3; ++k) {
      bool repeat = (k > 0 && key[k] == key[0]) || (k > 1 && key[k] == key[1]);
      fresh += !repeat && m_local.find(key[k]) < 0;
    }
    return fresh;
  }
  // Appends scene triangle t, whose corners have these keys and positions position(k) (and, with
  // ids, its index); calls new_vertex(k) for each corner k whose vertex it adds.
  template <class Position, class NewVertex>
  void add(uint32_t t, const uint32_t* key, Position&& position, bool ids, NewVertex&& new_vertex) {
    uint32_t packed = 0;
    for (int k = 0; k < 3; ++k) {
      int local = m_local.find(key[k]);
      if (local < 0) {
        local = m_cur.vertex_count++;
        m_local.insert(key[k], local);
        m_out.positions.push_back(position(k));
        new_vertex(k);
      }
      packed |= (uint32_t)local << (8 * k);
    }
    m_out.triangles.push_back(packed);
    if (ids) m_out.triangle_ids.push_back(t);
    ++m_cur.triangle_count;
  }
  // The vertex map, handed back for the next grouping (the open meshlet is done with).
  Local take_local() { return std::move(m_local); }
  // Closes the meshlet (its bounds come later: finish_meshlets), opens the next one.
  void close() {
    if (m_cur.triangle_count) m_out.meshlets.push_back(m_cur);
    m_local.clear();
    m_cur = Meshlet{};
    m_cur.first_triangle = (uint32_t)m_out.triangles.size();
    m_cur.first_vertex = (uint32_t)m_out.positions.size();
  }

 private:
  Meshlets& m_out;
  Local m_local;
  Meshlet m_cur{};
};

// The parts, each grouped apart with offsets from its own start, one after another in part order
// (the same result for any number of threads); the parts are emptied.
Meshlets join_meshlets(std::vector<Meshlets>& parts);

}  // namespace facet
