// MTL reading for tinyobjloader and the scene's materials and textures (see obj_materials.h).
#include "engine/obj_materials.h"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

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

MtlReader::MtlReader(std::string obj_path)
    : m_obj_path(std::move(obj_path)), m_obj_dir(parent_dir(m_obj_path)) {}

// Which materials of an MTL text give Kd themselves, in tinyobjloader's order (one material per
// named newmtl, the last one always). tinyobjloader substitutes 0.6 grey for a missing Kd when
// map_Kd is set; knowing it was missing lets the loader show the texture unscaled instead.
static std::vector<bool> materials_with_kd(const std::string& text) {
  std::vector<bool> has_kd(1, false);
  bool named = false;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    size_t p = line.find_first_not_of(" \t");
    if (p == std::string::npos) continue;
    const char* t = line.c_str() + p;
    if (std::strncmp(t, "newmtl", 6) == 0 && (t[6] == ' ' || t[6] == '\t')) {
      if (named) has_kd.push_back(false);
      named = clean_file_name(t + 7).size() > 0;
    } else if (t[0] == 'K' && t[1] == 'd' && (t[2] == ' ' || t[2] == '\t')) {
      has_kd.back() = true;
    }
  }
  return has_kd;
}

bool MtlReader::operator()(const std::string& mat_id, std::vector<tinyobj::material_t>* materials,
                           std::map<std::string, int>* mat_map, std::string* warn,
                           std::string* err) {
  std::string name = clean_file_name(mat_id);
  std::string path = join_path(m_obj_dir, name);
  std::ifstream file;
  if (is_regular_file(path)) file.open(path, std::ios::binary);
  if (!file.is_open()) {
    m_warnings.push_back(m_obj_path + ": material library '" + name + "' not found (looked for " +
                         path + ")");
    return false;
  }
  std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  size_t before = materials->size();
  std::istringstream in(text);
  std::string mtl_warn, mtl_err;
  tinyobj::LoadMtl(mat_map, materials, &in, &mtl_warn, &mtl_err);
  (void)warn;
  (void)err;  // LoadMtl's messages are about options we do not shade; not worth a warning
  std::vector<bool> has_kd = materials_with_kd(text);
  size_t added = materials->size() - before;
  for (size_t i = 0; i < added; ++i) {
    // tinyobjloader reads "usemtl NAME WITH SPACES" as its first word only, but keeps newmtl
    // names whole: let the first word find the material too, unless another owns that name.
    const std::string& full = (*materials)[before + i].name;
    size_t blank = full.find_first_of(" \t");
    if (blank != std::string::npos) mat_map->insert({full.substr(0, blank), (int)(before + i)});
    Source s;
    s.dir = parent_dir(path);
    s.has_kd = has_kd.size() == added ? (bool)has_kd[i] : true;
    m_sources.push_back(s);
  }
  m_loaded_any = true;
  return true;
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

int32_t build_materials(const std::string& obj_path,
                        const std::vector<tinyobj::material_t>& materials,
                        const MtlReader& reader, bool needs_default, Scene& scene,
                        const LoadOptions& options) {
  TextureCache cache;
  const auto& sources = reader.sources();
  for (size_t i = 0; i < materials.size(); ++i) {
    const tinyobj::material_t& m = materials[i];
    MtlReader::Source src = i < sources.size() ? sources[i] : MtlReader::Source{};
    Material out{};
    out.kd = {std::max(0.0f, finite_or(m.diffuse[0], 0.8f)),
              std::max(0.0f, finite_or(m.diffuse[1], 0.8f)),
              std::max(0.0f, finite_or(m.diffuse[2], 0.8f))};
    out.texture = -1;
    std::string tex = clean_file_name(m.diffuse_texname);
    if (!tex.empty()) {
      // A texture multiplied by a black or absent Kd would not show: use white instead.
      bool black = out.kd.x == 0 && out.kd.y == 0 && out.kd.z == 0;
      if (black || !src.has_kd) out.kd = {1, 1, 1};
      // Progress runs from 0.8 to 0.99 over the materials, half decoding, half mips.
      const float step = 0.19f / (float)materials.size();
      out.texture = texture_for(obj_path, m.name, tex, src.dir, scene, cache, options,
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
