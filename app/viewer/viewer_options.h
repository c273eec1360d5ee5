// What `facet view` was asked to do: the model, the window, the scripted-run switches, and the
// camera and shading options it shares with `facet render`. Plain data; parsing is in
// app/view_command.cpp.
#pragma once
#include <string>
#include <vector>

#include "app/camera_options.h"
#include "engine/render/renderer.h"

namespace facet {

struct ViewerOptions {
  std::string model;                // model file to open first (OBJ, PLY, STL)
  int width = 1280, height = 800;   // window (or offscreen framebuffer) size in pixels
  int frames = 0;                   // > 0: exit after this many frames (scripted runs)
  std::string screenshot;           // save the last frame (overlay included when shown) here
  std::string screenshot_template;  // F12 names (screenshot_name.h); "" = the default. With
                                    //   --frames and a frame number in it: every frame is saved
  float orbit_deg_per_frame = 0;    // turn the camera around the target's up axis every frame
  int reload_every = 0;             // > 0: reload the model every N frames (long-run tests)
  bool offscreen = false;           // EGL context, no window, no X server
  bool overlay = true;              // the ImGui panels and statistics
  bool vsync = true;
  bool cache = true;                 // models through the scene cache (--no-cache)
  bool read_outside_folder = false;  // LoadOptions::read_outside_folder (--read-outside-folder)
  bool ground_grid = false;          // start with the ground grid on (G toggles)
  std::vector<double> measure;       // empty, or two world points x,y,z,x,y,z: start in measure mode
                                     //   with them measured (scripted screenshots and tests)
  bool size_given = false;           // --size was given: the remembered window size is not used
  bool restore_settings = true;      // restore and save the remembered settings and layout
                                     //   (interactive runs without render options on the command line)
  Backend backend = Backend::Auto;
  CameraOptions camera;
  RenderOptionArgs shading;
};

// The bundled default model (Spot), found from any working directory.
std::string default_model_path();

// Runs the viewer until the window closes or `frames` have been drawn; returns the exit code.
int run_viewer(const ViewerOptions& options);

}  // namespace facet
