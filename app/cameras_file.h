// A cameras file (`facet render --cameras FILE`): a JSON list of cameras, each with its output
// PNG, read under a size cap (app/input_limits.h) with its nesting bounded before the JSON
// parser sees it. Every value goes through the same checks as the command line's option of the
// same meaning (engine/render/camera_values.h): "fov_y" accepts exactly what --fov-y accepts.
// Rendering the shots stays in render_shots.cpp.
#pragma once
#include <string>
#include <vector>

#include "app/render_shots.h"

namespace facet {

// The file's cameras, each the command line's camera options (`base`) with the entry's keys in
// their place. std::runtime_error "FILE: problem" when the file cannot be read or is not JSON, or
// "FILE: camera N: \"key\": problem" naming the entry and key at fault. `base` must be free of
// conflicts itself (camera_conflict): a conflict found here is the entry's.
std::vector<ShotRequest> read_cameras_file(const std::string& file, const CameraOptions& base, int width, int height);

// The same for the file's text, already read (the fuzz target's entry point).
std::vector<ShotRequest> parse_cameras_text(const std::string& text, const std::string& file, const CameraOptions& base,
                                            int width, int height);

}  // namespace facet
