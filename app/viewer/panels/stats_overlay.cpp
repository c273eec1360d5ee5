// The statistics overlay: how fast, where the time goes, how many triangles, how much memory.
#include <imgui.h>

#include "app/viewer/panels/panels.h"
#include "app/viewer/window/cuda_interop.h"

namespace facet {

namespace {

float mib(size_t bytes) { return (float)bytes / (1024.0f * 1024.0f); }

void frame_time_graph(const ViewerState& s) {
  const FrameTimeHistory& h = s.frame_times;
  float avg = h.average();
  ImGui::Text("%.1f FPS  (%.2f ms/frame)", avg > 0 ? 1000.0f / avg : 0.0f, avg);
  ImGui::PlotLines(
      "##frame_ms", [](void* d, int i) { return static_cast<const FrameTimeHistory*>(d)->at(i); },
      const_cast<FrameTimeHistory*>(&h), h.count(), 0, "frame ms", 0.0f, 2.0f * avg + 0.1f, ImVec2(0, 50));
}

void stage_times(const FrameStats& st, const FramePresenter& presenter) {
  if (!ImGui::BeginTable("stages", 2, ImGuiTableFlags_SizingFixedFit)) return;
  auto row = [](const char* name, float ms) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(name);
    ImGui::TableNextColumn();
    ImGui::Text("%8.3f ms", ms);
  };
  row("clear", st.times.clear);
  row("geometry + raster", st.times.geometry);
  row("resolve + shade", st.times.resolve);
  row("render total", st.times.total);
  row("present (GL)", presenter.present_ms());
  ImGui::EndTable();
}

void triangle_counters(const FrameStats& st) {
  ImGui::Text("triangles in %u", st.triangles_in);
  ImGui::Text("culled %u  clipped %u  drawn %u", st.tris.culled, st.tris.clipped, st.tris.drawn);
  ImGui::Text("back faces %s", st.back_faces_culled ? "culled" : "drawn (two-sided)");
  if (st.tris.occluded) ImGui::Text("occluded (whole meshlets) %u", st.tris.occluded);
  if (st.tris.nan) ImGui::Text("NaN/Inf dropped %u", st.tris.nan);
  if (st.overflow_events) ImGui::Text("buffer overflows %llu", (unsigned long long)st.overflow_events);
}

void memory(const FrameStats& st) {
  ImGui::Text("scene %.1f MiB  frame %.1f MiB", mib(st.scene_bytes), mib(st.frame_bytes));
  size_t device = 0;
  if (cuda_device_memory_used(&device)) ImGui::Text("device in use %.0f MiB", mib(device));
}

}  // namespace

void place_right_panel(float y) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(display.x - 8, y), ImGuiCond_FirstUseEver, ImVec2(1, 0));
  ImGui::SetNextWindowSize(ImVec2(420, 0), ImGuiCond_FirstUseEver);
}

void draw_stats_overlay(ViewerState& s, const FramePresenter& presenter) {
  ImGui::SetNextWindowPos(ImVec2(8, 8), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowBgAlpha(0.75f);
  ImGui::Begin("facet", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
  FrameStats st = s.renderer->stats();
  ImGui::Text("%s, %dx%d, %s", s.renderer->name(), s.render_width, s.render_height, s.host_name);
  ImGui::TextWrapped("present: %s", presenter.path().c_str());
  if (!s.render_error.empty()) ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "%s", s.render_error.c_str());
  frame_time_graph(s);
  stage_times(st, presenter);
  triangle_counters(st);
  memory(st);
  ImGui::End();
}

}  // namespace facet
