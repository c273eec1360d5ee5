// The places of glTF's JSON that hold indices and byte counts (gltf_json_places.h).
#include "engine/formats/gltf/gltf_json_places.h"

namespace facet {

// The places, by the top-level key they are under.
static const std::map<std::string, std::vector<Place>>& places() {
  static const std::map<std::string, std::vector<Place>> places = {
      {"scene", {{{"scene"}, "scenes"}}},
      {"scenes", {{{"scenes", "*", "nodes", "*"}, "nodes"}}},
      {"nodes",
       {{{"nodes", "*", "children", "*"}, "nodes"},
        {{"nodes", "*", "mesh"}, "meshes"},
        {{"nodes", "*", "skin"}, "skins"},
        {{"nodes", "*", "camera"}, "cameras"}}},
      {"meshes",
       {{{"meshes", "*", "primitives", "*", "attributes", "?"}, "accessors"},
        {{"meshes", "*", "primitives", "*", "indices"}, "accessors"},
        {{"meshes", "*", "primitives", "*", "material"}, "materials"},
        {{"meshes", "*", "primitives", "*", "targets", "*", "?"}, "accessors"}}},
      {"materials",
       {{{"materials", "*", "pbrMetallicRoughness", "baseColorTexture|metallicRoughnessTexture", "index"}, "textures"},
        {{"materials", "*", "normalTexture|occlusionTexture|emissiveTexture", "index"}, "textures"}}},
      {"textures", {{{"textures", "*", "sampler"}, "samplers"}, {{"textures", "*", "source"}, "images"}}},
      {"images", {{{"images", "*", "bufferView"}, "bufferViews"}}},
      {"accessors",
       {{{"accessors", "*", "bufferView"}, "bufferViews"},
        {{"accessors", "*", "sparse", "indices|values", "bufferView"}, "bufferViews"},
        {{"accessors", "*", "byteOffset|count"}},
        {{"accessors", "*", "sparse", "count"}},
        {{"accessors", "*", "sparse", "indices|values", "byteOffset"}}}},
      {"bufferViews",
       {{{"bufferViews", "*", "buffer"}, "buffers"}, {{"bufferViews", "*", "byteOffset|byteLength|byteStride"}}}},
      {"buffers", {{{"buffers", "*", "byteLength"}}}},
      {"skins",
       {{{"skins", "*", "inverseBindMatrices"}, "accessors"},
        {{"skins", "*", "skeleton"}, "nodes"},
        {{"skins", "*", "joints", "*"}, "nodes"}}},
      {"animations",
       {{{"animations", "*", "channels", "*", "sampler"}, "samplers", true},
        {{"animations", "*", "channels", "*", "target", "node"}, "nodes"},
        {{"animations", "*", "samplers", "*", "input|output"}, "accessors"}}},
  };
  return places;
}

// places() with each part split into its alternatives, once.
const std::map<std::string, std::vector<CompiledPlace>>& compiled_places() {
  static const std::map<std::string, std::vector<CompiledPlace>> compiled = [] {
    std::map<std::string, std::vector<CompiledPlace>> out;
    for (const auto& [top, list] : places())
      for (const Place& place : list) {
        CompiledPlace c{{}, &place};
        for (const std::string& text : place.parts) {
          Part part;
          part.element = text == "*";
          part.any = text == "?";
          for (size_t start = 0; !part.element && !part.any;) {
            const size_t bar = text.find('|', start);
            part.keys.push_back(text.substr(start, bar == std::string::npos ? std::string::npos : bar - start));
            if (bar == std::string::npos) break;
            start = bar + 1;
          }
          c.parts.push_back(std::move(part));
        }
        out[top].push_back(std::move(c));
      }
    return out;
  }();
  return compiled;
}

}  // namespace facet
