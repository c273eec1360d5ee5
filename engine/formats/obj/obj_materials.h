// Materials of an OBJ: the material libraries its `mtllib` statements name (read with our MTL
// parser, each remembering its folder, since texture paths are relative to their MTL), the
// lookup of `usemtl` names, and the step that turns them into the scene's materials (colours
// decoded from sRGB to linear; Kd, Ks/Ns, Ka, Ke, d and their maps), loading textures or a
// checker for those that cannot be read. Missing files and malformed values are warnings, never
// errors.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "engine/formats/obj/mtl_parser.h"
#include "engine/load/load_model.h"

namespace facet {

// The largest MTL file read: a material library is text of a few kilobytes per material, so
// anything near this is not one (a device, a misnamed model); reading stops there, never exhausts memory.
constexpr uint64_t kMaxMtlBytes = uint64_t(256) << 20;

class MaterialLibrary {
 public:
  // obj_path names the OBJ: mtllib paths are relative to its folder; warnings name it. Libraries
  // outside that folder are read only with `outside_folder` (LoadOptions::read_outside_folder).
  explicit MaterialLibrary(std::string obj_path, bool outside_folder = false);

  // One `mtllib` statement (the text after "mtllib "): names separated by spaces ('\' escapes
  // one); the first that loads is used, names loaded before count as loaded.
  void load(const std::string& statement);
  // The material a `usemtl NAME` selects, or -1 (recorded as unknown) when no loaded MTL has it.
  int32_t find(const std::string& name);

  struct Entry {
    MtlMaterial material;
    std::string dir;  // folder of the MTL it came from ("" = current folder)
  };
  const std::vector<Entry>& materials() const { return m_materials; }
  const std::vector<std::string>& warnings() const {
    return m_warnings;
  }                                                                      // missing libraries,
                                                                         //   malformed values
  const std::vector<std::string>& unknown() const { return m_unknown; }  // usemtl names, in order
  // Every MTL file looked for (Scene::source_files), read or not.
  const std::vector<SourceFile>& files() const { return m_files; }

 private:
  bool read_library(const std::string& name);

  std::string m_obj_path;
  std::string m_obj_dir;
  std::vector<Entry> m_materials;
  std::map<std::string, int32_t> m_by_name;  // the first material of a name wins
  std::vector<std::string> m_loaded;         // mtllib names read so far
  std::vector<std::string> m_warnings;
  std::vector<std::string> m_unknown;
  std::vector<SourceFile> m_files;
  bool m_outside_folder;
};

// Folder part of a path ("" when there is none), and a relative path joined onto a folder.
std::string parent_dir(const std::string& path);
std::string join_path(const std::string& dir, const std::string& rel);

// Fills scene.materials, material_names, textures (with mips) from the library's materials.
// Appends the default grey material (kDefaultGreyLinear) when needs_default (faces without one).
// Returns the index of that default material, or -1.
int32_t build_materials(const std::string& obj_path, const MaterialLibrary& library, bool needs_default, Scene& scene,
                        const LoadOptions& options);

}  // namespace facet
