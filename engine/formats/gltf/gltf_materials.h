// The materials of a glTF model as facet Materials: base-colour factor and base-colour texture
// (TEXCOORD_0), its alpha for alphaMode MASK (and BLEND, drawn as a cut-out), emissive factor and
// texture; textures decoded through texture_file.h, a checker and a warning for a texture that
// cannot be read (as for OBJ). Metallic, roughness and normal maps are not drawn. An index that
// names no material, texture or image is refused (GltfError; gltf_check.h finds them first), and
// image files are read from the model's folder only (GltfFolder).
#pragma once
#include <map>
#include <string>

#include "engine/scene/scene.h"

namespace tinygltf {
class Model;
struct Material;
}  // namespace tinygltf

namespace facet {

class GltfFolder;
class GltfWarnings;

class GltfMaterials {
 public:
  // `folder` resolves external images; warnings go to `warnings`. All must outlive this object.
  GltfMaterials(const tinygltf::Model& model, Scene& scene, const GltfFolder& folder, GltfWarnings& warnings);
  // The scene material for glTF material `index` (-1: facet's default grey), added on first use;
  // GltfError for one that does not exist.
  uint32_t material(int index);

 private:
  // `material` names the material in messages ("material 2", "material 'skin'").
  int32_t texture(int texture_index, const std::string& material);
  // Alpha (cut-outs) and emission of glTF material `m` into `out`.
  void alpha_and_emission(const tinygltf::Material& m, const std::string& label, Material& out);
  int32_t decode_image(int image_index, std::string* what, std::string* why);

  const tinygltf::Model& m_model;
  Scene& m_scene;
  const GltfFolder& m_folder;
  GltfWarnings& m_warnings;
  std::map<int, uint32_t> m_materials;  // glTF material -> scene material
  std::map<int, int32_t> m_images;      // glTF image -> scene texture
  int32_t m_checker = -1;
  bool m_warned_wrap = false;
};

}  // namespace facet
