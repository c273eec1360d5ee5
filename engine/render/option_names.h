// The names of the render options' values, one table per option: the command line (and its TOML
// defaults file), the viewer's remembered settings and panels, and the Python module all parse
// and print names through these, so each name is spelt once. What a name means is the enum's
// business (renderer.h, kernels/frame/params.h, frame_plan.h); no parsing of whole options here.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/render/frame_plan.h"
#include "engine/render/renderer.h"

namespace facet {

// One value of an option and the name users write for it.
template <class Enum>
struct OptionName {
  const char* name;
  Enum value;
};

// Each table lists every value of its enum, in the enum's order.
inline constexpr OptionName<Shading> kShadingNames[] = {
    {"lit", Shading::Lit}, {"texture", Shading::Texture}, {"normals", Shading::Normals}, {"depth", Shading::Depth}};
inline constexpr OptionName<Filter> kFilterNames[] = {
    {"nearest", Filter::Nearest}, {"bilinear", Filter::Bilinear}, {"trilinear", Filter::Trilinear}};
inline constexpr OptionName<Backend> kBackendNames[] = {
    {"auto", Backend::Auto}, {"cpu", Backend::Cpu}, {"cuda", Backend::Cuda}};
inline constexpr OptionName<OcclusionMode> kOcclusionNames[] = {
    {"auto", OcclusionMode::Auto}, {"off", OcclusionMode::Off}, {"always", OcclusionMode::Always}};

// The value named `name` (exact spelling), or none.
template <class Enum, size_t N>
constexpr std::optional<Enum> parse_option(const OptionName<Enum> (&table)[N], std::string_view name) {
  for (const OptionName<Enum>& o : table)
    if (name == o.name) return o.value;
  return std::nullopt;
}

// The name of `value`; "" for a value the table lacks.
template <class Enum, size_t N>
constexpr const char* name_of(const OptionName<Enum> (&table)[N], Enum value) {
  for (const OptionName<Enum>& o : table)
    if (o.value == value) return o.name;
  return "";
}
constexpr const char* name_of(Shading v) { return name_of(kShadingNames, v); }
constexpr const char* name_of(Filter v) { return name_of(kFilterNames, v); }
constexpr const char* name_of(Backend v) { return name_of(kBackendNames, v); }
constexpr const char* name_of(OcclusionMode v) { return name_of(kOcclusionNames, v); }

// The names in the table's order (a CLI::IsMember set).
template <class Enum, size_t N>
std::vector<std::string> option_names(const OptionName<Enum> (&table)[N]) {
  std::vector<std::string> names;
  for (const OptionName<Enum>& o : table) names.push_back(o.name);
  return names;
}

// The names joined for a help text or a message: separator " | " gives "lit | texture | normals
// | depth"; `last` joins the last two instead ("auto, cpu or cuda"). With a `note`, the name of
// `noted` is followed by it in brackets: "auto (CUDA when a device exists) | cpu | cuda".
template <class Enum, size_t N>
std::string name_list(const OptionName<Enum> (&table)[N], std::string_view separator, std::string_view last, Enum noted,
                      const char* note) {
  std::string text;
  for (size_t i = 0; i < N; ++i) {
    if (i > 0) text += i + 1 == N ? last : separator;
    text += table[i].name;
    if (note && table[i].value == noted) text += std::string(" (") + note + ")";
  }
  return text;
}
template <class Enum, size_t N>
std::string name_list(const OptionName<Enum> (&table)[N], std::string_view separator, std::string_view last) {
  return name_list(table, separator, last, Enum{}, nullptr);
}
template <class Enum, size_t N>
std::string name_list(const OptionName<Enum> (&table)[N], std::string_view separator) {
  return name_list(table, separator, separator);
}
template <class Enum, size_t N>
std::string name_list(const OptionName<Enum> (&table)[N], std::string_view separator, Enum noted, const char* note) {
  return name_list(table, separator, separator, noted, note);
}

}  // namespace facet
