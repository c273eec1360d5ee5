// When and where the viewer saves screenshots: F12 (the frame as rendered, read before the overlay
// is drawn), Shift+F12 (as shown, after), the scripted --screenshot of the last frame, and every
// frame of a scripted run whose --screenshot-template numbers frames. The path goes to the
// overlay for a few seconds and to stdout; a failure to stderr. A screenshot is never written
// over a file the model's load read, and a scripted one that cannot be written ends the run, which
// then exits 1.
#pragma once
#include "app/viewer/viewer_state.h"

namespace facet {

enum class ScreenshotPoint {
  FrameOnly,    // the frame is in the framebuffer, the overlay not yet
  WithOverlay,  // the overlay has been drawn over it
};

// Saves what is due at this point of the frame from the bound framebuffer (width x height).
void take_screenshots(ViewerState& s, int width, int height, ScreenshotPoint at, bool last_frame);

}  // namespace facet
