// N-sample anti-aliasing on the CPU backend (issue 17): coverage per sample is watertight, a
// pixel's samples resolve to the coverage-weighted average of its triangles' shaded colours and
// the background, and a pixel whose samples all show one triangle is the 1-sample frame's pixel.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <vector>

#include "engine/render/cpu_renderer.h"
#include "engine/scene/generate.h"
#include "kernels/frame/geometry/project.h"
#include "kernels/frame/geometry/triangle.h"
#include "kernels/frame/geometry/vertex.h"
#include "kernels/frame/raster/warp_raster.h"
#include "kernels/frame/resolve/resolve_samples.h"
#include "tests/support/srgb_reference.h"
#include "tests/support/test_scenes.h"

using namespace facet;

namespace {

glm::vec3 random_unit(std::mt19937& rng) {
  std::normal_distribution<float> n(0.0f, 1.0f);
  glm::vec3 v{n(rng), n(rng), n(rng)};
  return glm::normalize(v);
}

// Hits of every sample by every triangle through the shared front end (no depth test).
std::vector<int> sample_hits(const Scene& s, const FrameParams& fp) {
  const ClipPlanes planes = make_clip_planes(fp.width, fp.height);
  std::vector<ProjectedVertex> pv(s.vertex_count());
  for (uint32_t v = 0; v < s.vertex_count(); ++v)
    pv[v] = project_and_snap(fp.view_proj, s.positions[v], planes, fp.width, fp.height);
  std::vector<int> hits((size_t)fp.width * fp.height * fp.samples, 0);
  TriCounters counts{};
  for (uint32_t t = 0; t < s.triangle_count(); ++t)
    process_triangle(pv.data(), s.positions.data(), s.indices.data(), t, fp, planes, counts, [&](const RasterTri& r) {
      raster_rect_n(r, fp.samples, r.px0, r.py0, r.px1, r.py1,
                    [&](int x, int y, int k, uint64_t) { ++hits[vis_index(fp, x, y, k)]; });
    });
  return hits;
}

RenderOptions with_samples(RenderOptions s, int samples) {
  s.samples = (uint8_t)samples;
  return s;
}

// The quad [-1, x_right] x [-1, 1] at z = 0, normal +Z, seen so that [-1, 1]^2 fills a 16x16
// frame: x_right = 0.0625 puts its right edge through the centres of pixel column 8.
Scene half_pixel_quad() {
  Scene q = make_quad();
  for (Vec3& p : q.positions)
    if (p.x > 0.0f) p.x = 0.0625f;
  q.bounds = compute_bounds(q.positions);
  return q;
}
Camera quad_camera() {
  const float d = 3.0f;
  return test::look_at({0, 0, d}, {0, 0, 0}, glm::degrees(2.0f * std::atan(1.0f / d)), 0.5f, 10.0f);
}

}  // namespace

TEST(AntiAlias, EverySampleInsideAClosedSphereIsHitExactlyOnceAtFourAndEightSamples) {
  const Scene sphere = make_sphere(3000, 1.0f);
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> u(-0.5f, 0.5f);
  for (int samples : {4, 8})
    for (int k = 0; k < 4; ++k) {
      const glm::vec3 eye{u(rng), u(rng), u(rng)};
      const Camera cam = test::look_at(eye, eye + random_unit(rng), 90.0f, 0.01f, 10.0f);
      const FrameParams fp = test::frame_params(sphere, cam, 96, 64, with_samples(test::two_sided(), samples));
      const std::vector<int> hits = sample_hits(sphere, fp);
      size_t bad = 0;
      for (int h : hits) bad += h != 1;
      EXPECT_EQ(bad, 0u) << samples << " samples, camera " << k << ": samples not hit exactly once";
    }
}

TEST(AntiAlias, EverySampleOfAClosedSphereSeenFromOutsideIsHitAnEvenNumberOfTimes) {
  const Scene sphere = make_sphere(3000, 1.0f);
  std::mt19937 rng(19);
  for (int samples : {4, 8})
    for (int k = 0; k < 4; ++k) {
      const Camera cam = test::look_at(random_unit(rng) * 2.6f, {0, 0, 0}, 50.0f, 0.1f, 10.0f);
      const FrameParams fp = test::frame_params(sphere, cam, 96, 64, with_samples(test::two_sided(), samples));
      const std::vector<int> hits = sample_hits(sphere, fp);
      size_t bad = 0, covered = 0, partial = 0;
      for (size_t i = 0; i < hits.size(); ++i) {
        bad += hits[i] % 2 != 0;
        covered += hits[i] != 0;
      }
      for (size_t p = 0; p < hits.size() / samples; ++p) {
        int n = 0;
        for (int s = 0; s < samples; ++s) n += hits[vis_slot(hits.size() / samples, p, s)] != 0;
        partial += n != 0 && n != samples;
      }
      EXPECT_EQ(bad, 0u) << samples << " samples, camera " << k << ": samples hit an odd number of times";
      EXPECT_GT(covered, 1000u) << "the sphere is barely in view";
      EXPECT_GT(partial, 20u) << "no pixel along the silhouette is partly covered: samples are not apart";
    }
}

TEST(AntiAlias, APixelHalfCoveredResolvesToHalfItsColourAndHalfTheBackground) {
  // Normals shading of a +Z face shows the bytes (128, 128, 255); half of each over black, in
  // linear light (the output encoding is sRGB), is the code of half the byte's linear value.
  const Scene quad = half_pixel_quad();
  const uint8_t half_128 = test::srgb_code(0.5 * test::code_to_linear(128));
  const uint8_t half_255 = test::srgb_code(0.5);
  for (int samples : {4, 8}) {
    RenderOptions settings = with_samples({}, samples);
    settings.shading = Shading::Normals;
    settings.background = {0, 0, 0, 255};
    CpuRenderer r;
    r.set_scene(std::make_shared<Scene>(quad));
    r.render(quad_camera(), settings, 16, 16);
    std::vector<Rgba8> rgba;
    r.read_rgba(rgba);
    for (int y = 4; y < 16; ++y) {
      const Rgba8 edge = rgba[(size_t)y * 16 + 8], inside = rgba[(size_t)y * 16 + 6],
                  outside = rgba[(size_t)y * 16 + 10];
      EXPECT_EQ(inside.r, 128);
      EXPECT_EQ(inside.g, 128);
      EXPECT_EQ(inside.b, 255);
      EXPECT_EQ(outside.r, 0);
      EXPECT_EQ(outside.b, 0);
      EXPECT_EQ(edge.r, half_128) << samples << " samples, row " << y;
      EXPECT_EQ(edge.g, half_128) << samples << " samples, row " << y;
      EXPECT_EQ(edge.b, half_255) << samples << " samples, row " << y;
      EXPECT_EQ(edge.a, 255);
    }
  }
}

TEST(AntiAlias, OnATransparentBackgroundAHalfCoveredPixelHasHalfAlphaAndTheCoveredColour) {
  const Scene quad = half_pixel_quad();
  RenderOptions settings = with_samples({}, 4);
  settings.shading = Shading::Normals;
  settings.background = {10, 20, 30, 0};
  CpuRenderer r;
  r.set_scene(std::make_shared<Scene>(quad));
  r.render(quad_camera(), settings, 16, 16);
  std::vector<Rgba8> rgba;
  r.read_rgba(rgba);
  const Rgba8 edge = rgba[8 * 16 + 8], outside = rgba[8 * 16 + 12];
  EXPECT_EQ(edge.r, 128);
  EXPECT_EQ(edge.g, 128);
  EXPECT_EQ(edge.b, 255);
  EXPECT_EQ(edge.a, 128);  // 0.5 * 255 + 0.5
  EXPECT_EQ(outside.a, 0);
  EXPECT_EQ(outside.r, 10);
}

TEST(AntiAlias, ResolveShadesEachDistinctTriangleOnceAndWeighsItBySamplesCovered) {
  FrameParams fp{};
  fp.vis_tag = 0;
  fp.samples = 4;
  fp.background = {0, 0, 0, 255};
  const uint64_t a = tag_key(vis_key(0.5f, 7), 0), b = tag_key(vis_key(0.25f, 9), 0);
  const uint64_t stale = tag_key(vis_key(0.1f, 9), 1);  // an older frame's key (raster.h's tags)
  const uint64_t keys[4] = {a, b, a, stale};
  int calls = 0;
  const Rgba8 c = resolve_keys<4>(fp, keys, 4, [&](uint32_t tri) {
    ++calls;
    return tri == 7 ? Vec3{1.0f, 0.0f, 0.0f} : Vec3{0.0f, 1.0f, 0.0f};
  });
  EXPECT_EQ(calls, 2);
  // Red on 2 of 4, green on 1, background (black) on 1: (0.5, 0.25, 0) in linear light.
  EXPECT_EQ(c.r, test::srgb_code(0.5));
  EXPECT_EQ(c.g, test::srgb_code(0.25));
  EXPECT_EQ(c.b, 0);
}

TEST(AntiAlias, PixelsWhoseSamplesAllShowOneTriangleEqualTheOneSampleFrame) {
  const Scene sphere = make_sphere(2000, 1.0f);
  const Camera cam = test::look_at({0.4f, 0.7f, 2.8f}, {0, 0, 0}, 45.0f, 0.1f, 10.0f);
  CpuRenderer one;
  one.set_scene(std::make_shared<Scene>(sphere));
  one.render(cam, {}, 160, 120);
  std::vector<Rgba8> ref;
  std::vector<uint32_t> ref_ids;
  one.read_rgba(ref);
  one.read_triangle_ids(ref_ids);
  for (int samples : {4, 8}) {
    CpuRenderer r;
    r.set_scene(std::make_shared<Scene>(sphere));
    r.render(cam, with_samples({}, samples), 160, 120);
    std::vector<Rgba8> rgba;
    r.read_rgba(rgba);
    const auto& vis = r.visibility();
    size_t compared = 0, differing = 0, edge_changed = 0;
    for (size_t p = 0; p < rgba.size(); ++p) {
      uint64_t k[kMaxSamples] = {};
      pixel_keys(vis.data(), rgba.size(), p, samples, k);
      bool one_triangle = key_current(k[0], 3);
      for (int s = 1; s < samples; ++s)
        one_triangle = one_triangle && k[s] >> 62 == 3 && key_triangle(k[s]) == key_triangle(k[0]);
      const bool same =
          rgba[p].r == ref[p].r && rgba[p].g == ref[p].g && rgba[p].b == ref[p].b && rgba[p].a == ref[p].a;
      if (one_triangle && ref_ids[p] == key_triangle(k[0])) {
        ++compared;
        differing += !same;
      } else {
        edge_changed += !same;
      }
    }
    EXPECT_EQ(differing, 0u) << samples << " samples";
    EXPECT_GT(compared, 5000u) << samples << " samples: too few interior pixels to prove anything";
    EXPECT_GT(edge_changed, 100u) << samples << " samples: edges look like the 1-sample frame";
  }
}

// The CUDA raster paths run lane by lane on the CPU: over 32 lanes the warp's whole-box path and
// the tile path (over the tiles the tile cut keeps), and the single-pixel fallback, visit exactly
// the samples and keys raster_rect_samples does.
template <int kSamples>
void expect_lane_paths_visit_what_the_rect_visits() {
  using Hit = std::pair<int64_t, uint64_t>;
  const int w = 160, h = 100;
  std::mt19937 rng(kSamples);
  int medium = 0, large = 0;
  for (int n = 0; n < 1500; ++n) {
    const int span = 256 * (1 + (int)(rng() % 120));
    const int cx = (int)(rng() % (w * 256 + 4000)) - 2000, cy = (int)(rng() % (h * 256 + 4000)) - 2000;
    auto coord = [&](int c) { return c + (int)(rng() % span) - span / 2; };
    const int x0 = coord(cx), y0 = coord(cy), x1 = coord(cx), y1 = coord(cy), x2 = coord(cx), y2 = coord(cy);
    RasterTri t;
    if (setup_snapped(x0, y0, 0.5f, x1, y1, 0.25f, x2, y2, 0.75f, 0, w, h, false, t, kSamples) != SetupResult::Ok)
      continue;
    std::vector<Hit> want, got;
    auto into = [&](std::vector<Hit>& v) {
      return [&v](int x, int y, int s, uint64_t k) { v.push_back({((int64_t)y * w + x) * kSamples + s, k}); };
    };
    raster_rect_samples<kSamples>(t, t.px0, t.py0, t.px1, t.py1, into(want));
    std::sort(want.begin(), want.end());
    if (fits_int32(t)) {
      ++medium;
      for (int lane = 0; lane < 32; ++lane) raster_box_lane_samples<kSamples>(t, lane, into(got));
      std::sort(got.begin(), got.end());
      ASSERT_EQ(got, want) << "box lanes, triangle " << n;
    } else {
      ++large;
    }
    got.clear();
    for (int ty = t.py0 / kTileSide; ty <= t.py1 / kTileSide; ++ty)
      for (int tx = t.px0 / kTileSide; tx <= t.px1 / kTileSide; ++tx) {
        const int rx0 = std::max(tx * kTileSide, t.px0), ry0 = std::max(ty * kTileSide, t.py0);
        const int rx1 = std::min(tx * kTileSide + kTileSide - 1, t.px1),
                  ry1 = std::min(ty * kTileSide + kTileSide - 1, t.py1);
        if (!rect_may_cover(t, rx0, ry0, rx1, ry1, sample_reach(kSamples))) continue;  // as the tile cut
        for (int lane = 0; lane < 32; ++lane)
          raster_tile_lane_samples<kSamples>(t, tx * kTileSide, ty * kTileSide, lane, into(got));
      }
    std::sort(got.begin(), got.end());
    ASSERT_EQ(got, want) << "tile lanes, triangle " << n;
    got.clear();
    for (int y = t.py0; y <= t.py1; ++y)
      for (int x = t.px0; x <= t.px1; ++x) raster_pixel_samples<kSamples>(t, x, y, into(got));
    std::sort(got.begin(), got.end());
    ASSERT_EQ(got, want) << "single pixels, triangle " << n;
  }
  EXPECT_GT(medium, 300);
  EXPECT_GT(large, 50);
}

// The positions are Direct3D 11's standard patterns (D3D11_STANDARD_MULTISAMPLE_PATTERN, 1/16 px
// from the pixel centre, y down), written out here apart from samples.h's packed form.
TEST(AntiAlias, SamplePositionsAreTheStandardFourAndEightSamplePatterns) {
  const int d3d4[4][2] = {{-2, -6}, {6, -2}, {-6, 2}, {2, 6}};
  const int d3d8[8][2] = {{1, -3}, {-1, 3}, {5, 1}, {-3, -5}, {-5, 5}, {-7, -1}, {3, 7}, {7, -7}};
  for (int s = 0; s < 4; ++s) {
    EXPECT_EQ(sample_offset(4, s).x, d3d4[s][0]) << s;
    EXPECT_EQ(sample_offset(4, s).y, d3d4[s][1]) << s;
    EXPECT_EQ(sample_step_x(4, s), d3d4[s][0] * kSampleUnit) << s;
    EXPECT_EQ(sample_step_y(4, s), d3d4[s][1] * kSampleUnit) << s;
  }
  for (int s = 0; s < 8; ++s) {
    EXPECT_EQ(sample_offset(8, s).x, d3d8[s][0]) << s;
    EXPECT_EQ(sample_offset(8, s).y, d3d8[s][1]) << s;
    EXPECT_EQ(sample_step_x(8, s), d3d8[s][0] * kSampleUnit) << s;
    EXPECT_EQ(sample_step_y(8, s), d3d8[s][1] * kSampleUnit) << s;
  }
  EXPECT_EQ(sample_step_x(1, 0), 0);
  EXPECT_EQ(sample_step_y(1, 0), 0);
  // Every sample lies within the reach a triangle's box grows by.
  for (int n : {4, 8})
    for (int s = 0; s < n; ++s) {
      EXPECT_LE(std::abs(sample_step_x(n, s)), sample_reach(n));
      EXPECT_LE(std::abs(sample_step_y(n, s)), sample_reach(n));
    }
}

TEST(AntiAlias, TheCudaLanePathsVisitTheSamplesTheCpuRasterVisits) {
  expect_lane_paths_visit_what_the_rect_visits<4>();
  expect_lane_paths_visit_what_the_rect_visits<8>();
}

TEST(AntiAlias, AFrameAsksForOneFourOrEightSamples) {
  const Scene quad = make_quad();
  CpuRenderer r;
  r.set_scene(std::make_shared<Scene>(quad));
  EXPECT_THROW(r.render(quad_camera(), with_samples({}, 2), 8, 8), std::invalid_argument);
  FrameParams fp = test::frame_params(quad, quad_camera(), 8, 8);
  fp.samples = 3;
  EXPECT_THROW(r.render(fp), std::invalid_argument);
}

// box_holds_a_sample (setup.h) lets the CPU backend skip a small triangle: it must never skip one
// that covers a sample. Sub-pixel triangles thrown at random over a small frame, at 4 and 8
// samples: each one said to hold no sample point in its vertices' box covers none, and the cases
// are common enough to matter.
template <int kSamples>
void expect_no_sample_where_the_box_holds_none() {
  std::mt19937 rng(20261202 + kSamples);
  std::uniform_int_distribution<int32_t> at(0, 16 * kSubpixel), jitter(-200, 200);
  int skipped = 0, drawn = 0;
  for (int i = 0; i < 20000; ++i) {
    const int32_t cx = at(rng), cy = at(rng);
    int32_t x[3], y[3];
    for (int k = 0; k < 3; ++k) {
      x[k] = cx + jitter(rng);
      y[k] = cy + jitter(rng);
    }
    RasterTri t;
    if (setup_snapped(x[0], y[0], 0.5f, x[1], y[1], 0.5f, x[2], y[2], 0.5f, (uint32_t)i, 16, 16, false, t, kSamples) !=
        SetupResult::Ok)
      continue;
    int covered = 0;
    raster_rect_samples<kSamples>(t, t.px0, t.py0, t.px1, t.py1, [&](int, int, int, uint64_t) { ++covered; });
    if (box_holds_a_sample<kSamples>(t)) {
      drawn += covered > 0;
      continue;
    }
    ++skipped;
    ASSERT_EQ(covered, 0) << "triangle " << i << " covers a sample its box was said not to hold";
  }
  EXPECT_GT(skipped, 500);
  EXPECT_GT(drawn, 500);
}

TEST(Antialias, ASmallTriangleWhoseBoxHoldsNoSampleCoversNone) {
  expect_no_sample_where_the_box_holds_none<4>();
  expect_no_sample_where_the_box_holds_none<8>();
}
