// The file extensions facet opens as models, in one place: the viewer's drop target and Open
// panel list exactly these, and load_model picks a reader by them (case-insensitive).
#pragma once
#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace facet {

// .obj (+ .mtl), .ply, .stl; .gltf and .glb once their reader is in.
constexpr std::array<const char*, 5> kModelExtensions = {".obj", ".ply", ".stl", ".gltf", ".glb"};

// Whether `path` ends in `ext` (".ply"), ignoring case.
inline bool has_extension(const std::string& path, const std::string& ext) {
  if (path.size() < ext.size()) return false;
  return std::equal(ext.begin(), ext.end(), path.end() - (std::ptrdiff_t)ext.size(),
                    [](char a, char b) { return std::tolower((unsigned char)a) == std::tolower((unsigned char)b); });
}

// "OBJ, PLY, ..." for messages: the extensions without their dots, upper case, comma-separated.
inline std::string model_extension_list() {
  std::string out;
  for (const char* ext : kModelExtensions) {
    if (!out.empty()) out += ", ";
    for (const char* c = ext + 1; *c; ++c) out += (char)std::toupper((unsigned char)*c);
  }
  return out;
}

// Whether `path` ends in one of kModelExtensions.
inline bool is_model_path(const std::string& path) {
  return std::any_of(kModelExtensions.begin(), kModelExtensions.end(),
                     [&](const char* ext) { return has_extension(path, ext); });
}

}  // namespace facet
