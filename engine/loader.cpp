// load_model: the entry point for loading any model file into a complete Scene, or one
// LoadError. It picks the format's loader by extension (obj_loader.h, ply_loader.h,
// stl_loader.h) and turns any other failure (allocation included) into a LoadError naming the
// file.
#include "engine/loader.h"

#include "engine/model_formats.h"
#include "engine/obj_loader.h"
#include "engine/ply_loader.h"
#include "engine/stl_loader.h"

namespace facet {

Scene load_model(const std::string& path, const LoadOptions& options) {
  // Whatever fails below (allocation included) reaches the caller as one LoadError naming the file.
  try {
    // By extension: .ply and .stl have their own readers; everything else is read as OBJ.
    if (has_extension(path, ".ply")) return load_ply(path, options);
    if (has_extension(path, ".stl")) return load_stl(path, options);
    return load_obj(path, options);
  } catch (const LoadError&) {
    throw;
  } catch (const std::bad_alloc&) {
    throw LoadError(path + ": out of memory while loading");
  } catch (const std::exception& e) {
    throw LoadError(path + ": " + e.what());
  }
}

}  // namespace facet
