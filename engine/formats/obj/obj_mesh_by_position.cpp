// The by-position OBJ mesh (see obj_mesh_by_position.h), in passes that each run on every core:
// the kept triangles written in file order with position numbers for corners, while each
// position's first use is found (an atomic minimum over corner numbers); the positions each chunk
// introduces, from the corners that lowered a minimum while it was written; the vertices; then
// the corners renumbered in place. Only the first pass reads the parsed chunks' corners. Arrays
// are sized and filled on every core (big_array.h).
#include "engine/formats/obj/obj_mesh_by_position.h"

#include <atomic>
#include <memory>

#include "engine/base/big_array.h"
#include "engine/base/parallel.h"

namespace facet {

namespace {

// Positions and corners per parallel_for chunk of the flat passes: handing out chunks costs nothing.
constexpr uint64_t kPositionChunk = 1 << 16, kCornerChunk = 3 << 16;

template <class Fn>
void each_chunk(const ObjModel& model, Fn&& fn) {
  parallel_for(model.chunks.size(), 1, [&](uint64_t b, uint64_t e, unsigned) {
    for (uint64_t i = b; i < e; ++i) fn((size_t)i, model.chunks[i]);
  });
}

struct Plan {
  std::vector<uint64_t> first_triangle;           // per chunk: triangles of the file before it
  std::vector<uint64_t> first_kept;               // per chunk: kept triangles before it
  std::vector<uint64_t> first_vertex;             // per chunk: vertices introduced before it
  std::vector<uint8_t> unusable;                  // per position; empty when none is
  std::vector<std::vector<uint32_t>> introduced;  // per chunk: positions first used there
};

bool kept(const Plan& plan, const ObjChunk& c, size_t t) {
  if (plan.unusable.empty()) return true;
  for (int k = 0; k < 3; ++k)
    if (plan.unusable[(size_t)c.corner_v[c.triangle_corner(t, k)]]) return false;
  return true;
}

// The kept triangles before each chunk: all of them where no position is unusable, else counted.
void count_kept(const ObjModel& model, Plan& plan) {
  const size_t n = model.chunks.size();
  if (plan.unusable.empty()) {
    plan.first_kept = plan.first_triangle;
    return;
  }
  std::vector<uint64_t> kept_count(n, 0);
  each_chunk(model, [&](size_t i, const ObjChunk& c) {
    for (size_t t = 0; t < c.triangle_count(); ++t) kept_count[i] += kept(plan, c, t);
  });
  plan.first_kept.assign(n + 1, 0);
  for (size_t i = 0; i < n; ++i) plan.first_kept[i + 1] = plan.first_kept[i] + kept_count[i];
}

// Pass 1: the kept triangles in file order, their corners still position numbers, and each
// position's first corner in first_use (an atomic minimum over the output's corner numbers, of
// type T: 32 bits where they fit, which halves the randomly read array). Each chunk lists the
// corners that lowered a minimum (`candidates`, in order): a position's first use is among them,
// since nothing below it can have been there when it was written.
template <class T>
void write_triangles(const ObjModel& model, const Plan& plan, std::atomic<T>* first_use,
                     std::vector<std::vector<T>>& candidates, Scene& scene) {
  each_chunk(model, [&](size_t i, const ObjChunk& c) {
    std::vector<T>& mine = candidates[i];
    uint64_t t_out = plan.first_kept[i];
    c.each_triangle([&](size_t t, const uint32_t* k, const ObjFace& face) {
      if (!kept(plan, c, t)) return;
      for (int j = 0; j < 3; ++j) {
        const T corner = (T)(3 * t_out + (uint64_t)j);
        const uint32_t v = (uint32_t)c.corner_v[k[j]];
        scene.indices[corner] = v;
        std::atomic<T>& first = first_use[v];
        T seen = first.load(std::memory_order_relaxed);
        while (corner < seen) {
          if (first.compare_exchange_weak(seen, corner)) {
            mine.push_back(corner);
            break;
          }
        }
      }
      scene.tri_material[t_out++] = face.usemtl < 0 ? kNoMaterial : (uint32_t)face.usemtl;
    });
  });
}

// Pass 2: the positions each chunk introduces (its candidate corners that are still a position's
// first use), in order; so the vertices before each chunk.
template <class T>
void list_new_vertices(const ObjModel& model, Plan& plan, const std::atomic<T>* first_use,
                       std::vector<std::vector<T>>& candidates, const BigVector<uint32_t>& corners) {
  const size_t n = model.chunks.size();
  plan.introduced.assign(n, {});
  each_chunk(model, [&](size_t i, const ObjChunk&) {
    std::vector<uint32_t>& mine = plan.introduced[i];
    mine.reserve(candidates[i].size());
    for (T corner : candidates[i])
      if (first_use[corners[corner]].load(std::memory_order_relaxed) == corner) mine.push_back(corners[corner]);
    std::vector<T>().swap(candidates[i]);
  });
  plan.first_vertex.assign(n + 1, 0);
  for (size_t i = 0; i < n; ++i) plan.first_vertex[i + 1] = plan.first_vertex[i] + plan.introduced[i].size();
}

// Passes 1 and 2 with corner numbers of type T (UINT32_MAX / UINT64_MAX: a position no kept
// triangle uses).
template <class T>
void first_uses(const ObjModel& model, Plan& plan, Scene& scene) {
  const size_t positions = model.counts.v;
  const std::unique_ptr<std::atomic<T>[]> first_use(new std::atomic<T>[positions]);
  parallel_for(positions, kPositionChunk, [&](uint64_t b, uint64_t e, unsigned) {
    for (uint64_t v = b; v < e; ++v) first_use[v].store(~T(0), std::memory_order_relaxed);
  });
  std::vector<std::vector<T>> candidates(model.chunks.size());
  write_triangles<T>(model, plan, first_use.get(), candidates, scene);
  list_new_vertices<T>(model, plan, first_use.get(), candidates, scene.indices);
}

// Pass 3: the vertices, numbered in order of first use; returns the map from a used position to
// its vertex (the others are never read, so never written).
std::unique_ptr<uint32_t[]> write_vertices(const ObjModel& model, Plan& plan, Scene& scene) {
  const size_t n = model.chunks.size();
  std::unique_ptr<uint32_t[]> out = uninitialized_array<uint32_t>(model.counts.v);
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
  return out;
}

}  // namespace

bool obj_vertices_are_positions(const ObjModel& model, bool use_file_normals) {
  if (model.has_smoothing) return false;
  for (const ObjChunk& c : model.chunks)  // what the parse saw of the kept faces' corners
    if (c.texcoord_parts || (use_file_normals && c.normal_parts)) return false;
  return true;
}

size_t build_obj_mesh_by_position(const ObjModel& model, Scene& scene) {
  const size_t n = model.chunks.size(), positions = model.counts.v;
  Plan plan;
  plan.first_triangle.assign(n + 1, 0);
  for (size_t i = 0; i < n; ++i) plan.first_triangle[i + 1] = plan.first_triangle[i] + model.chunks[i].triangle_count();
  if (!model.unusable.empty()) plan.unusable.assign(positions, 0);
  for (uint32_t u : model.unusable) plan.unusable[u] = 1;
  count_kept(model, plan);
  resize_on_every_core(scene.indices, 3 * plan.first_kept[n]);
  resize_on_every_core(scene.tri_material, plan.first_kept[n]);
  if (3 * plan.first_kept[n] < UINT32_MAX)
    first_uses<uint32_t>(model, plan, scene);
  else
    first_uses<uint64_t>(model, plan, scene);
  const std::unique_ptr<uint32_t[]> out = write_vertices(model, plan, scene);
  // Pass 4: the corners from position numbers to vertex numbers, in place.
  BigVector<uint32_t>& corners = scene.indices;
  parallel_for(corners.size(), kCornerChunk, [&](uint64_t b, uint64_t e, unsigned) {
    for (uint64_t c = b; c < e; ++c) corners[c] = out[corners[c]];
  });
  return (size_t)(plan.first_triangle[n] - plan.first_kept[n]);
}

}  // namespace facet
