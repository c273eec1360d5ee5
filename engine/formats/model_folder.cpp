// inside_model_folder (model_folder.h): the path's text, then its real place (platform.h).
#include "engine/formats/model_folder.h"

#include "engine/base/platform.h"

namespace facet {

namespace {

// The text of `path` below `folder`, never climbing above it.
bool inside_by_text(const std::string& folder, const std::string& path) {
  std::string rest = path;
  if (!folder.empty()) {
    const std::string prefix = folder.back() == '/' ? folder : folder + "/";
    if (path.compare(0, prefix.size(), prefix) != 0) return false;
    rest = path.substr(prefix.size());
  } else if (!path.empty() && path[0] == '/') {
    return false;
  }
  int depth = 0;
  for (size_t start = 0; start <= rest.size();) {
    size_t end = rest.find('/', start);
    if (end == std::string::npos) end = rest.size();
    const std::string seg = rest.substr(start, end - start);
    if (seg == "..") {
      if (--depth < 0) return false;
    } else if (!seg.empty() && seg != ".") {
      ++depth;
    }
    start = end + 1;
  }
  return true;
}

}  // namespace

bool inside_model_folder(const std::string& folder, const std::string& path) {
  if (!inside_by_text(folder, path)) return false;
  const std::string real = platform::real_path(path);
  if (real.empty()) return true;  // not there: nothing to read, whatever a link would say
  const std::string real_folder = platform::real_path(folder.empty() ? "." : folder);
  if (real_folder.empty()) return false;
  const std::string prefix = real_folder == "/" ? "/" : real_folder + "/";
  return real.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace facet
