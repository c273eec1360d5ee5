// Material libraries and the scene's materials and textures (see obj_materials.h).
#include "engine/formats/obj/obj_materials.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "engine/base/platform.h"
#include "engine/formats/format_messages.h"
#include "engine/formats/model_folder.h"
#include "engine/scene/colour_space.h"
#include "engine/scene/texture_file.h"

namespace facet {

std::string parent_dir(const std::string& path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return "";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string join_path(const std::string& dir, const std::string& rel) {
  if (rel.empty() || rel[0] == '/' || dir.empty()) return rel;
  return dir.back() == '/' ? dir + rel : dir + "/" + rel;
}

// Paths written on Windows: backslashes become '/', surrounding blanks go.
static std::string clean_file_name(std::string s) {
  std::replace(s.begin(), s.end(), '\\', '/');
  size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  size_t b = s.find_last_not_of(" \t\r\n");
  return s.substr(a, b - a + 1);
}

static bool is_regular_file(const std::string& path) { return platform::file_status(path).regular; }

MaterialLibrary::MaterialLibrary(std::string obj_path, bool outside_folder)
    : m_obj_path(std::move(obj_path)), m_obj_dir(parent_dir(m_obj_path)), m_outside_folder(outside_folder) {}

// Names split at spaces, '\' escaping the next character; the last (possibly empty) name is
// always kept, as facet has always read mtllib lines.
static std::vector<std::string> library_names(const std::string& s) {
  std::vector<std::string> names;
  std::string name;
  bool escaping = false;
  for (char c : s) {
    if (escaping) {
      escaping = false;
    } else if (c == '\\') {
      escaping = true;
      continue;
    } else if (c == ' ') {
      if (!name.empty()) names.push_back(name);
      name.clear();
      continue;
    }
    name += c;
  }
  names.push_back(name);
  return names;
}

void MaterialLibrary::load(const std::string& statement) {
  for (const std::string& name : library_names(statement)) {
    if (std::find(m_loaded.begin(), m_loaded.end(), name) != m_loaded.end()) return;
    if (read_library(name)) {
      m_loaded.push_back(name);
      return;
    }
  }
}

bool MaterialLibrary::read_library(const std::string& mtllib_name) {
  std::string name = clean_file_name(mtllib_name);
  std::string path = join_path(m_obj_dir, name);
  if (!m_outside_folder && !inside_model_folder(m_obj_dir, path)) {
    m_warnings.push_back(shown_path(m_obj_path) + ": material library " + quoted(name) +
                         " lies outside the model's folder; not read (" + kOutsideFolderHint + ")");
    return false;
  }
  add_source_file(m_files, path);  // looked for, found or not: one that appears makes a cached scene stale
  std::string text;
  const std::string why = platform::read_small_file(path, kMaxMtlBytes, text);
  if (!why.empty()) {
    const bool missing = !platform::file_status(path).exists;
    m_warnings.push_back(shown_path(m_obj_path) + ": material library " + quoted(name) +
                         (missing ? " not found (looked for " + shown_path(path) + ")"
                                  : " cannot be read (" + shown_path(path) + ": " + why + ")"));
    return false;
  }
  std::vector<std::string> problems;
  std::vector<MtlMaterial> read = parse_mtl(text.data(), text.size(), path, &problems);
  for (const std::string& p : problems)
    m_warnings.push_back(p + " (a material library of " + shown_path(m_obj_path) + ")");
  const size_t before = m_materials.size();
  for (MtlMaterial& m : read) {
    m_by_name.insert({m.name, (int32_t)m_materials.size()});
    m_materials.push_back({std::move(m), parent_dir(path)});
  }
  // "usemtl NAME WITH SPACES" selects by its first word: let that word find the material too,
  // unless another material owns that name.
  for (size_t i = before; i < m_materials.size(); ++i) {
    const std::string& full = m_materials[i].material.name;
    size_t blank = full.find_first_of(" \t");
    if (blank != std::string::npos) m_by_name.insert({full.substr(0, blank), (int32_t)i});
  }
  return true;
}

int32_t MaterialLibrary::find(const std::string& name) {
  auto it = m_by_name.find(name);
  if (it != m_by_name.end()) return it->second;
  m_unknown.push_back(name);
  return -1;
}

namespace {

// Textures already in the scene by resolved path (alpha maps converted from grey under a key of
// their own), and the one shared checker.
struct TextureCache {
  std::map<std::string, int32_t> by_path;
  int32_t checker = -1;
};

// An alpha map (map_d) whose image has no transparency in its alpha channel carries its opacity
// in its grey: that goes to the alpha channel, which is what cut-outs read.
void grey_to_alpha(TextureImage& image) {
  for (const Rgba8& t : image.texels)
    if (t.a != 255) return;
  for (Rgba8& t : image.texels) t.a = t.r;
}

// What texture_for needs to know about the material and the progress report.
struct TextureRequest {
  const std::string& material_name;
  const std::string& tex_name;
  const std::string& mtl_dir;
  bool alpha_map;  // map_d: grey_to_alpha
  float fraction, fraction_step;
};

int32_t texture_for(const std::string& obj_path, const TextureRequest& r, Scene& scene, TextureCache& cache,
                    const LoadOptions& options) {
  std::string path = join_path(r.mtl_dir, r.tex_name);
  const bool may_read = options.read_outside_folder || inside_model_folder(parent_dir(obj_path), path);
  if (may_read) add_source_file(scene.source_files, path);
  // Exporters often write absolute paths of the author's machine: the file beside the MTL wins.
  std::string why;
  if (!may_read || !is_regular_file(path)) {
    std::string base = r.tex_name.substr(r.tex_name.find_last_of('/') + 1);
    std::string beside = join_path(r.mtl_dir, base);
    if (base != r.tex_name) add_source_file(scene.source_files, beside);
    if (base != r.tex_name && is_regular_file(beside))
      path = beside;
    else if (!may_read)
      why = std::string("outside the model's folder; not read: ") + kOutsideFolderHint;
  }
  const std::string key = r.alpha_map ? path + "\n(alpha map)" : path;
  auto it = cache.by_path.find(key);
  if (it != cache.by_path.end()) return it->second;

  if (options.progress) options.progress(r.fraction, "textures");
  TextureImage image;
  int32_t index = -1;
  if (why.empty() && read_texture_file(path, &image, &why)) {
    if (r.alpha_map) grey_to_alpha(image);
    if (options.progress) options.progress(r.fraction + 0.5f * r.fraction_step, "mips");
    try {
      index = add_texture(scene, path, image.width, image.height, image.texels);
    } catch (const std::exception& e) {
      why = e.what();
    }
  }
  if (index < 0) {
    scene.warnings.push_back(shown_path(obj_path) + ": texture " + quoted(r.tex_name) + " of material " +
                             quoted(r.material_name) + " cannot be loaded (" + shown_path(path) + ": " + why +
                             "); showing a checker");
    if (cache.checker < 0) cache.checker = add_checker_texture(scene);
    index = cache.checker;
  }
  cache.by_path[key] = index;
  return index;
}

float finite_or(float v, float fallback) { return std::isfinite(v) ? v : fallback; }

// An MTL colour (sRGB, as written) in linear light; negative or non-finite channels read as
// `fallback`, 0 below.
Vec3 linear_colour(Vec3 c, float fallback) {
  return srgb_to_linear_exact(Vec3{std::max(0.0f, finite_or(c.x, fallback)), std::max(0.0f, finite_or(c.y, fallback)),
                                   std::max(0.0f, finite_or(c.z, fallback))});
}

bool is_black(Vec3 c) { return c.x == 0 && c.y == 0 && c.z == 0; }

// The scene material of an MTL material, its maps not yet loaded. A map whose colour is black
// or absent multiplies white instead (a texture times black would not show). Ka black or absent
// is white: exporters write `Ka 0 0 0` for "no ambient colour of its own", and the ambient share
// of light then shows the albedo as it always has.
Material scene_material(const MtlMaterial& m) {
  Material out;
  out.kd = linear_colour(m.kd, 0.8f);
  if (!clean_file_name(m.map_kd).empty() && (is_black(out.kd) || !m.has_kd)) out.kd = {1, 1, 1};
  out.ks = linear_colour(m.ks, 0.0f);
  if (!clean_file_name(m.map_ks).empty() && (is_black(out.ks) || !m.has_ks)) out.ks = {1, 1, 1};
  out.ns = std::round(std::clamp(finite_or(m.ns, 1.0f), 1.0f, (float)kMaxShininess));
  out.ka = linear_colour(m.ka, 0.0f);
  if (is_black(out.ka) || !m.has_ka) out.ka = {1, 1, 1};
  out.ke = linear_colour(m.ke, 0.0f);
  if (!clean_file_name(m.map_ke).empty() && (is_black(out.ke) || !m.has_ke)) out.ke = {1, 1, 1};
  out.alpha = std::clamp(finite_or(m.d, 1.0f), 0.0f, 1.0f);
  return out;
}

// facet draws alpha-tested cut-outs, not translucency: a uniform opacity (d or Tr below 1) with
// no alpha map to cut by would, below 0.5, make the whole surface vanish; it is drawn opaque,
// said once a file (the first such material, and how many more).
struct UniformAlphaWarning {
  std::string first;  // the first material's warning
  size_t others = 0;  // materials after it
  void opaque(const std::string& obj_path, const std::string& name, Material& out) {
    if (out.alpha_texture >= 0 || !(out.alpha < 1.0f)) return;
    if (first.empty()) {
      char d[32];
      std::snprintf(d, sizeof d, "%g", out.alpha);
      first = shown_path(obj_path) + ": material " + quoted(name) + ": d " + d +
              " without map_d is drawn opaque (facet draws alpha-tested cut-outs, not translucency)";
    } else {
      ++others;
    }
    out.alpha = 1.0f;
  }
  void report(Scene& scene) const {
    if (first.empty()) return;
    scene.warnings.push_back(others ? first + "; so are " + std::to_string(others) + " other materials" : first);
  }
};

}  // namespace

int32_t build_materials(const std::string& obj_path, const MaterialLibrary& library, bool needs_default, Scene& scene,
                        const LoadOptions& options) {
  // Stamped when they were read, before the textures they name.
  scene.source_files.insert(scene.source_files.end(), library.files().begin(), library.files().end());
  TextureCache cache;
  UniformAlphaWarning uniform_alpha;
  const auto& materials = library.materials();
  for (size_t i = 0; i < materials.size(); ++i) {
    const MtlMaterial& m = materials[i].material;
    Material out = scene_material(m);
    // Progress runs from 0.8 to 0.99 over the materials, half decoding, half mips.
    const float step = 0.19f / (float)materials.size();
    const struct {
      const std::string& name;
      int32_t Material::*index;
      bool alpha_map;
    } maps[] = {{m.map_kd, &Material::texture, false},
                {m.map_ks, &Material::specular_texture, false},
                {m.map_ke, &Material::emission_texture, false},
                {m.map_d, &Material::alpha_texture, true}};
    for (const auto& map : maps) {
      const std::string tex = clean_file_name(map.name);
      if (tex.empty()) continue;
      out.*map.index =
          texture_for(obj_path, {m.name, tex, materials[i].dir, map.alpha_map, 0.8f + step * (float)i, step}, scene,
                      cache, options);
    }
    uniform_alpha.opaque(obj_path, m.name, out);
    scene.materials.push_back(out);
    scene.material_names.push_back(m.name);
  }
  uniform_alpha.report(scene);
  if (!needs_default) return -1;
  scene.materials.push_back(Material{{kDefaultGreyLinear, kDefaultGreyLinear, kDefaultGreyLinear}, -1});
  scene.material_names.push_back("<default>");
  return (int32_t)scene.materials.size() - 1;
}

}  // namespace facet
