// The two meshlet groupings (meshlets.h): runs in file order, in chunks on every core, and
// patches grown over the surface (meshlet_patches.h); each chunk's or range's bounds
// (meshlet_finish.h) by the task that grouped it.
#include "engine/meshlets/meshlets.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <stdexcept>
#include <string>

#include "engine/base/parallel.h"
#include "engine/base/step_timing.h"
#include "engine/meshlets/meshlet_fill.h"
#include "engine/meshlets/meshlet_finish.h"
#include "engine/meshlets/meshlet_patches.h"

namespace facet {

namespace {

// Triangles a chunk of runs: a few milliseconds of work between two looks at the build's
// hooks, and one meshlet cut short in about 500.
constexpr uint32_t kRunChunk = 1 << 16;
// A chunk whose vertex indices span fewer than this many a triangle is grouped through an array
// over that span (2 B an entry: 512 KB at most, in cache), any other through a hash table.
constexpr uint32_t kRunWindowPerTriangle = 4;
// Stretches of the file's order, and triangles each, that decide between runs and patches: a few
// hundred meshlets' worth, enough to tell strips (about 1 vertex a triangle) from a scan's order
// (1.26 on the dragon, 2.03 on the bunny) with a wide margin.
constexpr uint64_t kOrderSamples = 8;
constexpr uint64_t kOrderSampleTriangles = 1 << 13;

void check_indices(const Scene& scene) {
  const uint32_t verts = scene.vertex_count();
  std::atomic<bool> bad{false};
  parallel_for(scene.indices.size(), 1 << 18, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t c = begin; c < end; ++c)
      if (scene.indices[c] >= verts) bad = true;
  });
  if (!bad) return;
  for (size_t c = 0; c < scene.indices.size(); ++c)  // the first bad one, for the message
    if (scene.indices[c] >= verts)
      throw std::invalid_argument("triangle " + std::to_string(c / 3) + " uses vertex " +
                                  std::to_string(scene.indices[c]) + " of " + std::to_string(verts));
}

}  // namespace

Meshlets build_meshlet_patches(const Scene& scene) {
  check_indices(scene);
  return group_patches(scene, {});
}

namespace {

// Triangles [first, end)'s runs: a meshlet closes when the next triangle would pass either
// format limit. Vertices are told apart by their index less `base` through `local`.
template <class Local>
Meshlets runs_between(const Scene& scene, uint32_t first, uint32_t end, uint32_t base, Local local) {
  Meshlets out;
  out.triangles.reserve(end - first);
  out.positions.reserve(end - first);  // about one vertex per triangle for meshes in strip order
  MeshletBeingFilled<Local> open(out, std::move(local));
  open.close();  // opens the first
  for (uint32_t t = first; t < end; ++t) {
    const Meshlet& m = open.meshlet();
    const uint32_t* corners = &scene.indices[3 * (size_t)t];
    const uint32_t key[3] = {corners[0] - base, corners[1] - base, corners[2] - base};
    if (m.triangle_count == kMeshletMaxTriangles || m.vertex_count + open.fresh_vertices(key) > kMeshletMaxVertices)
      open.close();
    open.add(
        t, key, [&](int k) { return scene.positions[corners[k]]; }, false, [](int) {});
  }
  open.close();
  return out;
}

// One chunk's runs. A strip-ordered chunk uses a narrow window of vertex indices: an array over
// that window tells its vertices apart faster than a hash table (which any other chunk uses).
Meshlets chunk_runs(const Scene& scene, uint32_t first, uint32_t end) {
  uint32_t lo = ~0u, hi = 0;
  for (size_t c = 3 * (size_t)first; c < 3 * (size_t)end; ++c) {
    lo = std::min(lo, scene.indices[c]);
    hi = std::max(hi, scene.indices[c]);
  }
  if (first < end && hi - lo < kRunWindowPerTriangle * (end - first))
    return runs_between(scene, first, end, lo, LocalVertexArray(hi - lo + 1));
  return runs_between(scene, first, end, 0, LocalVertices());
}

// Runs grouped and finished (finish_meshlets): in chunks of kRunChunk triangles on every core,
// each chunk's first run starting a meshlet. Indices must have been checked.
Meshlets group_runs(const Scene& scene, const MeshletBuildHooks& hooks) {
  const uint32_t tris = scene.triangle_count();
  const uint64_t chunks = (tris + (uint64_t)kRunChunk - 1) / kRunChunk;
  std::vector<Meshlets> parts(chunks);
  std::atomic<uint64_t> done{0};
  std::atomic<bool> cancelled{false};
  parallel_for(chunks, 1, [&](uint64_t begin, uint64_t end, unsigned worker) {
    for (uint64_t c = begin; c < end && !cancelled; ++c) {
      const uint32_t first = (uint32_t)(c * kRunChunk);
      parts[c] = chunk_runs(scene, first, (uint32_t)std::min<uint64_t>(tris, first + (uint64_t)kRunChunk));
      finish_meshlets(parts[c]);
      const uint64_t all = done.fetch_add(parts[c].triangles.size()) + parts[c].triangles.size();
      if (hooks.cancel && hooks.cancel->load(std::memory_order_relaxed))
        cancelled = true;
      else if (worker == 0 && hooks.progress)
        hooks.progress(all);
    }
  });
  if (cancelled) return Meshlets();          // incomplete: the caller discards it
  if (hooks.progress) hooks.progress(tris);  // whichever threads grouped the chunks
  StepTimer timer("meshlets");
  Meshlets out = join_meshlets(parts);
  timer.step("join");
  return out;
}

}  // namespace

Meshlets build_meshlet_runs(const Scene& scene) {
  check_indices(scene);
  return group_runs(scene, {});
}

Meshlets build_meshlets(const Scene& scene) { return build_meshlets_with(scene, {}); }

// Judged on kOrderSamples evenly spaced stretches of kOrderSampleTriangles (the whole file when it
// is no longer): grouping every run of a scan only to drop them cost as much as a third of its
// patches.
bool keeps_file_order(const Scene& scene) {
  const uint64_t tris = scene.triangle_count();
  const uint64_t stretches = tris <= kOrderSamples * kOrderSampleTriangles ? 1 : kOrderSamples;
  const uint64_t length = stretches == 1 ? tris : kOrderSampleTriangles;
  std::vector<uint64_t> vertices(stretches), triangles(stretches);
  parallel_for(stretches, 1, [&](uint64_t begin, uint64_t end, unsigned) {
    for (uint64_t i = begin; i < end; ++i) {
      const uint64_t first = tris / stretches * i;
      const Meshlets runs = chunk_runs(scene, (uint32_t)first, (uint32_t)(first + length));
      vertices[i] = runs.positions.size();
      triangles[i] = runs.triangles.size();
    }
  });
  uint64_t v = 0, t = 0;
  for (uint64_t i = 0; i < stretches; ++i) {
    v += vertices[i];
    t += triangles[i];
  }
  return v <= kKeepFileOrder * (double)t;
}

bool meshlets_serve(const Meshlets& m, const Scene& scene, MeshletGrouping wanted) {
  // A renumbered scene's meshlets are patches that hold its triangles in order.
  return wanted == MeshletGrouping::FileOrder || !m.triangle_ids.empty() || !scene.file_triangle.empty() ||
         keeps_file_order(scene);
}

Meshlets build_meshlets_with(const Scene& scene, const MeshletBuildHooks& hooks) {
  StepTimer timer("meshlets");
  check_indices(scene);
  const bool strips = hooks.grouping == MeshletGrouping::FileOrder || keeps_file_order(scene);
  timer.step("check, order");
  // Either is incomplete when cancelled: the caller discards it.
  return strips ? group_runs(scene, hooks) : group_patches(scene, hooks);
}

std::shared_ptr<const Meshlets> scene_meshlets(const Scene& scene, MeshletGrouping grouping) {
  if (scene.meshlets) return scene.meshlets;
  MeshletBuildHooks hooks;
  hooks.grouping = grouping;
  return std::make_shared<const Meshlets>(build_meshlets_with(scene, hooks));
}

}  // namespace facet
