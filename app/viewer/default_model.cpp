// Where the bundled default model is: next to the executable (an installed or copied tree), else
// in the source tree the executable was built from (FACET_DEFAULT_MODEL, set by CMake), so that
// `facet` opens Spot from any working directory.
#include <filesystem>

#include "app/viewer/viewer_options.h"
#include "engine/base/platform.h"

namespace facet {

namespace {
constexpr const char* kDefaultModelRelative = "assets/spot/spot_triangulated_with_mtl.obj";
}

std::string default_model_path() {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path exe = platform::executable_path();
  if (!exe.empty()) {
    for (const fs::path& base : {exe.parent_path(), exe.parent_path().parent_path()}) {
      fs::path p = base / kDefaultModelRelative;
      if (fs::exists(p, ec)) return p.lexically_normal().string();
    }
  }
#ifdef FACET_DEFAULT_MODEL
  return FACET_DEFAULT_MODEL;
#else
  return kDefaultModelRelative;
#endif
}

}  // namespace facet
