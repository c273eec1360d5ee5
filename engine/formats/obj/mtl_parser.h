// Our own MTL reader: the text of one material library to a list of materials. MTL files are
// small, so it reads sequentially. It keeps the rules facet has always had (those of
// tinyobjloader 2.0): one material per named `newmtl`, the last one always (even unnamed);
// texture statements take options (-s, -o, -bm, ...) before a file name that runs to the end of
// the line; `d` wins over `Tr` (Tr is read as 1 - d). A colour given as one number is a grey, as
// the MTL specification says (tinyobjloader reads it as red). A colour or number statement whose values
// are not numbers, or out of range, is warned about as `PATH:LINE: problem` and read as
// tinyobjloader reads it (missing numbers are 0). It does not open files or load textures.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "kernels/frame/params.h"

namespace facet {

// What an MTL says about one material, as written (colours sRGB; obj_materials.h turns them into
// the scene's linear Material).
struct MtlMaterial {
  std::string name;
  Vec3 kd{0, 0, 0};                           // diffuse colour
  bool has_kd = false;                        // Kd was given (a map_Kd without it shows the texture unscaled)
  Vec3 ks{0, 0, 0};                           // specular colour
  bool has_ks = false;                        // Ks was given
  float ns = 1;                               // specular exponent
  Vec3 ka{0, 0, 0};                           // ambient colour
  bool has_ka = false;                        // Ka was given
  Vec3 ke{0, 0, 0};                           // emitted colour
  bool has_ke = false;                        // Ke was given
  float d = 1;                                // opacity (1 = opaque), from `d`, else 1 - `Tr`
  std::string map_kd, map_ks, map_ke, map_d;  // texture file names as written (options removed)
};

// Parses one MTL text. Never fails: unknown statements are read past; malformed values are
// appended to *warnings (when given) as "path:LINE: problem", the first 3 of each kind, then one
// count line a kind (format_messages.h).
std::vector<MtlMaterial> parse_mtl(const char* text, size_t size, const std::string& path = "<mtl>",
                                   std::vector<std::string>* warnings = nullptr);

}  // namespace facet
