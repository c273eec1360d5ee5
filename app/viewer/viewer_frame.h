// The steps of one viewer frame that are not drawing: input into the camera controller, keys,
// installing loaded models, the scripted orbit and reloads, the render size. Kept apart from the
// loop in viewer.cpp so the loop reads like Dear ImGui's example.
#pragma once
#include "app/viewer/viewer_state.h"

namespace facet {

// Render size for this frame from the framebuffer size and the resolution scale.
void update_render_size(ViewerState& s, int framebuffer_w, int framebuffer_h);
// Installs a finished load (the first model gets the command line's camera, later ones are framed)
// and, in long runs, asks for a reload every options.reload_every frames.
void update_model(ViewerState& s);
// Mouse and keys (those ImGui does not want) move the camera and act (viewer_keys.h);
// --orbit turns the camera every frame.
void update_camera(ViewerState& s);
// What the cursor is over in the frame just rendered (one key read from its visibility buffer).
void update_hover(ViewerState& s);
// "--eye X,Y,Z --target ... --near N --far F": options that make `facet render` draw this camera.
std::string camera_as_options(const Camera& camera);

}  // namespace facet
