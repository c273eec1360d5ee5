// Our own MTL reader: the text of one material library to a list of materials. MTL files are
// small, so it reads sequentially. It keeps the rules facet has always had (those of
// tinyobjloader 2.0): one material per named `newmtl`, the last one always (even unnamed);
// texture statements take options (-s, -o, -bm, ...) before a file name that runs to the end of
// the line; `d` wins over `Tr` (Tr is read as 1 - d). It does not open files or load textures.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "kernels/params.h"

namespace facet {

// What an MTL says about one material. facet shades Kd and map_Kd today; the rest is kept for
// specular, emission and transparency (issue 17) and is not used yet.
struct MtlMaterial {
  std::string name;
  Vec3 kd{0, 0, 0};     // diffuse colour
  bool has_kd = false;  // Kd was given (a map_Kd without it shows the texture unscaled)
  Vec3 ks{0, 0, 0};     // specular colour
  float ns = 1;         // specular exponent
  Vec3 ke{0, 0, 0};     // emitted colour
  float d = 1;          // opacity (1 = opaque), from `d`, else 1 - `Tr`
  std::string map_kd, map_ks, map_ke, map_d;  // texture file names as written (options removed)
};

// Parses one MTL text. Never fails: unknown statements are read past.
std::vector<MtlMaterial> parse_mtl(const char* text, size_t size);

}  // namespace facet
