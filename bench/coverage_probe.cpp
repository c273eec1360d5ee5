// facet_coverage_probe: what an N-sample frame's visibility holds, pixel by pixel, on the bench's
// scenes and cameras (docs/performance.md). It bounds, from
// the frame's own coverage rather than from a model, what two designs could save (issue 17):
//  - one key and a coverage mask for a pixel whose N samples are one triangle's ("whole"): the
//    raster's atomics and resolve's key reads for those pixels fall to one;
//  - resolve's further (pixel, triangle) pairs compacted across the grid: a warp shades one
//    round for its pixels' first triangles, and every further pair costs 1/32 of a round.
// Rendered by the CPU backend, whose keys equal the CUDA backend's.
//   facet_coverage_probe [--size WxH] [--aa 1|4|8] [--scene sphere-N|sphere-2M|dragon|spot]...
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/load/load_model.h"
#include "engine/meshlets/triangle_renumber.h"
#include "engine/render/cpu_renderer.h"
#include "engine/scene/generate.h"
#include "kernels/frame/raster/raster.h"

using namespace facet;

namespace {

Scene make_probe_scene(const std::string& name, const std::string& assets) {
  if (name == "dragon") return load_model(assets + "/dragon/dragon_vrip.obj");
  if (name == "spot") return load_model(assets + "/spot/spot_triangulated_with_mtl.obj");
  // sphere-N, N triangles, with an optional K or M as `facet bench` names them (sphere-2M)
  char* end = nullptr;
  uint64_t n = name.rfind("sphere-", 0) == 0 ? std::strtoull(name.c_str() + std::strlen("sphere-"), &end, 10) : 0;
  if (n && (*end == 'K' || *end == 'M')) n *= *end++ == 'K' ? 1000 : 1000000;
  if (n == 0 || *end != '\0') throw std::invalid_argument("not a scene (sphere-N, dragon or spot)");
  Scene s = make_sphere(n);
  prepare_in_slot_order(s, MeshletGrouping::FileOrder);
  return s;
}

// Counts over one frame's pixels (a warp is 32 pixels of a row, or an 8 x 4 tile).
struct Tally {
  uint64_t covered = 0, whole = 0, covered_samples = 0, whole_samples = 0;
  uint64_t pairs = 0;  // distinct (pixel, triangle) pairs: shading calls
  uint64_t distinct_hist[9] = {};
  uint64_t row_warps = 0, row_rounds = 0, tile_warps = 0, tile_rounds = 0;
};

Tally tally(const CpuRenderer& r, int w, int h, int n, uint32_t tag) {
  const auto& vis = r.visibility();
  const size_t pixels = (size_t)w * h;
  std::vector<uint8_t> distinct(pixels, 0);
  Tally t;
  for (size_t i = 0; i < pixels; ++i) {
    uint32_t tri[kMaxSamples];
    int c = 0, d = 0;
    for (int s = 0; s < n; ++s) {
      const uint64_t k = vis[vis_slot(pixels, i, s)];
      if (!key_current(k, tag)) continue;
      const uint32_t id = key_triangle(k);
      ++c;
      if (std::find(tri, tri + d, id) == tri + d) tri[d++] = id;
    }
    distinct[i] = (uint8_t)d;
    t.distinct_hist[d]++;
    if (c == 0) continue;
    t.covered++;
    t.covered_samples += c;
    t.pairs += d;
    if (c == n && d == 1) {
      t.whole++;
      t.whole_samples += n;
    }
  }
  // Rounds: a warp shades as many rounds as its busiest pixel has distinct triangles.
  for (int y = 0; y < h; ++y)
    for (int x0 = 0; x0 < w; x0 += 32) {
      int most = 0;
      for (int x = x0; x < std::min(w, x0 + 32); ++x) most = std::max(most, (int)distinct[(size_t)y * w + x]);
      if (most) t.row_warps++, t.row_rounds += most;
    }
  for (int y0 = 0; y0 < h; y0 += 4)
    for (int x0 = 0; x0 < w; x0 += 8) {
      int most = 0;
      for (int y = y0; y < std::min(h, y0 + 4); ++y)
        for (int x = x0; x < std::min(w, x0 + 8); ++x) most = std::max(most, (int)distinct[(size_t)y * w + x]);
      if (most) t.tile_warps++, t.tile_rounds += most;
    }
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  int w = 1920, h = 1080, n = 4;
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    bool ok = i + 1 < argc;
    if (ok && a == "--size")
      ok = std::sscanf(argv[++i], "%dx%d", &w, &h) == 2 && w > 0 && h > 0;
    else if (ok && a == "--aa")
      ok = valid_sample_count(n = std::atoi(argv[++i]));
    else if (ok && a == "--scene")
      names.push_back(argv[++i]);
    else
      ok = false;
    if (!ok) {
      std::fprintf(stderr, "usage: facet_coverage_probe [--size WxH] [--aa 1|4|8] [--scene sphere-N|dragon|spot]...\n");
      return 2;
    }
  }
  if (names.empty()) names = {"sphere-2K", "sphere-200K", "sphere-2M", "sphere-20M", "dragon", "spot"};
  const char* env = std::getenv("FACET_SHARED_ASSETS");
  const std::string assets = env ? env : FACET_SHARED_ASSETS;

  std::printf(
      "%dx%d, %d samples. covered: pixels with a sample; whole: all samples one triangle;\n"
      "pairs: distinct (pixel, triangle); rounds: a warp's busiest pixel's triangles, summed\n\n",
      w, h, n);
  std::printf(
      "| scene | covered px | whole px | samples in whole px | pairs / covered px | 1 / 2 / 3 / 4+ triangles "
      "| row warps: rounds / warp | compacted | tile warps: rounds / warp | compacted |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  for (const std::string& name : names) try {
      const Scene scene = make_probe_scene(name, assets);
      CpuRenderer r;
      r.set_scene(std::make_shared<const Scene>(scene));
      RenderOptions settings;
      settings.shading = name == "spot" ? Shading::Texture : Shading::Lit;
      settings.samples = (uint8_t)n;
      const Bounds bounds = frame_bounds(scene);
      const FrameParams fp =
          make_frame_params(bench_camera(scene.bounds, name.rfind("sphere-", 0) == 0, w, h), settings, bounds, w, h);
      r.render(fp);
      const Tally t = tally(r, w, h, n, fp.vis_tag);
      if (t.covered == 0) throw std::runtime_error("the camera sees none of it");
      const double cov = (double)t.covered;
      const uint64_t further = t.pairs - t.covered;
      uint64_t more = 0;
      for (int d = 4; d <= kMaxSamples; ++d) more += t.distinct_hist[d];
      std::printf(
          "| %s | %llu | %llu (%.1f %%) | %.1f %% | %.3f | %.1f / %.1f / %.1f / %.1f %% "
          "| %llu: %.2f | %.2f | %llu: %.2f | %.2f |\n",
          name.c_str(), (unsigned long long)t.covered, (unsigned long long)t.whole, 100.0 * t.whole / cov,
          100.0 * t.whole_samples / (double)t.covered_samples, t.pairs / cov, 100.0 * t.distinct_hist[1] / cov,
          100.0 * t.distinct_hist[2] / cov, 100.0 * t.distinct_hist[3] / cov, 100.0 * more / cov,
          (unsigned long long)t.row_warps, (double)t.row_rounds / t.row_warps, 1.0 + further / 32.0 / t.row_warps,
          (unsigned long long)t.tile_warps, (double)t.tile_rounds / t.tile_warps, 1.0 + further / 32.0 / t.tile_warps);
      std::fflush(stdout);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "facet_coverage_probe: %s: %s\n", name.c_str(), e.what());
      return 1;
    }
  return 0;
}
