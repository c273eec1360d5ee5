// The viewer's ImGui panels, one function each. They read and change ViewerState and take effect
// on the next frame; none of them touches GL or the renderer directly.
#pragma once
#include "app/viewer/viewer_state.h"
#include "app/viewer/window/frame_presenter.h"

namespace facet {

// Puts the next panel against the window's right edge, `y` pixels down (first use only), so
// that collapsed panels stack there and leave the model and the statistics in view.
void place_right_panel(float y);

// FPS, frame-time graph, per-stage times, present time and path, triangle counters, memory.
void draw_stats_overlay(ViewerState& s, const FramePresenter& presenter);
// Field of view and focal length (px and 35 mm), near/far, eye/target, presets, fly/orbit.
void draw_camera_panel(ViewerState& s);
// Shading, filter, culling, wireframe, background, vsync, resolution scale, screenshot.
void draw_render_panel(ViewerState& s);
// The current model, loading progress, the last error, and the Open panel.
void draw_model_panel(ViewerState& s);

}  // namespace facet
