// load_model: the entry point for loading any model file into a complete Scene, or one
// LoadError. It picks the format's loader by extension (obj_loader.h, ply_loader.h,
// stl_loader.h, gltf_loader.h), turns any other failure (allocation included) into a LoadError naming the file,
// and goes through the scene cache, which also prepares the meshlets (load_pipeline.h).
#include "engine/load/load_model.h"

#include "engine/cache/scene_cache_write.h"
#include "engine/formats/gltf/gltf_loader.h"
#include "engine/formats/model_formats.h"
#include "engine/formats/obj/obj_loader.h"
#include "engine/formats/ply/ply_loader.h"
#include "engine/formats/stl/stl_loader.h"
#include "engine/load/load_pipeline.h"

namespace facet {

const char* const kOutsideFolderHint = "--read-outside-folder reads files wherever the model names them";
const char* const kReadOutsideFolderHelp =
    "Read the files a model names (MTLs, textures, glTF buffers and images) wherever they lie; without "
    "it only those in the model's folder and below are read, so that a model from elsewhere cannot make "
    "facet read other files";

namespace {

Scene load_model_guarded(const std::string& path, const LoadOptions& options) {
  // Whatever fails below (allocation included) reaches the caller as one LoadError naming the file.
  try {
    // By extension: .ply, .stl, .gltf and .glb have their own readers; everything else is OBJ.
    if (has_extension(path, ".ply")) return load_ply(path, options);
    if (has_extension(path, ".stl")) return load_stl(path, options);
    if (is_gltf_path(path)) return load_gltf(path, options);
    return load_obj(path, options);
  } catch (const LoadError&) {
    throw;
  } catch (const std::bad_alloc&) {
    throw LoadError(path + ": out of memory while loading");
  } catch (const std::exception& e) {
    throw LoadError(path + ": " + e.what());
  }
}

}  // namespace

Scene load_model(const std::string& path, const LoadOptions& options) {
  return run_load_pipeline(path, options, load_model_guarded);  // cache, meshlets, cancel (load_pipeline.h)
}

LoadedScene load_model_shared(const std::string& path, const LoadOptions& options) {
  return run_load_pipeline_shared(path, options, load_model_guarded);  // the store behind (scene_cache_write.h)
}

}  // namespace facet
