// The viewer's keys as f3d and MeshLab users expect them, as plain data: the frame loop fills a
// KeyPresses from ImGui (viewer_frame.cpp) and apply_key_presses acts on the state, so tests can
// press keys without a window. Mouse gestures live in the camera controller.
#pragma once
#include "app/viewer/viewer_state.h"

namespace facet {

// Keys pressed this frame (edges, not held keys), already filtered of those ImGui wants.
struct KeyPresses {
  bool escape = false;        // quit (asks first while a model loads)
  bool help = false;          // F1 or ?: the cheat sheet
  bool tab = false;           // orbit <-> fly
  bool frame_all = false;     // F
  bool screenshot = false;    // F12 (with shift: the overlay included)
  bool hide_overlay = false;  // H
  bool measure = false;       // M
  bool axes = false;          // X
  bool grid = false;          // G
  bool ortho = false;         // O: orthographic <-> perspective
  int numpad = 0;             // 1, 3 or 7: front, right, top (ctrl: back, left, bottom)
  bool shift = false, ctrl = false;
};

void apply_key_presses(ViewerState& s, const KeyPresses& k, float aspect);

// The cheat sheet's rows: key, what it does (also docs/cli.md's table).
struct KeyHelp {
  const char* keys;
  const char* action;
};
const KeyHelp* key_help(int* count);

}  // namespace facet
