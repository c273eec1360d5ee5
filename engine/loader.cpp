// load_model: the entry point for loading any model file into a complete Scene, or one
// LoadError. It picks the format's loader (only OBJ so far: obj_loader.h) and turns any other
// failure (allocation included) into a LoadError naming the file.
#include "engine/loader.h"

#include "engine/obj_loader.h"

namespace facet {

Scene load_model(const std::string& path, const LoadOptions& options) {
  // Whatever fails below (allocation included) reaches the caller as one LoadError naming the file.
  try {
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
