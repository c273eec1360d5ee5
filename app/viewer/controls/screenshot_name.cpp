// Screenshot names (screenshot_name.h).
#include "app/viewer/controls/screenshot_name.h"

#include <cctype>
#include <cstdio>
#include <filesystem>

namespace facet {

namespace {

constexpr size_t kMaxName = 4096;  // longest expanded name (PATH_MAX)

// Length of a frame-number code starting at tmpl[i] == '%' ("%d", "%4d", "%04d"), or 0.
size_t frame_code_length(const std::string& tmpl, size_t i) {
  size_t j = i + 1;
  while (j < tmpl.size() && j - i <= 3 && std::isdigit((unsigned char)tmpl[j])) ++j;
  return j < tmpl.size() && tmpl[j] == 'd' ? j - i + 1 : 0;
}

}  // namespace

bool template_numbers_frames(const std::string& tmpl) {
  for (size_t i = 0; i < tmpl.size(); ++i) {
    if (tmpl[i] != '%') continue;
    if (i + 1 < tmpl.size() && tmpl[i + 1] == '%') {
      ++i;  // "%%" is a literal percent sign
      continue;
    }
    if (frame_code_length(tmpl, i)) return true;
  }
  return false;
}

std::string expand_screenshot_template(const std::string& tmpl, const std::tm& time, long frame) {
  // Frame codes first (as literal digits), then strftime for the rest.
  std::string with_frames;
  for (size_t i = 0; i < tmpl.size(); ++i) {
    size_t n = tmpl[i] == '%' ? frame_code_length(tmpl, i) : 0;
    if (frame >= 0 && n && !(i + 1 < tmpl.size() && tmpl[i + 1] == '%')) {
      char digits[32];
      std::snprintf(digits, sizeof digits, ("%" + tmpl.substr(i + 1, n - 1)).c_str(), (int)frame);
      with_frames += digits;
      i += n - 1;
    } else {
      with_frames += tmpl[i];
      if (tmpl[i] == '%' && i + 1 < tmpl.size()) with_frames += tmpl[++i];  // keep "%x" whole
    }
  }
  char name[kMaxName];
  size_t len = std::strftime(name, sizeof name, with_frames.c_str(), &time);
  return len ? std::string(name, len) : with_frames;
}

std::string unused_path(const std::string& path, const std::function<bool(const std::string&)>& exists) {
  if (!exists(path)) return path;
  std::filesystem::path p(path);
  std::string stem = (p.parent_path() / p.stem()).string(), ext = p.extension().string();
  for (int n = 1;; ++n) {
    std::string candidate = stem + "-" + std::to_string(n) + ext;
    if (!exists(candidate)) return candidate;
  }
}

}  // namespace facet
