// The viewer's tool windows and drawings besides the panels (panels.h): the key cheat sheet, the
// quit confirmation, what the cursor is over, measurements, the corner axes gizmo, short notices,
// and the Model panel's Recent list and model extent. ImGui only; no GL, no renderer calls.
#pragma once
#include "app/viewer/viewer_state.h"

namespace facet {

// Drawn whatever the overlay setting: the help window (F1/?), the quit confirmation, the
// measurement while measure mode is on, and the current notice.
void draw_tools(ViewerState& s);
// Drawn with the overlay: the pick read-out and the axes gizmo.
void draw_tool_overlay(ViewerState& s);
// The Model panel's Recent list: most recent first, missing files marked and not clickable.
void draw_recent_models(ViewerState& s);
// Lines for the Model panel: the bounding box's size and corners.
void draw_model_extent(const ViewerState& s);

}  // namespace facet
