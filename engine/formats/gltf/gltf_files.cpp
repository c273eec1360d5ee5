// The model file, its JSON's nesting, and the files it names (gltf_files.h).
#include "engine/formats/gltf/gltf_files.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "engine/base/platform.h"
#include "engine/formats/gltf/gltf_accessors.h"
#include "engine/formats/gltf/gltf_messages.h"
#include "engine/formats/gltf/tinygltf_config.h"
#include "engine/formats/model_folder.h"
#include "engine/load/load_model.h"

namespace facet {

namespace {

std::string str(uint64_t v) { return std::to_string(v); }

uint32_t u32_at(const std::string& b, size_t at) {
  uint32_t v = 0;
  std::memcpy(&v, b.data() + at, 4);  // the container is little-endian, as every host facet runs on
  return v;
}

struct FileCloser {
  std::FILE* f;
  ~FileCloser() {
    if (f) std::fclose(f);
  }
};

// Reads all `size` bytes of the open file into `out`; false when fewer come.
template <class Bytes>
bool read_all(std::FILE* f, uint64_t size, Bytes& out) {
  out.resize((size_t)size);
  return size == 0 || std::fread(&out[0], 1, (size_t)size, f) == size;
}

// A URI scheme (RFC 3986: a letter, then letters, digits, "+", "-" or ".", then ':') before any
// '/', or "".
std::string scheme_of(const std::string& uri) {
  if (uri.empty() || !std::isalpha((unsigned char)uri[0])) return "";
  for (size_t i = 1; i < uri.size(); ++i) {
    const char c = uri[i];
    if (c == ':') return uri.substr(0, i);
    if (!std::isalnum((unsigned char)c) && c != '+' && c != '-' && c != '.') return "";
  }
  return "";
}

// tinygltf's file callbacks (tinygltf::FsCallbacks), with the GltfFolder as user data.
bool buffer_file_exists(const std::string& joined, void* user) {
  std::string uri, path;
  return static_cast<GltfFolder*>(user)->approve(joined, &uri, &path);
}

std::string expand_nothing(const std::string& path, void*) { return path; }

bool read_buffer_file(std::vector<unsigned char>* out, std::string* err, const std::string& joined, void* user) {
  GltfFolder& folder = *static_cast<GltfFolder*>(user);
  std::string uri, path;
  if (!folder.approve(joined, &uri, &path)) return false;
  const std::string name = "the buffer file " + quoted(uri);
  folder.note_read(path);
  FileCloser file{platform::open_regular_file(path)};
  if (!file.f) {
    folder.refuse(name + " cannot be opened (" + std::strerror(errno) + ")");
    return false;
  }
  const platform::FileStatus st = platform::file_status(file.f);
  if (!st.exists || !st.regular) {
    folder.refuse(name + " is not a regular file");
    return false;
  }
  if (st.size > kMaxBufferFileBytes) {
    folder.refuse(name + " has " + str(st.size) + " bytes, more than facet reads (" + str(kMaxBufferFileBytes) + ")");
    return false;
  }
  if (!read_all(file.f, st.size, *out)) {
    folder.refuse(name + " cannot be read whole (" + str(st.size) + " bytes)");
    if (err) *err += "read error";
    return false;
  }
  return true;
}

bool write_nothing(std::string*, const std::string&, const std::vector<unsigned char>&, void*) { return false; }

}  // namespace

std::string read_model_file(const std::string& path) {
  platform::FileStatus st = platform::file_status(path);
  if (!st.exists) throw GltfError(st.error);
  if (!st.regular) throw GltfError(st.directory ? "is a directory, not a glTF file" : "not a regular file");
  FileCloser file{platform::open_regular_file(path)};
  if (!file.f) throw GltfError(std::string("cannot be opened (") + std::strerror(errno) + ")");
  st = platform::file_status(file.f);  // what is read is what was checked
  if (!st.exists || !st.regular) throw GltfError("not a regular file");
  if (st.size == 0) throw GltfError("is empty");
  if (st.size > kMaxModelFileBytes)
    throw GltfError("has " + str(st.size) + " bytes; facet reads glTF files of at most " + str(kMaxModelFileBytes) +
                    " bytes (4 GiB)");
  std::string bytes;
  if (!read_all(file.f, st.size, bytes)) throw GltfError("cannot be read whole (" + str(st.size) + " bytes)");
  return bytes;
}

JsonSpan gltf_json_span(const std::string& b, bool binary) {
  if (!binary) return {0, b.size()};
  // The header (magic, version, length) and the JSON chunk's length and type: 20 bytes.
  if (b.size() < 20 || b.compare(0, 4, "glTF") != 0)
    throw GltfError("not a binary glTF (.glb) file: no 20-byte header starting with 'glTF'");
  const uint64_t length = u32_at(b, 8), json = u32_at(b, 12);
  if (length > b.size())
    throw GltfError("the .glb header states " + str(length) + " bytes, the file has " + str(b.size()));
  if (20 + json > length)
    throw GltfError("the .glb JSON chunk (" + str(json) + " bytes from byte 20) runs past the stated length (" +
                    str(length) + " bytes)");
  // A second chunk (BIN): its 8-byte header and its data must lie inside the stated length too.
  // (tinygltf checks the data's length without the header's 8 bytes, and would read past the end.)
  const uint64_t bin = 20 + json;
  if (bin < length) {
    if (bin + 8 > length)
      throw GltfError("the .glb chunk header at byte " + str(bin) + " is cut off by the file's end");
    const uint64_t bin_length = u32_at(b, (size_t)bin);
    if (bin + 8 + bin_length > length)
      throw GltfError("the .glb chunk at byte " + str(bin) + " (" + str(bin_length) +
                      " bytes of data) runs past the stated length (" + str(length) + " bytes)");
  }
  return {20, (size_t)json};
}

void check_json_depth(const char* text, size_t size, size_t file_offset) {
  size_t depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < size; ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;  // the escaped character, a quote or a backslash included
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth)
        throw GltfError("JSON nested deeper than " + str(kMaxJsonDepth) + " levels (at byte " + str(file_offset + i) +
                        ")");
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
}

std::string percent_decode(const std::string& uri) {
  std::string out;
  for (size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size() && std::isxdigit((unsigned char)uri[i + 1]) &&
        std::isxdigit((unsigned char)uri[i + 2])) {
      out += (char)std::stoi(uri.substr(i + 1, 2), nullptr, 16);
      i += 2;
    } else {
      out += uri[i];
    }
  }
  return out;
}

GltfFolder::GltfFolder(const std::string& model_path, bool outside_folder) : m_outside(outside_folder) {
  // As tinygltf's GetBaseDir, but "/" for a model in the root folder (tinygltf would say "").
  const size_t slash = model_path.find_last_of('/');
  m_base = slash == std::string::npos ? "" : slash == 0 ? "/" : model_path.substr(0, slash);
  // As tinygltf's JoinPath(base, uri) puts it before the URI.
  m_prefix = m_base.empty() || m_base.back() == '/' ? m_base : m_base + "/";
}

std::string GltfFolder::resolve(const std::string& uri, const std::string& what) const {
  const auto refuse = [&](const std::string& why) { throw GltfError(what + " " + quoted(uri) + " " + why); };
  if (uri.empty()) refuse("is empty");
  if (uri.find('\0') != std::string::npos) refuse("holds a NUL byte");
  const std::string scheme = scheme_of(uri);
  if (!scheme.empty())
    refuse("is a " + quoted(scheme) + " URI; facet reads data: URIs and files in the model's folder, named by " +
           "relative paths");
  if (uri[0] == '/') {
    if (m_outside) return uri;
    refuse(std::string("is an absolute path; facet reads only files in the model's folder (") + kOutsideFolderHint +
           ")");
  }
  std::vector<std::string> segments;
  std::string up;  // the ".." above the folder that LoadOptions::read_outside_folder lets through
  size_t start = 0;
  while (start <= uri.size()) {
    size_t end = uri.find('/', start);
    if (end == std::string::npos) end = uri.size();
    const std::string seg = uri.substr(start, end - start);
    if (seg == ".." && segments.empty()) {
      if (!m_outside) refuse(std::string("leads outside the model's folder (") + kOutsideFolderHint + ")");
      up += "../";
    } else if (seg == "..") {
      segments.pop_back();
    } else if (!seg.empty() && seg != ".") {
      segments.push_back(seg);
    }
    start = end + 1;
  }
  if (segments.empty()) refuse("names the model's folder, not a file in it");
  std::string path = (m_base.empty() ? "./" : m_prefix) + up;  // (a model in the working directory: "./x.png")
  for (size_t i = 0; i < segments.size(); ++i) path += (i ? "/" : "") + segments[i];
  if (!m_outside && !inside_model_folder(m_base, path))
    refuse(std::string("leads outside the model's folder through a symbolic link (") + kOutsideFolderHint + ")");
  return path;
}

bool GltfFolder::approve(const std::string& joined, std::string* uri, std::string* path) {
  // tinygltf tries the model's folder, then the working directory ("./" + the URI): only the
  // first is the model's (when the folder is the working directory, both name the same file).
  if (joined.compare(0, m_prefix.size(), m_prefix) != 0) return false;
  *uri = joined.substr(m_prefix.size());
  try {
    *path = resolve(*uri, "the buffer URI");
  } catch (const GltfError& e) {
    refuse(e.what());
    return false;
  }
  const platform::FileStatus st = platform::file_status(*path);
  if (!st.exists || !st.regular) {
    refuse("the buffer file " + quoted(*uri) + " is not in the model's folder" +
           (st.exists ? " (not a regular file)" : " (" + st.error + ")"));
    return false;
  }
  return true;
}

void GltfFolder::install(tinygltf::TinyGLTF& reader) {
  tinygltf::FsCallbacks fs{};
  fs.FileExists = &buffer_file_exists;
  fs.ExpandFilePath = &expand_nothing;
  fs.ReadWholeFile = &read_buffer_file;
  fs.WriteWholeFile = &write_nothing;
  fs.user_data = this;
  reader.SetFsCallbacks(fs);
}

}  // namespace facet
