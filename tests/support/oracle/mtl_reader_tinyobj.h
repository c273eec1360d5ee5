// An MTL reader handed to tinyobjloader (it records which folder each material came from), for
// the differential tests' oracle. It builds no scene materials.
#pragma once
#include <map>
#include <string>
#include <vector>

#include <tiny_obj_loader.h>

#include "engine/load/load_model.h"

namespace facet::oracle {

class MtlReader : public tinyobj::MaterialReader {
 public:
  // obj_path names the OBJ: mtllib paths are relative to its folder; warnings name it.
  explicit MtlReader(std::string obj_path);
  bool operator()(const std::string& mat_id, std::vector<tinyobj::material_t>* materials,
                  std::map<std::string, int>* mat_map, std::string* warn, std::string* err) override;

  struct Source {
    std::string dir;     // folder of the MTL the material came from ("" = current folder)
    bool has_kd = true;  // the MTL gave Kd explicitly
  };
  const std::vector<Source>& sources() const { return m_sources; }
  const std::vector<std::string>& warnings() const { return m_warnings; }
  bool loaded_any() const { return m_loaded_any; }

 private:
  std::string m_obj_path;
  std::string m_obj_dir;
  std::vector<Source> m_sources;  // parallel to tinyobjloader's materials
  std::vector<std::string> m_warnings;
  bool m_loaded_any = false;
};

}  // namespace facet::oracle
