// The render panel: how pixels are shaded and presented, and the screenshot button.
#include <imgui.h>

#include <string>

#include "app/viewer/panels/panels.h"
#include "engine/render/option_names.h"

namespace facet {

namespace {

// A combo of an option's names (option_names.h) that sets `value`.
template <class Enum, size_t N>
void option_combo(const char* label, Enum& value, const OptionName<Enum> (&names)[N]) {
  std::string items;  // ImGui's list: each name ends with a '\0', the list with one more (c_str's)
  int current = 0;
  for (size_t i = 0; i < N; ++i) {
    (items += names[i].name) += '\0';
    if (names[i].value == value) current = (int)i;
  }
  if (ImGui::Combo(label, &current, items.c_str())) value = names[current].value;
}

void shading_controls(RenderOptions& r) {
  option_combo("shading", r.shading, kShadingNames);
  option_combo("texture filter", r.filter, kFilterNames);
  ImGui::Checkbox("cull back faces", &r.cull_backfaces);
  ImGui::SameLine();
  ImGui::Checkbox("wireframe", &r.wireframe);
  // A closed model seen from outside skips its back faces by itself (they cannot show).
  ImGui::BeginDisabled(r.cull_backfaces);
  ImGui::Checkbox("two-sided (draw hidden back faces)", &r.two_sided);
  ImGui::EndDisabled();
  int aa = r.samples == 8 ? 2 : r.samples == 4 ? 1 : 0;
  ImGui::Combo("anti-aliasing", &aa,
               "off (1 sample)\0"
               "4 samples\0"
               "8 samples\0");
  r.samples = (uint8_t)(aa == 2 ? 8 : aa == 1 ? 4 : 1);
  float bg[3] = {r.background.r / 255.0f, r.background.g / 255.0f, r.background.b / 255.0f};
  if (ImGui::ColorEdit3("background", bg))
    r.background = {(uint8_t)(bg[0] * 255.0f + 0.5f), (uint8_t)(bg[1] * 255.0f + 0.5f),
                    (uint8_t)(bg[2] * 255.0f + 0.5f), 255};
}

}  // namespace

void draw_render_panel(ViewerState& s) {
  place_right_panel(36);
  ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver);
  ImGui::Begin("Render");
  shading_controls(s.settings);
  ImGui::Checkbox("vsync", &s.vsync);
  ImGui::SliderFloat("resolution scale", &s.resolution_scale, 0.25f, 2.0f, "%.2f");
  if (ImGui::Button("Screenshot (F12)")) s.screenshot_requested = true;
  if (!s.message.empty()) ImGui::TextWrapped("%s", s.message.c_str());
  ImGui::End();
}

}  // namespace facet
