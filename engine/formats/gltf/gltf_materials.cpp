// glTF materials and textures into the Scene (gltf_materials.h).
#include "engine/formats/gltf/gltf_materials.h"

#include <algorithm>
#include <cmath>

#include "engine/formats/gltf/gltf_accessors.h"
#include "engine/formats/gltf/gltf_files.h"
#include "engine/formats/gltf/gltf_messages.h"
#include "engine/formats/gltf/tinygltf_config.h"
#include "engine/scene/colour_space.h"
#include "engine/scene/texture_file.h"

namespace facet {

namespace {

// facet's material for primitives without one: the grey OBJ faces without a material get.
constexpr Vec3 kDefaultAlbedo{kDefaultGreyLinear, kDefaultGreyLinear, kDefaultGreyLinear};

float unit_or(double v, float fallback) { return std::isfinite(v) ? (float)std::max(v, 0.0) : fallback; }

}  // namespace

GltfMaterials::GltfMaterials(const tinygltf::Model& model, Scene& scene, const GltfFolder& folder,
                             GltfWarnings& warnings)
    : m_model(model), m_scene(scene), m_folder(folder), m_warnings(warnings) {}

uint32_t GltfMaterials::material(int index) {
  if (index < -1 || index >= (int)m_model.materials.size())  // gltf_check.cpp refuses these first
    throw GltfError("material " + std::to_string(index) + " does not exist (the file has " +
                    std::to_string(m_model.materials.size()) + ")");
  auto it = m_materials.find(index);
  if (it != m_materials.end()) return it->second;
  Material out{kDefaultAlbedo, -1};
  std::string name = "<default>";
  if (index >= 0) {
    const tinygltf::Material& m = m_model.materials[(size_t)index];
    name = m.name.empty() ? "material " + std::to_string(index) : m.name;
    // Messages name it by its index, and by its name quoted (the file's text, escaped).
    const std::string label = "material " + (m.name.empty() ? std::to_string(index) : quoted(m.name));
    const std::vector<double>& f = m.pbrMetallicRoughness.baseColorFactor;
    out.kd = f.size() >= 3 ? Vec3{unit_or(f[0], 1), unit_or(f[1], 1), unit_or(f[2], 1)} : Vec3{1, 1, 1};
    const tinygltf::TextureInfo& t = m.pbrMetallicRoughness.baseColorTexture;
    if (t.index >= 0) {
      if (t.texCoord != 0)
        m_warnings.add("materials on another texture coordinate set",
                       label + " samples its base colour with TEXCOORD_" + std::to_string(t.texCoord) +
                           "; facet reads TEXCOORD_0 only");
      out.texture = texture(t.index, label);
    }
    alpha_and_emission(m, label, out);
  }
  m_scene.materials.push_back(out);
  m_scene.material_names.push_back(name);
  uint32_t scene_index = (uint32_t)m_scene.materials.size() - 1;
  m_materials[index] = scene_index;
  return scene_index;
}

// glTF factors are linear already (its textures are sRGB, decoded when sampled). MASK's cut at
// alphaCutoff becomes the scene's cut at 0.5 by scaling the alpha: a x f / cutoff >= 1 is
// (a x f x 0.5 / cutoff) >= 0.5. BLEND is drawn cut at 0.5, with a warning, or, with no texture
// whose alpha varies the cut (a uniform alpha would cut all or nothing), opaque, as an MTL `d`
// without map_d is (obj_materials.cpp); OPAQUE ignores alpha.
void GltfMaterials::alpha_and_emission(const tinygltf::Material& m, const std::string& label, Material& out) {
  const std::vector<double>& f = m.pbrMetallicRoughness.baseColorFactor;
  const float alpha = f.size() >= 4 ? std::min(unit_or(f[3], 1), 1.0f) : 1.0f;
  if (m.alphaMode == "BLEND" && out.texture < 0) {
    if (alpha < 1.0f)
      m_warnings.add("materials blending by a uniform alpha",
                     label + " blends by a uniform alpha " + std::to_string(alpha) +
                         " without a texture; it is drawn opaque (facet draws alpha-tested cut-outs, not " +
                         "translucency)");
  } else if (m.alphaMode == "MASK" || m.alphaMode == "BLEND") {
    if (m.alphaMode == "BLEND")
      m_warnings.add("materials blending by alpha",
                     label + " blends by alpha; facet draws it as a cut-out at alpha 0.5");
    const double cutoff = m.alphaMode == "MASK" && std::isfinite(m.alphaCutoff) ? m.alphaCutoff : 0.5;
    if (cutoff > 0) {
      out.alpha = (float)(alpha * 0.5 / cutoff);
      out.alpha_texture = out.texture;  // the base colour's alpha channel
    }
  }
  const std::vector<double>& e = m.emissiveFactor;
  if (e.size() >= 3) out.ke = {unit_or(e[0], 0), unit_or(e[1], 0), unit_or(e[2], 0)};
  const bool glows = out.ke.x > 0 || out.ke.y > 0 || out.ke.z > 0;
  if (glows && m.emissiveTexture.index >= 0) out.emission_texture = texture(m.emissiveTexture.index, label);
}

int32_t GltfMaterials::texture(int texture_index, const std::string& material) {
  if (texture_index < 0 || (size_t)texture_index >= m_model.textures.size())  // gltf_check.cpp refuses these first
    throw GltfError(material + ": texture " + std::to_string(texture_index) + " does not exist (the file has " +
                    std::to_string(m_model.textures.size()) + ")");
  std::string what = "texture " + std::to_string(texture_index), why;
  const tinygltf::Texture& t = m_model.textures[(size_t)texture_index];
  // The frame's one wrap mode (RenderOptions::clamp_uv, repeat by default) applies to every
  // texture: say so when the file asks otherwise.
  if (t.sampler >= 0 && (size_t)t.sampler < m_model.samplers.size() && !m_warned_wrap) {
    const tinygltf::Sampler& s = m_model.samplers[(size_t)t.sampler];
    if (s.wrapS != TINYGLTF_TEXTURE_WRAP_REPEAT || s.wrapT != TINYGLTF_TEXTURE_WRAP_REPEAT) {
      m_warnings.add("samplers asking for clamped or mirrored wrapping",
                     "sampler " + std::to_string(t.sampler) +
                         " asks for clamped or mirrored wrapping; facet repeats every texture unless the frame "
                         "clamps them all (clamp_uv)");
      m_warned_wrap = true;
    }
  }
  const int32_t index = decode_image(t.source, &what, &why);
  if (index >= 0) return index;
  m_warnings.add("textures that cannot be read",
                 what + " of " + material + " cannot be loaded (" + why + "); showing a checker");
  if (m_checker < 0) m_checker = add_checker_texture(m_scene);
  return m_checker;
}

int32_t GltfMaterials::decode_image(int image_index, std::string* what, std::string* why) {
  auto cached = m_images.find(image_index);
  if (cached != m_images.end()) return cached->second;
  if (image_index == -1) {  // legal where an extension gives the image (KHR_texture_basisu, ...)
    *why = "it names no image facet reads";
    return -1;
  }
  if (image_index < 0 || (size_t)image_index >= m_model.images.size())  // gltf_check.cpp refuses these first
    throw GltfError(*what + ": image " + std::to_string(image_index) + " does not exist (the file has " +
                    std::to_string(m_model.images.size()) + ")");
  const tinygltf::Image& img = m_model.images[(size_t)image_index];
  TextureImage image;
  std::string source;
  bool ok;
  if (!img.image.empty()) {  // embedded (data URI or buffer view), kept as bytes by tinygltf
    source = "embedded image " + std::to_string(image_index);
    ok = decode_texture_memory(img.image.data(), img.image.size(), &image, why);
  } else if (!img.uri.empty() && img.uri.rfind("data:", 0) != 0) {
    source = m_folder.resolve(percent_decode(img.uri), "image " + std::to_string(image_index) + "'s URI");
    *what = "texture " + quoted(img.uri);
    add_source_file(m_scene.source_files, source);
    ok = read_texture_file(source, &image, why);
  } else {
    source = "image " + std::to_string(image_index);
    *why = "it has no data";
    ok = false;
  }
  int32_t index = -1;
  if (ok) {
    try {
      index = add_texture(m_scene, source, image.width, image.height, image.texels);
    } catch (const std::exception& e) {
      *why = e.what();
    }
  } else {
    *why = source + ": " + *why;
  }
  m_images[image_index] = index;
  return index;
}

}  // namespace facet
