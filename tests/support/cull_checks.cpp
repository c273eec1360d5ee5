#include "tests/support/cull_checks.h"

#include <gtest/gtest.h>

#include <vector>

#include "kernels/frame/geometry/triangle.h"
#include "kernels/frame/geometry/vertex.h"

namespace facet::test {

CulledMeshletTally check_culled_meshlets(const Scene& s, const Meshlets& m, const FrameParams& fp,
                                         const MeshletCull& cull, const std::function<void(uint32_t)>& on_drawn) {
  const ClipPlanes planes = make_clip_planes(fp.width, fp.height);
  std::vector<ProjectedVertex> pv(s.vertex_count());
  for (uint32_t v = 0; v < s.vertex_count(); ++v)
    pv[v] = project_and_snap(fp.view_proj, s.positions[v], planes, fp.width, fp.height);
  CulledMeshletTally tally;
  for (const Meshlet& ml : m.meshlets) {
    ++tally.meshlets;
    if (!meshlet_culled(cull, ml)) continue;
    ++tally.culled;
    for (uint32_t slot = ml.first_triangle; slot < ml.first_triangle + ml.triangle_count; ++slot) {
      const uint32_t t = scene_triangle(m, slot);
      TriCounters c{};
      bool drew = false;
      process_triangle(pv.data(), s.positions.data(), s.indices.data(), t, fp, planes, c,
                       [&](const RasterTri&) { drew = true; });
      EXPECT_EQ(c.clipped + c.nan, 0u) << "triangle " << t << " would not count as culled";
      ++tally.triangles;
      if (!drew) continue;
      ++tally.drawn;
      on_drawn(t);
    }
  }
  return tally;
}

BoxCoverage covered_pixels_against_box(Renderer& r, const FrameParams& fp, const PixelBox& box) {
  r.render(fp);
  std::vector<uint32_t> ids;
  r.read_triangle_ids(ids);
  BoxCoverage c;
  for (int y = 0; y < fp.height; ++y)
    for (int x = 0; x < fp.width; ++x) {
      if (ids[(size_t)y * fp.width + x] == ~0u) continue;
      ++c.covered;
      c.outside += x < box.x0 || x > box.x1 || y < box.y0 || y > box.y1;
    }
  return c;
}

}  // namespace facet::test
