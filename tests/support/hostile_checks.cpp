// Checks shared by the hostile-geometry tests (hostile_checks.h).
#include "tests/support/hostile_checks.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "engine/render/cpu_renderer.h"
#include "kernels/frame/geometry/project.h"
#include "kernels/frame/geometry/triangle.h"
#include "kernels/frame/geometry/vertex.h"
#include "kernels/frame/raster/raster.h"
#include "kernels/frame/resolve/shade.h"
#include "tests/support/hostile_scenes.h"
#include "tests/support/image_compare.h"
#include "tests/support/test_scenes.h"

namespace facet::test {

Frame render(const std::shared_ptr<Scene>& scene, const FrameParams& fp) {
  CpuRenderer r;
  r.set_scene(scene);
  r.render(fp);
  Frame f;
  r.read_triangle_ids(f.ids);
  r.read_rgba(f.rgba);
  f.tris = r.stats().tris;
  return f;
}
Frame render(const Scene& scene, const FrameParams& fp) { return render(std::make_shared<Scene>(scene), fp); }

size_t expect_clean(const Frame& f, const Scene& s, const FrameParams& fp, const std::string& label,
                    const std::function<bool(uint32_t)>& allowed) {
  // Shading is linear and the output sRGB: the bounds are the encoded ends of the range.
  const int lo = srgb_encode8(kHostileKd * kAmbient) - 1, hi = srgb_encode8(kHostileKd) + 1;
  size_t covered = 0, bad_id = 0, bad_colour = 0, bad_background = 0;
  for (size_t i = 0; i < f.ids.size(); ++i) {
    const Rgba8 c = f.rgba[i];
    if (f.ids[i] == kNoTriangle) {
      bad_background +=
          c.r != fp.background.r || c.g != fp.background.g || c.b != fp.background.b || c.a != fp.background.a;
      continue;
    }
    ++covered;
    if (f.ids[i] >= s.triangle_count() || (allowed && !allowed(f.ids[i]))) ++bad_id;
    if (fp.shading == Shading::Lit) bad_colour += c.r != c.g || c.g != c.b || c.r < lo || c.r > hi || c.a != 255;
  }
  EXPECT_EQ(bad_id, 0u) << label << ": pixels hold ids that cannot be there";
  EXPECT_EQ(bad_colour, 0u) << label << ": covered pixels with colours outside the material's range";
  EXPECT_EQ(bad_background, 0u) << label << ": empty pixels that are not the background";
  return covered;
}

Hits hit_counts(const Scene& s, const FrameParams& fp) {
  const ClipPlanes planes = make_clip_planes(fp.width, fp.height);
  std::vector<ProjectedVertex> pv(s.vertex_count());
  for (uint32_t v = 0; v < s.vertex_count(); ++v)
    pv[v] = project_and_snap(fp.view_proj, s.positions[v], planes, fp.width, fp.height);
  Hits h;
  h.count.assign((size_t)fp.width * fp.height, 0);
  h.min_id.assign(h.count.size(), kNoTriangle);
  for (uint32_t t = 0; t < s.triangle_count(); ++t)
    process_triangle(pv.data(), s.positions.data(), s.indices.data(), t, fp, planes, h.tris, [&](const RasterTri& r) {
      h.box_pixels += (uint64_t)(r.px1 - r.px0 + 1) * (r.py1 - r.py0 + 1);
      const uint32_t id = r.tri;
      raster_rect(r, r.px0, r.py0, r.px1, r.py1, [&](int x, int y, uint64_t) {
        size_t i = (size_t)y * fp.width + x;
        ++h.count[i];
        h.min_id[i] = std::min(h.min_id[i], id);
      });
    });
  return h;
}

void expect_matches_ray_cast(const Scene& s, const Camera& c, int w, int h, const std::string& label) {
  FrameParams fp = frame_params(s, c, w, h, two_sided());
  Frame f = render(s, fp);
  expect_clean(f, s, fp, label);
  std::vector<uint32_t> ref = ray_cast(s, c, w, h);
  IdComparison cmp = compare_ids(ref, f.ids, w, h, 1);
  if (cmp.interior_differing) write_id_diff("hostile-" + label, ref, f.ids, w, h);
  EXPECT_EQ(cmp.interior_differing, 0u) << label << ": " << cmp.differing << " pixels differ from the ray caster";
  EXPECT_LE(cmp.differing, cmp.covered / 20 + 8) << label;
  EXPECT_GT(cmp.covered, 0u) << label << ": the reference sees nothing, the comparison proves little";
}

void expect_hits(const Scene& s, const std::vector<Camera>& cams, int w, int h, const char* what,
                 const std::function<bool(int)>& ok, size_t min_covered) {
  for (size_t k = 0; k < cams.size(); ++k) {
    FrameParams fp = frame_params(s, cams[k], w, h, two_sided());
    Hits hits = hit_counts(s, fp);
    size_t covered = 0, bad = 0, first_bad = 0;
    for (size_t i = 0; i < hits.count.size(); ++i) {
      covered += hits.count[i] != 0;
      if (!ok(hits.count[i]) && bad++ == 0) first_bad = i;
    }
    EXPECT_EQ(bad, 0u) << s.source << " camera " << k << ": " << bad << " pixels not hit " << what << ", first at ("
                       << first_bad % w << ", " << first_bad / w << ") hit " << hits.count[first_bad] << " times";
    EXPECT_GE(covered, min_covered) << s.source << " camera " << k << ": the mesh is barely in view";
  }
}

}  // namespace facet::test
