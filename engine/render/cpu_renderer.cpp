// CPU backend: vertex projection, triangle setup + rasterization into a 64-bit visibility
// buffer of fp.samples keys a pixel (atomic min, so the result does not depend on thread order),
// then resolve/shade (kernels/frame/resolve/resolve_samples.h).
#include "engine/render/cpu_renderer.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

#include "engine/base/parallel.h"
#include "engine/meshlets/meshlets.h"
#include "engine/render/frame_setup.h"
#include "engine/render/ground_grid.h"
#include "kernels/frame/geometry/meshlet_cull.h"
#include "kernels/frame/geometry/project.h"
#include "kernels/frame/geometry/triangle.h"
#include "kernels/frame/geometry/vertex.h"
#include "kernels/frame/raster/cutout_visit.h"
#include "kernels/frame/resolve/resolve_samples.h"
#include "kernels/frame/tuning.h"

namespace facet {

namespace {

// Triangles whose box exceeds kCpuLargeTriPixels (tuning.h) are rasterized in a second pass
// split into bands of kCpuRowBand rows, so that one screen-filling triangle does not leave the
// other cores idle.

void atomic_min(uint64_t* p, uint64_t v) {
  uint64_t cur = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (v < cur && !__atomic_compare_exchange_n(p, &cur, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
}

// The one write into the visibility buffer, the CPU twin of the CUDA vis_min (vis_write.h): the
// frame's tagged key, nearest wins whatever the thread order.
void vis_min(uint64_t* vis, const FrameParams& fp, int px, int py, int sample, uint64_t key) {
  atomic_min(vis + vis_index(fp, px, py, sample), tag_key(key, fp.vis_tag));
}

// Rows y0..y1 of t's box: each covered sample to visit, through the cut-out test for a scene
// with cut-outs (cutout_visit.h).
template <class Visit>
void raster_rows(const SceneView& s, const FrameParams& fp, const RasterTri& t, int32_t y0, int32_t y1, Visit& visit) {
  if (s.has_cutouts)
    raster_rect_n(t, fp.samples, t.px0, y0, t.px1, y1, cutout_visit<true>(s, fp, visit));
  else
    raster_rect_n(t, fp.samples, t.px0, y0, t.px1, y1, visit);
}

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// The hot loops are compiled twice and picked when the program loads: the shared math (hd.h)
// uses fmaf, one instruction on the GPU and on x86 CPUs with FMA, a slow library call without.
// Flattened (GCC; clang refuses flatten with target_clones), so that the shared math is
// compiled into each version rather than called.
#if (defined(__x86_64__) || defined(__i386__)) && defined(__clang__)
#define FACET_CPU_HOT __attribute__((target_clones("fma", "default")))
#elif (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define FACET_CPU_HOT __attribute__((target_clones("fma", "default"), flatten))
#else
#define FACET_CPU_HOT
#endif

FACET_CPU_HOT void project_vertices(const FrameParams& fp, const ClipPlanes& planes, const Vec3* positions,
                                    ProjectedVertex* out, uint64_t b, uint64_t e) {
  for (uint64_t v = b; v < e; ++v) out[v] = project_and_snap(fp.view_proj, positions[v], planes, fp.width, fp.height);
}

// What setup and rasterization of a run of meshlets read and write.
struct RasterJob {
  const SceneView& scene;
  const FrameParams& fp;
  const ClipPlanes& planes;
  const MeshletCull& cull;
  const Meshlet* meshlets;
  const uint32_t* triangle_ids;  // by meshlet slot: the scene triangle, or null (slot i holds i)
  const ProjectedVertex* projected;
  uint64_t* vis;
};

// False when no sample of t's box can be covered (box_holds_a_sample, setup.h).
bool may_cover_a_sample(const RasterTri& t, int samples) {
  return samples == 4 ? box_holds_a_sample<4>(t) : samples == 8 ? box_holds_a_sample<8>(t) : true;
}

FACET_CPU_HOT void raster_meshlets(const RasterJob& job, uint64_t b, uint64_t e, TriCounters& c,
                                   std::vector<RasterTri>& large) {
  const FrameParams& fp = job.fp;
  auto visit = [&](int px, int py, int sample, uint64_t key) { vis_min(job.vis, fp, px, py, sample, key); };
  for (uint64_t i = b; i < e; ++i) {
    const Meshlet& m = job.meshlets[i];
    if (meshlet_culled(job.cull, m)) {
      c.culled += m.triangle_count;
      continue;
    }
    for (uint32_t slot = m.first_triangle; slot < m.first_triangle + m.triangle_count; ++slot)
      process_triangle(job.projected, job.scene.positions, job.scene.indices,
                       job.triangle_ids ? job.triangle_ids[slot] : slot, fp, job.planes, c, [&](const RasterTri& t) {
                         if (box_pixels(t) > kCpuLargeTriPixels)
                           large.push_back(t);
                         else if (may_cover_a_sample(t, fp.samples))
                           raster_rows(job.scene, fp, t, t.py0, t.py1, visit);
                       });
  }
}

FACET_CPU_HOT void resolve_rows(const SceneView& s, const FrameParams& fp, const uint64_t* vis, Rgba8* out, uint64_t y0,
                                uint64_t y1) {
  for (uint64_t y = y0; y < y1; ++y)
    for (int x = 0; x < fp.width; ++x) {
      size_t i = (size_t)y * fp.width + x;
      if (fp.samples == 1) {
        out[i] = shade_pixel(s, fp, x, (int)y, vis[i]);
        continue;
      }
      uint64_t keys[kMaxSamples] = {};
      pixel_keys(vis, (size_t)fp.width * fp.height, i, fp.samples, keys);
      out[i] = shade_pixel_samples(s, fp, x, (int)y, keys);
    }
}

}  // namespace

void CpuRenderer::set_scene(std::shared_ptr<const Scene> scene) {
  if (!scene) throw std::invalid_argument("set_scene: no scene");
  // Everything built before anything is replaced: a scene refused here leaves the last one whole.
  std::shared_ptr<const Meshlets> meshlets = scene_meshlets(*scene, meshlet_grouping());
  std::vector<ShadeVertex> shade = interleave_shade_vertices(*scene);
  m_meshlets = std::move(meshlets);
  m_shade = std::move(shade);
  m_scene = std::move(scene);
  m_stats = {};
  m_stats.triangles_in = m_scene->triangle_count();
  m_stats.scene_bytes = m_scene->byte_size() + m_meshlets->meshlets.size() * sizeof(Meshlet) +
                        m_meshlets->triangle_ids.size() * sizeof(uint32_t);
}

void CpuRenderer::render(const Camera& camera, const RenderOptions& settings, int width, int height,
                         const FrameTarget& target) {
  if (!m_scene) throw std::logic_error("render: no scene set");
  FrameParams fp = make_frame_params(camera, settings, frame_bounds(*m_scene), width, height);
  render(fp, target);
  if (!settings.ground_grid) return;
  fp.vis_tag = m_tag;
  draw_ground_grid_cpu(make_grid_params(camera, fp, m_scene->bounds), m_vis.data(), m_rgba.data());
}

void CpuRenderer::render(const FrameParams& fp, const FrameTarget& target) {
  if (!m_scene) throw std::logic_error("render: no scene set");
  if (target.kind == FrameTarget::Kind::Device)
    throw std::invalid_argument("render: a device frame target needs the CUDA backend");
  auto t_frame = std::chrono::steady_clock::now();
  const SceneView s = m_scene->view(m_shade.data());
  if (!valid_sample_count(fp.samples))
    throw std::invalid_argument("render: " + std::to_string(fp.samples) + " samples a pixel (1, 4 or 8)");
  const size_t pixels = (size_t)fp.width * fp.height;
  const size_t keys = pixels * fp.samples;
  m_width = fp.width;
  m_height = fp.height;
  m_tag = fp.vis_tag;
  m_last = fp;

  auto t0 = std::chrono::steady_clock::now();
  // On every core: filling a 1080p buffer's 16 MB is a good part of a small frame's time for
  // one thread.
  m_vis.resize(keys);
  parallel_for(keys, kCpuClearChunk, [&](uint64_t b, uint64_t e, unsigned) {
    std::fill(m_vis.begin() + (ptrdiff_t)b, m_vis.begin() + (ptrdiff_t)e, kEmptyKey);
  });
  m_stats.times.clear = (float)ms_since(t0);

  // Geometry: vertex projection, then setup and rasterization.
  t0 = std::chrono::steady_clock::now();
  const ClipPlanes planes = make_clip_planes(fp.width, fp.height);
  m_projected.resize(s.vertex_count);
  parallel_for(s.vertex_count, kCpuVertexChunk, [&](uint64_t b, uint64_t e, unsigned) {
    project_vertices(fp, planes, s.positions, m_projected.data(), b, e);
  });
  uint64_t* vis = m_vis.data();
  unsigned workers = worker_count();
  std::vector<TriCounters> counters(workers, TriCounters{});
  std::vector<std::vector<RasterTri>> large(workers);
  auto visit = [&](int px, int py, int sample, uint64_t key) { vis_min(vis, fp, px, py, sample, key); };
  // Whole meshlets first (meshlet_cull.h), with the same test as the CUDA geometry stage.
  MeshletCull cull = make_meshlet_cull(fp, planes);
  skip_meshlet_cull_when_useless(cull, m_scene->bounds.center, m_scene->bounds.radius,
                                 (uint32_t)m_meshlets->meshlets.size());
  const BigVector<uint32_t>& slot_ids = m_meshlets->triangle_ids;
  const uint32_t* ids = slot_ids.empty() ? nullptr : slot_ids.data();
  const RasterJob job{s, fp, planes, cull, m_meshlets->meshlets.data(), ids, m_projected.data(), vis};
  parallel_for(m_meshlets->meshlets.size(), kCpuMeshletChunk,
               [&](uint64_t b, uint64_t e, unsigned w) { raster_meshlets(job, b, e, counters[w], large[w]); });
  int bands = (fp.height + kCpuRowBand - 1) / kCpuRowBand;
  parallel_for((uint64_t)bands, 1, [&](uint64_t b, uint64_t e, unsigned) {
    for (uint64_t band = b; band < e; ++band) {
      int y0 = (int)band * kCpuRowBand, y1 = std::min(fp.height, y0 + kCpuRowBand) - 1;
      for (const auto& list : large)
        for (const RasterTri& t : list) {
          int ry0 = std::max(y0, t.py0), ry1 = std::min(y1, t.py1);
          if (ry0 > ry1) continue;
          raster_rows(s, fp, t, ry0, ry1, visit);
        }
    }
  });
  m_stats.times.geometry = (float)ms_since(t0);
  m_stats.tris = {};
  for (const TriCounters& c : counters) add_counters(m_stats.tris, c);
  m_stats.back_faces_culled = fp.cull_backfaces;

  // Resolve: shade each pixel once.
  t0 = std::chrono::steady_clock::now();
  m_rgba.resize(pixels);
  parallel_for((uint64_t)fp.height, kCpuResolveRows,
               [&](uint64_t b, uint64_t e, unsigned) { resolve_rows(s, fp, m_vis.data(), m_rgba.data(), b, e); });
  m_stats.times.resolve = (float)ms_since(t0);
  m_stats.times.total = (float)ms_since(t_frame);
  m_stats.frame_bytes =
      m_vis.size() * sizeof(uint64_t) + m_rgba.size() * sizeof(Rgba8) + m_projected.size() * sizeof(ProjectedVertex);
}

PixelHit CpuRenderer::pick(int x, int y) {
  if (x < 0 || y < 0 || x >= m_width || y >= m_height || m_vis.empty()) return {};
  const int n = m_last.samples;
  const size_t pixels = m_vis.size() / n;
  return pixel_hit_of_key(nearest_pixel_key(m_vis.data(), pixels, (size_t)y * m_width + x, n), m_tag);
}

void CpuRenderer::read_triangle_ids(std::vector<uint32_t>& out) {
  const int n = m_last.samples;
  out.resize(m_vis.size() / n);
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = visible_triangle(nearest_pixel_key(m_vis.data(), out.size(), i, n), m_tag);
}

void CpuRenderer::read_outputs(const FrameOutputs& out) {
  if (out.on_device) throw std::invalid_argument("the cpu backend cannot write device memory");
  if (m_vis.empty() || !m_scene) throw std::logic_error("read_outputs: no frame rendered");
  if (out.color) std::copy(m_rgba.begin(), m_rgba.end(), out.color);
  if (!out.depth && !out.triangle_id && !out.barycentrics) return;
  const Scene& s = *m_scene;
  write_frame_outputs_host({s.view(m_shade.data()), m_last, m_vis.data(), out.depth, out.triangle_id, out.barycentrics,
                            s.file_triangle.empty() ? nullptr : s.file_triangle.data()});
}

}  // namespace facet
