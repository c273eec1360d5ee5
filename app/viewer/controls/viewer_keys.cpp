// What each viewer key does (viewer_keys.h). No ImGui, no GL.
#include "app/viewer/controls/viewer_keys.h"

namespace facet {

namespace {

ViewPreset numpad_view(int key, bool opposite) {
  switch (key) {
    case 1:
      return opposite ? ViewPreset::Back : ViewPreset::Front;
    case 3:
      return opposite ? ViewPreset::Left : ViewPreset::Right;
    default:
      return opposite ? ViewPreset::Bottom : ViewPreset::Top;
  }
}

const KeyHelp kKeyHelp[] = {
    {"left drag", "orbit about the pivot (fly: look around)"},
    {"right / middle drag", "pan"},
    {"wheel", "zoom toward the cursor"},
    {"double-click", "orbit about the surface point under the cursor"},
    {"W A S D  Q E", "fly (switches to fly mode); shift: 4x faster"},
    {"Tab", "toggle orbit / fly"},
    {"F", "frame the whole model"},
    {"numpad 1 / 3 / 7", "front / right / top view (ctrl: the opposite side)"},
    {"M", "measure: click two points for their distance"},
    {"G", "ground grid under the model"},
    {"X", "axes gizmo"},
    {"O", "orthographic / perspective (same size at the pivot; wheel: view height)"},
    {"H", "hide / show the overlay"},
    {"F12", "screenshot of the frame (shift: with the overlay)"},
    {"F1 or ?", "this help"},
    {"Esc", "quit (asks first while a model loads)"},
};

}  // namespace

const KeyHelp* key_help(int* count) {
  *count = (int)(sizeof kKeyHelp / sizeof kKeyHelp[0]);
  return kKeyHelp;
}

void apply_key_presses(ViewerState& s, const KeyPresses& k, float aspect) {
  if (k.escape) {
    if (s.loader.busy())
      s.confirm_quit = true;
    else
      s.quit_requested = true;
  }
  if (k.help) s.show_help = !s.show_help;
  if (k.tab) s.controller.toggle_mode();
  if (k.frame_all) s.controller.frame_all(aspect);
  if (k.screenshot) {
    if (k.shift)
      s.screenshot_with_overlay = true;
    else
      s.screenshot_requested = true;
  }
  if (k.hide_overlay) s.overlay = !s.overlay;
  if (k.measure) {
    s.measure_mode = !s.measure_mode;
    s.measurement.points.clear();
  }
  if (k.axes) s.show_axes = !s.show_axes;
  if (k.grid) s.settings.ground_grid = !s.settings.ground_grid;
  if (k.ortho) s.controller.toggle_projection();
  if (k.numpad) s.controller.view_from(numpad_view(k.numpad, k.ctrl));
}

}  // namespace facet
