// Loading a model: OBJ + MTL (our own parser, obj_loader.h) and textures (stb_image) into one
// flat Scene.
// A file is either loaded (with warnings for what was dropped or replaced) or refused with one
// LoadError whose message names the file and the problem. Never a half-loaded scene.
#pragma once
#include <functional>
#include <stdexcept>
#include <string>

#include "engine/scene.h"

namespace facet {

class LoadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct LoadOptions {
  // Called now and then with the fraction done (0..1) and what is being done; may be empty.
  std::function<void(float fraction, const char* stage)> progress;
};

// Throws LoadError("PATH: problem") when the file cannot be shown.
Scene load_model(const std::string& path, const LoadOptions& options = {});

}  // namespace facet
