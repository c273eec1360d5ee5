// An MTL reader handed to tinyobjloader, for the differential tests' oracle (tinyobj_oracle.h).
#include "tests/support/oracle/mtl_reader_tinyobj.h"

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "engine/formats/obj/obj_materials.h"  // parent_dir, join_path

namespace facet::oracle {

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

MtlReader::MtlReader(std::string obj_path) : m_obj_path(std::move(obj_path)), m_obj_dir(parent_dir(m_obj_path)) {}

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
                           std::map<std::string, int>* mat_map, std::string* warn, std::string* err) {
  std::string name = clean_file_name(mat_id);
  std::string path = join_path(m_obj_dir, name);
  std::ifstream file;
  if (is_regular_file(path)) file.open(path, std::ios::binary);
  if (!file.is_open()) {
    m_warnings.push_back(m_obj_path + ": material library '" + name + "' not found (looked for " + path + ")");
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

}  // namespace facet::oracle
