// What `facet bench` was asked (BenchOptions), what it measured (BenchRow, one a scene, size and
// sample count), and the two reports made of them: the Markdown tables on standard output and
// the --json document. Measuring is bench_measure.h's, choosing scenes bench_command.cpp's.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/render/option_names.h"
#include "engine/render/renderer.h"

namespace facet {

struct BenchOptions {
  std::vector<std::string> scenes;  // empty = the standard set
  std::string sizes = "1920x1080,3840x2160";
  int frames = 0;  // timed frames; 0: the backend's default (below)
  std::string json;
  bool vertices = true;
  bool gl = true;
  bool graph = true;                                            // false: launch the frame's work call by call
  bool cull_backfaces = false;                                  // both renderers drop every back face
  bool two_sided = false;                                       // both renderers draw back faces even of a closed
                                                                //   model seen from outside (every triangle drawn)
  std::string occlusion = name_of(BackendOptions{}.occlusion);  // occlusion culling (kOcclusionNames)
  std::vector<int> aa = {1};                                    // samples a pixel, each measured in turn, both
                                                                //   renderers (OpenGL: MSAA)
  float orbit_deg = 0.0f;                                       // facet's camera turns this much a frame about the
                                                                //   model's vertical axis (0: one fixed camera)
  bool ortho = false;                                           // orthographic cameras, each scene the size on
                                                                //   screen its perspective camera gives it
  std::string backend = name_of(Backend::Auto);
  std::string assets;                       // folder holding spot/ and dragon/
  bool cache = true;                        // models through the scene cache (--no-cache)
  bool outside_folder = false;              // --read-outside-folder (LoadOptions::read_outside_folder)
  std::vector<std::string> defaults_files;  // the defaults files the command line was read with
};

struct BenchRow {
  std::string scene, size;
  int aa = 1;  // samples a pixel
  uint32_t triangles = 0;
  double clear = NAN, geometry = NAN, resolve = NAN, frame = NAN, gl = NAN;
  uint32_t drawn = 0;
  uint32_t occluded = 0;           // triangles in meshlets skipped by occlusion culling, last frame
  bool hidden_back_faces = false;  // back faces skipped as hidden (closed model seen from outside)
  uint64_t overflow = 0;
  size_t scene_bytes = 0, frame_bytes = 0;
};

// The tables of `rows`, with the notes the options call for, on standard output.
void print_tables(const std::vector<BenchRow>& rows, const Renderer& renderer, const BenchOptions& o);
// The --json document of `rows`, measured with `frames` timed frames each.
nlohmann::json rows_json(const std::vector<BenchRow>& rows, const Renderer& renderer, const BenchOptions& o,
                         int frames);

}  // namespace facet
