// The materials of a glTF model as facet Materials: base-colour factor and base-colour texture
// (TEXCOORD_0), its alpha for alphaMode MASK (and BLEND, drawn as a cut-out), emissive factor and
// texture; textures decoded through texture_file.h, a checker and a warning for a texture that
// cannot be read (as for OBJ). Metallic, roughness and normal maps are not drawn.
#pragma once
#include <map>
#include <string>

#include "engine/scene/scene.h"

namespace tinygltf {
class Model;
struct Material;
}  // namespace tinygltf

namespace facet {

class GltfMaterials {
 public:
  // `path`: the glTF file (messages, and the folder external images are relative to).
  GltfMaterials(const std::string& path, const tinygltf::Model& model, Scene& scene);
  // The scene material for glTF material `index` (-1 or none: facet's default grey), added on
  // first use.
  uint32_t material(int index);

 private:
  int32_t texture(int texture_index, const std::string& material_name);
  // Alpha (cut-outs) and emission of glTF material `m` into `out`.
  void alpha_and_emission(const tinygltf::Material& m, const std::string& name, Material& out);
  int32_t decode_image(int image_index, std::string* what, std::string* why);

  std::string m_path, m_dir;
  const tinygltf::Model& m_model;
  Scene& m_scene;
  std::map<int, uint32_t> m_materials;  // glTF material -> scene material
  std::map<int, int32_t> m_images;      // glTF image -> scene texture
  int32_t m_checker = -1;
  bool m_warned_wrap = false;
};

}  // namespace facet
