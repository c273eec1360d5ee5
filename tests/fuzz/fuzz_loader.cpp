// The loader's fuzz target (libFuzzer; also built into facet_fuzz_replay, which replays saved
// inputs without libFuzzer). The input's first bytes pick the format:
//   "ply..."              the whole input is one PLY file (fuzz.ply): its magic is its own mark
//   "#--stl--\n" STL      what follows is one STL file (fuzz.stl), binary or ASCII
//   anything else         OBJ, as below
// An OBJ input is up to three files laid side by side in a private temp folder; every input is
// loaded with facet::load_model exactly as `facet render` would:
//
//   OBJ text
//   \n#--mtl--\n          optional: what follows is the MTL, written under the name of the OBJ's
//   MTL text               first `mtllib` (when that is a plain file name) or fuzz.mtl
//   \n#--tex--\n          optional: what follows is a texture, written under the name of the MTL's
//   texture bytes          first `map_Kd` (when that is a plain file name) or fuzz.png
//
// An input that starts with '{' or with the binary container's magic "glTF" is a glTF file
// instead, laid alone as fuzz.gltf or fuzz.glb (its buffers and images embedded).
//
// Loading must either succeed or throw facet::LoadError; anything else (a crash, a sanitizer
// report, another exception escaping, a hang, runaway memory) is a bug the fuzzer reports.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "engine/load/load_model.h"

namespace {

constexpr std::string_view kMtlMark = "\n#--mtl--\n";
constexpr std::string_view kTexMark = "\n#--tex--\n";
constexpr std::string_view kStlMark = "#--stl--\n";

// The private folder, made once per process and emptied after every input.
const std::string& work_dir() {
  static const std::string dir = [] {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/facet-fuzz-XXXXXX";
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    if (!mkdtemp(buf.data())) {
      std::perror("fuzz_loader: mkdtemp");
      std::abort();
    }
    std::string made(buf.data());
    std::atexit([] { rmdir(work_dir().c_str()); });
    return made;
  }();
  return dir;
}

// A name the harness may create: one plain file name, nothing that leaves the folder.
bool plain_name(std::string_view s) {
  if (s.empty() || s.size() > 64 || s[0] == '.') return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
          c == '.'))
      return false;
  return s != "fuzz.obj";
}

// The last blank-separated word of the first line that starts with `keyword` (map_Kd may carry
// options before the file name), or "" when there is none.
std::string_view first_argument(std::string_view text, std::string_view keyword) {
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    size_t p = line.find_first_not_of(" \t");
    if (p != std::string_view::npos && line.substr(p, keyword.size()) == keyword && line.size() > p + keyword.size() &&
        (line[p + keyword.size()] == ' ' || line[p + keyword.size()] == '\t')) {
      size_t last = line.find_last_not_of(" \t\r");
      size_t first = line.find_last_of(" \t", last);
      return line.substr(first + 1, last - first);
    }
    at = end + 1;
  }
  return {};
}

bool write_file(const std::string& path, std::string_view bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  return std::fclose(f) == 0 && ok;
}

// A loaded scene must be whole (design: "never a half-loaded scene"): every array the stages
// read has its stated size and every index points inside its array. A breach aborts, and the
// fuzzer reports it like a crash.
void check_whole(const facet::Scene& s) {
  auto fail = [](const char* what) {
    std::fprintf(stderr, "fuzz_loader: loaded scene is not whole: %s\n", what);
    std::abort();
  };
  size_t nv = s.positions.size(), nt = s.indices.size() / 3;
  if (nv == 0 || nt == 0) fail("no vertices or no triangles");
  if (s.indices.size() % 3) fail("index count is not a multiple of 3");
  for (uint32_t i : s.indices)
    if (i >= nv) fail("an index names no vertex");
  if (s.normals.size() != nv) fail("normals are not one per vertex");
  if (!s.colors.empty() && s.colors.size() != nv) fail("colours are neither absent nor one per vertex");
  if (!s.uvs.empty() && s.uvs.size() != nv) fail("uvs are neither absent nor one per vertex");
  if (!s.colors.empty() && s.colors.size() != nv) fail("colours are neither absent nor one per vertex");
  if (s.tri_material.size() != nt) fail("materials are not one per triangle");
  if (s.materials.empty() || s.material_names.size() != s.materials.size())
    fail("no materials, or names not parallel to them");
  for (uint32_t m : s.tri_material)
    if (m >= s.materials.size()) fail("a triangle names no material");
  for (const facet::Material& m : s.materials)
    if (m.texture < -1 || m.texture >= (int32_t)s.textures.size()) fail("a material names no texture");
  if (s.texture_paths.size() != s.textures.size()) fail("texture paths not parallel to textures");
  for (const facet::TextureDesc& t : s.textures) {
    if (t.width <= 0 || t.height <= 0 || t.levels <= 0) fail("a texture has no size");
    size_t texels = 0;
    for (int l = 0, w = t.width, h = t.height; l<t.levels; ++l, w = w> 1 ? w / 2 : 1, h = h > 1 ? h / 2 : 1)
      texels += (size_t)w * h;
    if ((size_t)t.offset + texels > s.texels.size()) fail("a texture's mip chain runs past the texels");
  }
  if (!(s.bounds.radius > 0)) fail("bounds not computed");
}

// "fuzz.glb", "fuzz.gltf" or "fuzz.obj", by the input's first bytes.
const char* main_name(std::string_view all) {
  if (all.substr(0, 4) == "glTF") return "fuzz.glb";
  size_t first = all.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && all[first] == '{' ? "fuzz.gltf" : "fuzz.obj";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view all(reinterpret_cast<const char*>(data), size);
  std::string_view obj = all, mtl, tex;
  std::string model = main_name(all);  // OBJ or glTF, by the first bytes
  if (all.substr(0, 3) == "ply") {
    model = "fuzz.ply";
  } else if (all.substr(0, kStlMark.size()) == kStlMark) {
    model = "fuzz.stl";
    obj = all.substr(kStlMark.size());
  }
  bool has_mtl = false, has_tex = false;
  if (model != "fuzz.obj") {
    // One file, no MTL or texture parts.
  } else if (size_t m = obj.find(kMtlMark); m != std::string_view::npos) {
    mtl = obj.substr(m + kMtlMark.size());
    obj = obj.substr(0, m);
    has_mtl = true;
    if (size_t t = mtl.find(kTexMark); t != std::string_view::npos) {
      tex = mtl.substr(t + kTexMark.size());
      mtl = mtl.substr(0, t);
      has_tex = true;
    }
  }

  const std::string& dir = work_dir();
  std::vector<std::string> written;
  auto lay = [&](std::string_view name, std::string_view bytes) {
    std::string path = dir + "/" + std::string(name);
    for (const std::string& w : written)
      if (w == path) return;  // the MTL and the texture asked for the same name: first one wins
    if (!write_file(path, bytes)) {
      std::perror(("fuzz_loader: cannot write " + path).c_str());
      std::abort();
    }
    written.push_back(path);
  };
  lay(model, obj);
  if (has_mtl) {
    std::string_view name = first_argument(obj, "mtllib");
    lay(plain_name(name) ? name : "fuzz.mtl", mtl);
  }
  if (has_tex) {
    std::string_view name = first_argument(mtl, "map_Kd");
    lay(plain_name(name) ? name : "fuzz.png", tex);
  }

  // FACET_FUZZ_VERBOSE=1 (for facet_fuzz_replay) says what became of each input.
  static const bool verbose = std::getenv("FACET_FUZZ_VERBOSE") != nullptr;
  try {
    facet::Scene scene = facet::load_model(dir + "/" + model);
    check_whole(scene);
    if (verbose) {
      std::printf("  loaded: %u triangles, %zu materials, %zu textures\n", scene.triangle_count(),
                  scene.materials.size(), scene.textures.size());
      for (const std::string& w : scene.warnings) std::printf("  warning: %s\n", w.c_str());
    }
  } catch (const facet::LoadError& e) {
    // Refused with a message: a correct answer to a bad file.
    if (verbose) std::printf("  refused: %s\n", e.what());
  }

  for (const std::string& w : written) unlink(w.c_str());
  return 0;
}
