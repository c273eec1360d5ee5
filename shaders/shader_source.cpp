// Lookup of the shaders embedded by embed_shaders.cmake (the generated table lives in the build tree).
#include "shaders/shader_source.h"

#include <cstddef>
#include <stdexcept>
#include <string>

namespace facet::detail {
struct EmbeddedShader {
  const char* name;
  const char* text;
  size_t size;
};
extern const EmbeddedShader k_embedded_shaders[];
extern const size_t k_embedded_shader_count;
}  // namespace facet::detail

namespace facet {

std::string_view shader_source(std::string_view file_name) {
  for (size_t i = 0; i < detail::k_embedded_shader_count; ++i) {
    const detail::EmbeddedShader& s = detail::k_embedded_shaders[i];
    if (file_name == s.name) return {s.text, s.size};
  }
  std::string known;
  for (std::string_view n : shader_names()) known += (known.empty() ? "" : ", ") + std::string(n);
  throw std::out_of_range("shader '" + std::string(file_name) + "' is not embedded (shaders/ has: " + known + ")");
}

std::vector<std::string_view> shader_names() {
  std::vector<std::string_view> names;
  for (size_t i = 0; i < detail::k_embedded_shader_count; ++i) names.push_back(detail::k_embedded_shaders[i].name);
  return names;  // already sorted: CMakeLists.txt sorts the file list
}

}  // namespace facet
