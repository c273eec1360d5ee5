// The by-position OBJ mesh (see obj_mesh_by_position.h), in passes over the chunks that each run
// on every core: the first use of every position (an atomic minimum over corner numbers), the
// positions each chunk introduces (listed, so the vertex pass reads only those), then the
// vertices and the triangles written in place, into arrays faulted in on every core.
#include "engine/obj_mesh_by_position.h"

#include <atomic>
#include <memory>

#include "engine/big_array.h"
#include "engine/parallel.h"

namespace facet {

namespace {

constexpr uint64_t kUnused = UINT64_MAX;  // a position no kept triangle uses

template <class Fn>
void each_chunk(const ObjModel& model, Fn&& fn) {
  parallel_for(model.chunks.size(), 1, [&](uint64_t b, uint64_t e, unsigned) {
    for (uint64_t i = b; i < e; ++i) fn((size_t)i, model.chunks[i]);
  });
}

struct Plan {
  std::vector<uint64_t> first_triangle;  // per chunk: triangles of the file before it
  std::vector<uint64_t> first_kept;      // per chunk: kept triangles before it
  std::vector<uint64_t> first_vertex;    // per chunk: vertices introduced before it
  std::unique_ptr<std::atomic<uint64_t>[]> first_use;  // per position: first corner number
  std::vector<uint8_t> unusable;                       // per position; empty when none is
  std::vector<std::vector<uint32_t>> introduced;       // per chunk: positions first used there
};

bool kept(const Plan& plan, const ObjChunk& c, size_t t) {
  if (plan.unusable.empty()) return true;
  for (int k = 0; k < 3; ++k)
    if (plan.unusable[(size_t)c.corners[c.triangles[3 * t + k]].v]) return false;
  return true;
}

// Pass 1: each position's first corner number among kept triangles; kept triangles per chunk.
void find_first_uses(const ObjModel& model, Plan& plan) {
  const size_t n = model.chunks.size();
  std::vector<uint64_t> kept_count(n, 0);
  each_chunk(model, [&](size_t i, const ObjChunk& c) {
    for (size_t t = 0; t < c.triangle_faces.size(); ++t) {
      if (!kept(plan, c, t)) continue;
      ++kept_count[i];
      for (int k = 0; k < 3; ++k) {
        const uint64_t corner = 3 * (plan.first_triangle[i] + t) + (uint64_t)k;
        std::atomic<uint64_t>& first = plan.first_use[(size_t)c.corners[c.triangles[3 * t + k]].v];
        uint64_t seen = first.load(std::memory_order_relaxed);
        while (corner < seen && !first.compare_exchange_weak(seen, corner)) {}
      }
    }
  });
  plan.first_kept.assign(n + 1, 0);
  for (size_t i = 0; i < n; ++i) plan.first_kept[i + 1] = plan.first_kept[i] + kept_count[i];
}

// Pass 2: the positions each chunk introduces (its corners that are a position's first use), in
// order, and so the vertices before each chunk.
void list_new_vertices(const ObjModel& model, Plan& plan) {
  const size_t n = model.chunks.size();
  plan.introduced.assign(n, {});
  each_chunk(model, [&](size_t i, const ObjChunk& c) {
    std::vector<uint32_t>& mine = plan.introduced[i];
    for (size_t t = 0; t < c.triangle_faces.size(); ++t)
      for (int k = 0; k < 3; ++k) {
        const uint64_t corner = 3 * (plan.first_triangle[i] + t) + (uint64_t)k;
        const uint32_t v = (uint32_t)c.corners[c.triangles[3 * t + k]].v;
        if (plan.first_use[v].load(std::memory_order_relaxed) == corner) mine.push_back(v);
      }
  });
  plan.first_vertex.assign(n + 1, 0);
  for (size_t i = 0; i < n; ++i) plan.first_vertex[i + 1] = plan.first_vertex[i] + plan.introduced[i].size();
}

}  // namespace

bool obj_vertices_are_positions(const ObjModel& model, bool use_file_normals) {
  if (model.has_smoothing) return false;
  std::vector<uint8_t> other(model.chunks.size(), 0);
  each_chunk(model, [&](size_t i, const ObjChunk& c) {
    for (const ObjCorner& k : c.corners)
      if (k.vt >= 0 || (use_file_normals && k.vn >= 0)) {
        other[i] = 1;
        return;
      }
  });
  for (uint8_t o : other)
    if (o) return false;
  return true;
}

size_t build_obj_mesh_by_position(const ObjModel& model, Scene& scene) {
  const size_t n = model.chunks.size(), positions = model.counts.v;
  Plan plan;
  plan.first_triangle.assign(n + 1, 0);
  for (size_t i = 0; i < n; ++i)
    plan.first_triangle[i + 1] = plan.first_triangle[i] + model.chunks[i].triangle_faces.size();
  if (!model.unusable.empty()) plan.unusable.assign(positions, 0);
  for (uint32_t u : model.unusable) plan.unusable[u] = 1;
  plan.first_use.reset(new std::atomic<uint64_t>[positions]);
  parallel_for(positions, 1 << 16, [&](uint64_t b, uint64_t e, unsigned) {
    for (uint64_t v = b; v < e; ++v) plan.first_use[v].store(kUnused, std::memory_order_relaxed);
  });
  find_first_uses(model, plan);
  list_new_vertices(model, plan);

  // Pass 3: the vertices, numbered in order of first use; `out` maps a used position to its
  // vertex (the others are never read, so never written).
  std::unique_ptr<uint32_t[]> out = uninitialized_array<uint32_t>(positions);
  resize_on_every_core(scene.positions, plan.first_vertex[n]);
  if (!model.colors.empty()) resize_on_every_core(scene.colors, plan.first_vertex[n]);
  each_chunk(model, [&](size_t i, const ObjChunk&) {
    uint64_t next = plan.first_vertex[i];
    for (uint32_t v : plan.introduced[i]) {
      out[v] = (uint32_t)next;
      const float* p = &model.positions[3 * (size_t)v];
      scene.positions[next] = {p[0], p[1], p[2]};
      if (!model.colors.empty()) scene.colors[next] = obj_vertex_color(&model.colors[3 * (size_t)v]);
      ++next;
    }
    std::vector<uint32_t>().swap(plan.introduced[i]);
  });
  // Pass 4: the kept triangles in file order.
  resize_on_every_core(scene.indices, 3 * plan.first_kept[n]);
  resize_on_every_core(scene.tri_material, plan.first_kept[n]);
  each_chunk(model, [&](size_t i, const ObjChunk& c) {
    uint64_t t_out = plan.first_kept[i];
    for (size_t t = 0; t < c.triangle_faces.size(); ++t) {
      if (!kept(plan, c, t)) continue;
      for (int k = 0; k < 3; ++k)
        scene.indices[3 * t_out + k] = out[(size_t)c.corners[c.triangles[3 * t + k]].v];
      const int32_t m = c.faces[c.triangle_faces[t]].usemtl;
      scene.tri_material[t_out++] = m < 0 ? kNoMaterial : (uint32_t)m;
    }
  });
  return (size_t)(plan.first_triangle[n] - plan.first_kept[n]);
}

}  // namespace facet
