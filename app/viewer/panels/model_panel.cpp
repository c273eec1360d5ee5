// The model panel: what is shown, what is loading (progress bar), what failed, and the Open panel
// (a path field plus a listing of one directory: folders and model files only, is_model_path).
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "app/viewer/panels/panels.h"
#include "app/viewer/panels/tools_ui.h"

namespace facet {

namespace fs = std::filesystem;

namespace {

void list_directory(OpenPanelState& open) {
  open.entries.clear();
  open.listing_error.clear();
  open.stale = false;
  std::error_code ec;
  fs::directory_iterator it(open.directory, fs::directory_options::skip_permission_denied, ec);
  if (ec) {
    open.listing_error = open.directory + ": " + ec.message();
    return;
  }
  for (const fs::directory_entry& e : it) {
    std::error_code type_ec;
    bool dir = e.is_directory(type_ec);
    std::string name = e.path().filename().string();
    if (!name.empty() && name[0] == '.') continue;  // hidden files
    if (dir || is_model_path(name)) open.entries.push_back({name, dir});
  }
  std::sort(open.entries.begin(), open.entries.end(), [](const auto& a, const auto& b) {
    return a.is_directory != b.is_directory ? a.is_directory : a.name < b.name;
  });
}

void change_directory(OpenPanelState& open, const fs::path& dir) {
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(dir, ec);
  open.directory = (ec ? dir : canonical).string();
  open.stale = true;
}

void current_model(ViewerState& s) {
  auto scene = s.loader.current();
  if (!scene) {
    ImGui::TextUnformatted("no model yet");
    return;
  }
  ImGui::TextWrapped("%s", s.loader.current_path().c_str());
  ImGui::TextWrapped("%u triangles, %u vertices, radius %.4g, loaded in %.2f s", scene->triangle_count(),
                     scene->vertex_count(), scene->bounds.radius, s.loader.last_load_seconds());
  // A closed surface skips its back faces when seen from outside (make_frame_params), unless
  // cut-outs open it (frame_bounds).
  ImGui::TextUnformatted(frame_bounds(*scene).closed ? "closed surface: hidden back faces skipped"
                         : scene->bounds.closed      ? "closed surface with cut-outs: back faces drawn"
                                                     : "open or mixed winding: back faces drawn");
  if (!s.loader.warnings().empty() && ImGui::TreeNode("warnings", "%zu warnings", s.loader.warnings().size())) {
    for (const std::string& w : s.loader.warnings()) ImGui::TextWrapped("%s", w.c_str());
    ImGui::TreePop();
  }
}

void load_status(ViewerState& s) {
  if (s.loader.busy()) {
    const LoadStatus st = s.loader.status();
    ImGui::TextWrapped("loading %s (%s)", s.loader.loading_path().c_str(),
                       st.stage[0] ? st.stage : s.loader.stage().c_str());
    char counts[128];
    std::snprintf(counts, sizeof counts, "%.1f / %.1f MB, %.2f / %.2f M triangles", st.bytes_done / 1e6,
                  st.bytes_total / 1e6, st.triangles_done / 1e6, st.triangles_total / 1e6);
    ImGui::ProgressBar(s.loader.progress(), ImVec2(-1.0f, 0.0f), counts);
    if (ImGui::Button("Cancel")) s.loader.cancel();  // the current model stays
  }
  if (!s.loader.error().empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
    ImGui::TextWrapped("%s", s.loader.error().c_str());
    ImGui::PopStyleColor();
  }
}

void open_controls(ViewerState& s) {
  OpenPanelState& open = s.open;
  if (open.directory.empty()) {
    fs::path start =
        s.loader.current_path().empty() ? fs::current_path() : fs::path(s.loader.current_path()).parent_path();
    change_directory(open, start);
  }
  bool go = ImGui::InputText("##path", open.path.data(), open.path.size(), ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  go |= ImGui::Button("Open");
  if (go && open.path[0]) {
    std::error_code ec;
    std::string typed = open.path.data();
    if (fs::is_directory(typed, ec))
      change_directory(open, typed);
    else
      s.loader.request(typed);  // the loader refuses what it cannot read, with a message
  }
  if (open.stale) list_directory(open);
  ImGui::TextWrapped("%s", open.directory.c_str());
  ImGui::BeginChild("listing", ImVec2(0, 160), true);
  if (ImGui::Selectable("../")) change_directory(open, fs::path(open.directory).parent_path());
  for (const auto& e : open.entries) {
    std::string label = e.is_directory ? e.name + "/" : e.name;
    if (!ImGui::Selectable(label.c_str())) continue;
    fs::path full = fs::path(open.directory) / e.name;
    if (e.is_directory) {
      change_directory(open, full);
    } else {
      std::snprintf(open.path.data(), open.path.size(), "%s", full.string().c_str());
      s.loader.request(full.string());
    }
  }
  if (!open.listing_error.empty()) ImGui::TextWrapped("%s", open.listing_error.c_str());
  ImGui::EndChild();
}

}  // namespace

void draw_model_panel(ViewerState& s) {
  place_right_panel(64);
  // Opens itself when there is something new to say (a load started, an error); stays closable.
  bool attention = s.loader.busy() || !s.loader.error().empty();
  if (attention && !s.open.alerted)
    ImGui::SetNextWindowCollapsed(false, ImGuiCond_Always);
  else
    ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver);
  s.open.alerted = attention;
  ImGui::Begin("Model");
  current_model(s);
  draw_model_extent(s);
  load_status(s);
  draw_recent_models(s);
  if (ImGui::CollapsingHeader("Open (or drop a model file on the window)")) open_controls(s);
  ImGui::End();
}

}  // namespace facet
