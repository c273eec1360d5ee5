// version_string(): FACET_VERSION and FACET_GIT_COMMIT come from app/CMakeLists.txt, set on this
// file alone so that a new commit recompiles one file, not the whole app.
#include "app/version.h"

#ifndef FACET_VERSION
#define FACET_VERSION "unknown"
#endif
#ifndef FACET_GIT_COMMIT
#define FACET_GIT_COMMIT ""
#endif

namespace facet {

std::string version_string() {
  std::string commit = FACET_GIT_COMMIT;
  return commit.empty() ? std::string(FACET_VERSION) : std::string(FACET_VERSION) + " (git " + commit + ")";
}

}  // namespace facet
