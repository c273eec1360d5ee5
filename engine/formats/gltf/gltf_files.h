// The files of a glTF model, checked before any parser sees them: the model file read whole under
// a size cap, a .glb's chunks checked against the file, the JSON's nesting bounded (tinygltf
// converts `extras` and `extensions` recursively: a file nested tens of thousands deep would
// overflow the stack), and every file the model names (buffers through tinygltf's file
// callbacks, images through gltf_materials.cpp) resolved inside the model's folder: never the
// working directory, never above the folder, never an absolute path or another URI scheme.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/scene/scene.h"

namespace tinygltf {
class TinyGLTF;
}

namespace facet {

// Deepest nesting of JSON arrays and objects accepted. glTF's own structure needs about 10 levels
// (a texture transform inside a material); the rest is for `extras` and `extensions`, whose real
// uses stay within a few dozen. tinygltf's recursion through 256 levels stays far inside the
// stack of any thread that loads (the 8 MiB of the main thread, TBB's 4 MiB), sanitizers included.
constexpr size_t kMaxJsonDepth = 256;
// Largest model file (.gltf or .glb): tinygltf takes the size as 32 bits, and a .glb's header
// states its length in 32 bits.
constexpr uint64_t kMaxModelFileBytes = UINT32_MAX;
// Largest external buffer file, read whole into memory: 4 times the buffers of a 100 M-triangle
// model with normals and texture coordinates (about 4.4 GB).
constexpr uint64_t kMaxBufferFileBytes = uint64_t(1) << 34;

// The bytes of the model file. GltfError when it is not a regular file, is empty or is larger
// than kMaxModelFileBytes.
std::string read_model_file(const std::string& path);

// Where the JSON text lies in a model file's bytes: all of a .gltf; for a .glb (`binary`), its
// JSON chunk, after the header and the chunk lengths are checked against the file (GltfError).
struct JsonSpan {
  size_t offset = 0, size = 0;
};
JsonSpan gltf_json_span(const std::string& bytes, bool binary);

// GltfError("JSON nested deeper than kMaxJsonDepth levels (at byte B)") when the brackets and
// braces outside strings nest deeper; one linear pass, no parsing. `file_offset` is added to B.
void check_json_depth(const char* text, size_t size, size_t file_offset);

// "%20" -> " " (RFC 3986 percent-encoding; the file name on disk is not encoded).
std::string percent_decode(const std::string& uri);

// The model's folder and the files in it that the model may name.
class GltfFolder {
 public:
  // `outside_folder`: resolve() also lets through absolute paths and ".." above the folder
  // (LoadOptions::read_outside_folder).
  GltfFolder(const std::string& model_path, bool outside_folder);
  GltfFolder(const GltfFolder&) = delete;
  GltfFolder& operator=(const GltfFolder&) = delete;

  // The path of the file that the (percent-decoded) relative reference `uri` names inside the
  // folder, with "." and ".." segments resolved; GltfError naming `what` and the URI when it is
  // empty, absolute, has a scheme (file:, http:, ...) or a NUL byte, or climbs above the folder.
  std::string resolve(const std::string& uri, const std::string& what) const;
  // The folder as tinygltf's base_dir: "" (the working directory), "/" or "a/b".
  const std::string& base() const { return m_base; }

  // Gives tinygltf file callbacks that read the model's buffers through resolve() alone, regular
  // files of at most kMaxBufferFileBytes: a buffer missing from the folder is never looked up in
  // the working directory (tinygltf's fallback). `reader` must not outlive this folder.
  void install(tinygltf::TinyGLTF& reader);
  // Why the callbacks refused a buffer file, or "" (tinygltf's own message says less).
  const std::string& refusal() const { return m_refusal; }

  // For the callbacks: whether `joined` (what tinygltf made of the folder and a buffer's URI) is a
  // regular file in the folder, with the URI and the file's path; records why not.
  bool approve(const std::string& joined, std::string* uri, std::string* path);
  void refuse(const std::string& why) {
    if (m_refusal.empty()) m_refusal = why;
  }
  // For the callbacks: the buffer file at `path` is about to be read (Scene::source_files).
  void note_read(const std::string& path) { add_source_file(m_files, path); }
  // The buffer files read, in order, stamped before reading.
  const std::vector<SourceFile>& files_read() const { return m_files; }

 private:
  std::string m_base;    // the folder as the model's path names it: "" (the working directory), "/", "a/b"
  std::string m_prefix;  // what tinygltf puts before a buffer's URI: m_base and a slash
  std::string m_refusal;
  std::vector<SourceFile> m_files;
  bool m_outside;
};

}  // namespace facet
