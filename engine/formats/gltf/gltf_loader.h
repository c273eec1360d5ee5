// Loading glTF 2.0 (.gltf with its buffers and images, or .glb) through tinygltf into one flat
// Scene: every triangle primitive of the default scene (else scene 0, else every root node) with
// its node transforms baked in, base colours and textures, normals, TEXCOORD_0 and COLOR_0.
// Animation, skins (drawn in the bind pose), morph targets (the base mesh), cameras and lights
// are not read. Like load_model: a complete Scene or one LoadError("PATH: problem"); what glTF
// forbids is refused before anything is built (gltf_check.h, gltf_files.h), and files the model
// names are read from its own folder only.
#pragma once
#include <string>

#include "engine/load/load_model.h"

namespace facet {

// The path ends in .gltf or .glb (any case).
bool is_gltf_path(const std::string& path);

Scene load_gltf(const std::string& path, const LoadOptions& options = {});

}  // namespace facet
