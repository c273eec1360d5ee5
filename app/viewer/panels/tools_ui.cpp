// Tool windows and drawings (tools_ui.h).
#include "app/viewer/panels/tools_ui.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <glm/glm.hpp>

#include "app/viewer/controls/viewer_keys.h"

namespace facet {

namespace {

constexpr float kGizmoLength = 40.0f;   // axis length of the corner gizmo, pixels
constexpr float kGizmoMargin = 56.0f;   // its centre's distance from the window's corner, pixels
constexpr float kMeasureDotPx = 4.0f;   // radius of a measured point's dot: visible, not hiding it
constexpr float kMeasureLinePx = 2.0f;  // the measured line's width: readable over any model
constexpr ImU32 kMeasureColour = IM_COL32(255, 220, 60, 255);  // yellow: unlike any axis colour

void help_window(ViewerState& s) {
  if (!s.show_help) return;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.5f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  if (ImGui::Begin("Keys and mouse (F1)", &s.show_help, ImGuiWindowFlags_AlwaysAutoResize) &&
      ImGui::BeginTable("keys", 2, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) {
    int count = 0;
    const KeyHelp* rows = key_help(&count);
    for (int i = 0; i < count; ++i) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(rows[i].keys);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(rows[i].action);
    }
    ImGui::EndTable();
  }
  ImGui::End();
}

void quit_modal(ViewerState& s) {
  if (s.confirm_quit) ImGui::OpenPopup("Quit?");
  s.confirm_quit = false;
  if (!ImGui::BeginPopupModal("Quit?", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
  ImGui::Text("A model is still loading (%s).", s.loader.loading_path().c_str());
  if (ImGui::Button("Quit") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter))) {
    s.quit_requested = true;
    ImGui::CloseCurrentPopup();
  }
  ImGui::SameLine();
  if (ImGui::Button("Keep going")) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
}

void measurement(ViewerState& s) {
  if (!s.measure_mode || s.measurement.points.empty()) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  const Camera& cam = s.controller.camera();
  const ImU32 colour = kMeasureColour;
  glm::vec2 px[2];
  bool shown[2] = {false, false};
  for (size_t i = 0; i < s.measurement.points.size(); ++i) {
    shown[i] = project_to_window(cam, s.measurement.points[i], io.DisplaySize.x, io.DisplaySize.y, &px[i]);
    if (shown[i]) draw->AddCircleFilled(ImVec2(px[i].x, px[i].y), kMeasureDotPx, colour);
  }
  if (!s.measurement.complete() || !shown[0] || !shown[1]) return;
  draw->AddLine(ImVec2(px[0].x, px[0].y), ImVec2(px[1].x, px[1].y), colour, kMeasureLinePx);
  char label[64];
  std::snprintf(label, sizeof label, "%.6g", s.measurement.length());
  glm::vec2 mid = 0.5f * (px[0] + px[1]);
  ImVec2 size = ImGui::CalcTextSize(label);
  draw->AddRectFilled(ImVec2(mid.x + 6, mid.y - 2), ImVec2(mid.x + 10 + size.x, mid.y + size.y + 2),
                      IM_COL32(0, 0, 0, 180));
  draw->AddText(ImVec2(mid.x + 8, mid.y), colour, label);
}

void pick_readout(ViewerState& s) {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(8, display.y - 8), ImGuiCond_FirstUseEver, ImVec2(0, 1));
  ImGui::SetNextWindowBgAlpha(0.75f);
  ImGui::Begin("Pick", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
  const SurfacePick& h = s.hover;
  if (h.hit) {
    ImGui::Text("position %.6g, %.6g, %.6g", h.position.x, h.position.y, h.position.z);
    ImGui::Text("triangle %u  material %s", h.triangle, h.material.empty() ? "(unnamed)" : h.material.c_str());
    ImGui::Text("depth %.6f  distance %.6g", h.depth, h.distance);
  } else {
    ImGui::TextUnformatted("(nothing under the cursor)");
  }
  if (ImGui::Checkbox("measure (M): click two points", &s.measure_mode)) s.measurement.points.clear();
  ImGui::Checkbox("grid (G)", &s.settings.ground_grid);
  ImGui::SameLine();
  ImGui::Checkbox("axes (X)", &s.show_axes);
  if (s.measurement.complete()) ImGui::Text("distance %.6g", s.measurement.length());
  ImGui::End();
}

// World X, Y, Z as the camera sees them, in the bottom-right corner; nearer axes drawn last.
void axes_gizmo(const ViewerState& s) {
  if (!s.show_axes) return;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  const glm::mat3 rot(s.controller.camera().view());
  const ImVec2 c(display.x - kGizmoMargin, display.y - kGizmoMargin);
  const ImU32 colours[3] = {IM_COL32(230, 70, 70, 255), IM_COL32(90, 200, 90, 255), IM_COL32(80, 130, 240, 255)};
  int order[3] = {0, 1, 2};
  glm::vec3 v[3];
  for (int i = 0; i < 3; ++i) v[i] = rot[i];  // column i: world axis i in view space
  std::sort(order, order + 3, [&](int a, int b) { return v[a].z < v[b].z; });
  for (int i : order) {
    ImVec2 tip(c.x + v[i].x * kGizmoLength, c.y - v[i].y * kGizmoLength);
    draw->AddLine(c, tip, colours[i], 2.5f);
    draw->AddText(ImVec2(tip.x - 4, tip.y - 7), colours[i], i == 0 ? "X" : i == 1 ? "Y" : "Z");
  }
}

void notice(const ViewerState& s) {
  if (s.notice.empty() || ImGui::GetTime() > s.notice_until) return;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y - 8), ImGuiCond_Always, ImVec2(0.5f, 1));
  ImGui::SetNextWindowBgAlpha(0.8f);
  ImGui::Begin("##notice", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoInputs |
                   ImGuiWindowFlags_NoSavedSettings);
  ImGui::TextUnformatted(s.notice.c_str());
  ImGui::End();
}

}  // namespace

void draw_tools(ViewerState& s) {
  help_window(s);
  quit_modal(s);
  measurement(s);
  notice(s);
}

void draw_tool_overlay(ViewerState& s) {
  pick_readout(s);
  axes_gizmo(s);
}

void draw_recent_models(ViewerState& s) {
  const std::vector<std::string>& recent = s.config.recent;
  if (recent.empty() || !ImGui::CollapsingHeader("Recent")) return;
  std::string open;
  for (size_t i = 0; i < recent.size(); ++i) {
    std::error_code ec;
    bool missing = !std::filesystem::exists(recent[i], ec);
    std::string label = std::to_string(i + 1) + "  " + std::filesystem::path(recent[i]).filename().string() +
                        (missing ? "  (missing)" : "") + "##recent" + std::to_string(i);
    ImGui::BeginDisabled(missing);
    if (ImGui::Selectable(label.c_str())) open = recent[i];
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", recent[i].c_str());
  }
  if (!open.empty()) s.loader.request(open);  // after the loop: the list may change
}

void draw_model_extent(const ViewerState& s) {
  auto scene = s.loader.current();
  if (!scene) return;
  const Bounds& b = scene->bounds;
  ImGui::Text("size %.6g x %.6g x %.6g", b.max.x - b.min.x, b.max.y - b.min.y, b.max.z - b.min.z);
  ImGui::Text("box %.4g, %.4g, %.4g  to  %.4g, %.4g, %.4g", b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z);
}

}  // namespace facet
