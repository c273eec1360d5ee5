// The reports of `facet bench` (bench_report.h): Markdown tables and the --json document
// (nlohmann-json: names and paths are escaped).
#include "app/bench_report.h"

#include <cstdio>

namespace facet {

void print_tables(const std::vector<BenchRow>& rows, const Renderer& renderer, const BenchOptions& o) {
  if (o.cull_backfaces) std::printf("\nBack faces culled by both renderers.\n");
  if (o.two_sided) std::printf("\nBack faces drawn by both renderers, even where they cannot show.\n");
  if (o.aa.size() > 1 || o.aa.front() != 1)
    std::printf(
        "\naa: samples a pixel in both renderers (OpenGL: that many-sample MSAA, resolved by a blit in its timing).\n");
  if (renderer.capabilities().sampled_stage_times)
    std::printf(
        "\nStage columns: medians of the frames that clear the visibility buffer (one in four), the\n"
        "only ones with events between the stages; frame: median of all frames.\n");
  std::printf(
      "\n| scene | size | aa | triangles | %s | %s | resolve ms | frame ms | Gtri/s | OpenGL ms | OpenGL / facet |\n",
      "clear ms", "geometry + raster ms");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const BenchRow& r : rows)
    std::printf("| %s | %s | %d | %u | %.4f | %.4f | %.4f | %.4f | %.2f | %.4f | %.1fx |\n", r.scene.c_str(),
                r.size.c_str(), r.aa, r.triangles, r.clear, r.geometry, r.resolve, r.frame,
                r.triangles / (r.frame * 1e-3) / 1e9, r.gl, r.gl / r.frame);
  std::printf(
      "\n| scene | size | aa | scene bytes / triangle | frame scratch MiB (visibility, image, queues) | triangles "
      "skipped as occluded (last frame) | back faces |\n|---|---|---|---|---|---|---|\n");
  for (const BenchRow& r : rows)
    std::printf("| %s | %s | %d | %.1f | %.1f | %u | %s |\n", r.scene.c_str(), r.size.c_str(), r.aa,
                r.triangles ? (double)r.scene_bytes / r.triangles : 0.0, r.frame_bytes / 1048576.0, r.occluded,
                r.hidden_back_faces ? "skipped by both: closed, seen from outside"
                : o.cull_backfaces  ? "culled by both"
                                    : "drawn by both");
  for (const BenchRow& r : rows)
    if (r.overflow)
      std::printf("note: %s %s needed %llu queue growth(s)\n", r.scene.c_str(), r.size.c_str(),
                  (unsigned long long)r.overflow);
}

// A time in ms, or null where there is none (no OpenGL, no stage events).
static nlohmann::json ms_or_null(double ms) { return std::isfinite(ms) ? nlohmann::json(ms) : nlohmann::json(nullptr); }

nlohmann::json rows_json(const std::vector<BenchRow>& rows, const Renderer& renderer, const BenchOptions& o,
                         int frames) {
  nlohmann::json js = {{"backend", renderer.name()},
                       {"frames", frames},
                       {"orbit_deg", o.orbit_deg},
                       {"ortho", o.ortho},
                       {"scenes", nlohmann::json::array()}};
  for (const BenchRow& r : rows)
    js["scenes"].push_back({{"scene", r.scene},
                            {"size", r.size},
                            {"aa", r.aa},
                            {"triangles", r.triangles},
                            {"clear_ms", ms_or_null(r.clear)},
                            {"geometry_ms", ms_or_null(r.geometry)},
                            {"resolve_ms", ms_or_null(r.resolve)},
                            {"frame_ms", ms_or_null(r.frame)},
                            {"opengl_ms", ms_or_null(r.gl)},
                            {"drawn", r.drawn},
                            {"occluded", r.occluded},
                            {"back_faces_skipped", r.hidden_back_faces || o.cull_backfaces},
                            {"scene_bytes", r.scene_bytes},
                            {"frame_bytes", r.frame_bytes}});
  return js;
}

}  // namespace facet
