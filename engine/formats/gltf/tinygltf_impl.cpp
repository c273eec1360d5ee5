// The one translation unit that compiles tinygltf (the header-only glTF 2.0 reader of
// libtinygltf-dev, with the settings of tinygltf_config.h). Nothing else belongs here.
#define TINYGLTF_IMPLEMENTATION
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wall"
#pragma GCC diagnostic ignored "-Wextra"
#include "engine/formats/gltf/tinygltf_config.h"
#pragma GCC diagnostic pop
