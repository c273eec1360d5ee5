// Material libraries and the scene's materials and textures (see obj_materials.h).
#include "engine/obj_materials.h"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>

#include "engine/texture_file.h"

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

static bool is_regular_file(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

MaterialLibrary::MaterialLibrary(std::string obj_path)
    : m_obj_path(std::move(obj_path)), m_obj_dir(parent_dir(m_obj_path)) {}

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
  std::ifstream file;
  if (is_regular_file(path)) file.open(path, std::ios::binary);
  if (!file.is_open()) {
    m_warnings.push_back(m_obj_path + ": material library '" + name + "' not found (looked for " +
                         path + ")");
    return false;
  }
  std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  std::vector<MtlMaterial> read = parse_mtl(text.data(), text.size());
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

// Textures already in the scene by resolved path, and the one shared checker.
struct TextureCache {
  std::map<std::string, int32_t> by_path;
  int32_t checker = -1;
};

int32_t texture_for(const std::string& obj_path, const std::string& material_name,
                    const std::string& tex_name, const std::string& mtl_dir, Scene& scene,
                    TextureCache& cache, const LoadOptions& options, float fraction,
                    float fraction_step) {
  std::string path = join_path(mtl_dir, tex_name);
  // Exporters often write absolute paths of the author's machine: the file beside the MTL wins.
  if (!is_regular_file(path)) {
    std::string base = tex_name.substr(tex_name.find_last_of('/') + 1);
    std::string beside = join_path(mtl_dir, base);
    if (base != tex_name && is_regular_file(beside)) path = beside;
  }
  auto it = cache.by_path.find(path);
  if (it != cache.by_path.end()) return it->second;

  if (options.progress) options.progress(fraction, "textures");
  TextureImage image;
  std::string why;
  int32_t index = -1;
  if (read_texture_file(path, &image, &why)) {
    if (options.progress) options.progress(fraction + 0.5f * fraction_step, "mips");
    try {
      index = add_texture(scene, path, image.width, image.height, image.texels);
    } catch (const std::exception& e) {
      why = e.what();
    }
  }
  if (index < 0) {
    scene.warnings.push_back(obj_path + ": texture '" + tex_name + "' of material '" +
                             material_name + "' cannot be loaded (" + path + ": " + why +
                             "); showing a checker");
    if (cache.checker < 0) cache.checker = add_checker_texture(scene);
    index = cache.checker;
  }
  cache.by_path[path] = index;
  return index;
}

float finite_or(float v, float fallback) { return std::isfinite(v) ? v : fallback; }

}  // namespace

int32_t build_materials(const std::string& obj_path, const MaterialLibrary& library,
                        bool needs_default, Scene& scene, const LoadOptions& options) {
  TextureCache cache;
  const auto& materials = library.materials();
  for (size_t i = 0; i < materials.size(); ++i) {
    const MtlMaterial& m = materials[i].material;
    Material out{};
    out.kd = {std::max(0.0f, finite_or(m.kd.x, 0.8f)), std::max(0.0f, finite_or(m.kd.y, 0.8f)),
              std::max(0.0f, finite_or(m.kd.z, 0.8f))};
    out.texture = -1;
    std::string tex = clean_file_name(m.map_kd);
    if (!tex.empty()) {
      // A texture multiplied by a black or absent Kd would not show: use white instead.
      bool black = out.kd.x == 0 && out.kd.y == 0 && out.kd.z == 0;
      if (black || !m.has_kd) out.kd = {1, 1, 1};
      // Progress runs from 0.8 to 0.99 over the materials, half decoding, half mips.
      const float step = 0.19f / (float)materials.size();
      out.texture = texture_for(obj_path, m.name, tex, materials[i].dir, scene, cache, options,
                                0.8f + step * (float)i, step);
    }
    scene.materials.push_back(out);
    scene.material_names.push_back(m.name);
  }
  if (!needs_default) return -1;
  scene.materials.push_back(Material{{0.8f, 0.8f, 0.8f}, -1});
  scene.material_names.push_back("<default>");
  return (int32_t)scene.materials.size() - 1;
}

}  // namespace facet
