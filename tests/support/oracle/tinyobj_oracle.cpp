// The differential tests' oracle (see tinyobj_oracle.h): OBJ loading through tinyobjloader,
// independent of facet's own parser. The steps: read the file at once, validate it (obj_scan), parse it with
// tinyobjloader (OBJ + MTL, triangulation), build the single indexed mesh (obj_mesh_tinyobj).
// Materials are kept by name only: no textures are loaded.
#include "tests/support/oracle/tinyobj_oracle.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <istream>
#include <set>
#include <streambuf>

#include "engine/scene/closed_surface.h"
#include "tests/support/oracle/mtl_reader_tinyobj.h"
#include "tests/support/oracle/obj_mesh_tinyobj.h"
#include "tests/support/oracle/obj_scan.h"

namespace facet::oracle {

namespace {

[[noreturn]] void refuse(const std::string& path, const std::string& what) { throw LoadError(path + ": " + what); }

std::string read_whole_file(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) refuse(path, std::strerror(errno));
  if (S_ISDIR(st.st_mode)) refuse(path, "is a directory, not an OBJ file");
  if (!S_ISREG(st.st_mode)) refuse(path, "not a regular file");
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) refuse(path, std::string("cannot open: ") + std::strerror(errno));
  std::string data;
  try {
    data.resize((size_t)st.st_size);
  } catch (const std::exception&) {
    ::close(fd);
    refuse(path, "too large to load (" + std::to_string(st.st_size) + " bytes)");
  }
  size_t got = 0;
  while (got < data.size()) {
    ssize_t n = ::read(fd, &data[got], data.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int e = errno;
      ::close(fd);
      refuse(path, std::string("cannot read: ") + std::strerror(e));
    }
    if (n == 0) break;  // the file shrank while we read it: parse what is there
    got += (size_t)n;
  }
  ::close(fd);
  data.resize(got);
  return data;
}

// tinyobjloader reads from an istream: this one reads the buffer in place, with no copy.
struct MemoryBuffer : std::streambuf {
  MemoryBuffer(const char* data, size_t size) {
    char* p = const_cast<char*>(data);  // only read through get area
    setg(p, p, p + size);
  }
};

// tinyobjloader's warnings for usemtl names no MTL defined, as "material 'x'" names.
std::vector<std::string> unknown_materials(const std::string& tinyobj_warn) {
  std::vector<std::string> names;
  const std::string open = "material [ '", close = "' ] not found";
  for (size_t p = tinyobj_warn.find(open); p != std::string::npos; p = tinyobj_warn.find(open, p + 1)) {
    size_t a = p + open.size();
    size_t b = tinyobj_warn.find(close, a);
    if (b == std::string::npos) break;
    names.push_back(tinyobj_warn.substr(a, b - a));
  }
  return names;
}

// The first line of tinyobjloader's error text, for a refusal it found and the scan did not.
std::string first_line(const std::string& s) {
  std::string line = s.substr(0, s.find('\n'));
  return line.empty() ? "cannot be parsed as OBJ" : line;
}

Scene load_unguarded(const std::string& path, const LoadOptions& options) {
  auto progress = [&](float f, const char* stage) {
    if (options.progress) options.progress(f, stage);
  };
  progress(0.0f, "reading");
  std::string data = read_whole_file(path);
  if (data.empty()) refuse(path, "the file is empty");
  // A UTF-8 byte-order mark would otherwise glue itself to the first keyword.
  size_t start = data.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;

  progress(0.05f, "checking");
  ObjScan scan = scan_obj(path, data.data() + start, data.size() - start);
  if (scan.face_count == 0) {
    std::string what = "no triangles to show (" + std::to_string(scan.v_count) + " vertices, " +
                       std::to_string(scan.point_count) + " point and " + std::to_string(scan.line_count) +
                       " line statements";
    if (scan.short_face_count)
      what += ", " + std::to_string(scan.short_face_count) + " faces with fewer than 3 vertices";
    refuse(path, what + ")");
  }

  // tinyobjloader converts `vw` joint ids to int unchecked (undefined behaviour for 1e20, inf or
  // nan; found by the fuzzer, tests/fuzz/regressions/). facet ignores skin weights: those lines
  // become comments before tinyobjloader reads the text.
  for (size_t offset : scan.skin_weight_offsets) data[start + offset] = '#';

  progress(0.1f, "parsing");
  tinyobj::attrib_t attrib;
  std::vector<tinyobj::shape_t> shapes;
  std::vector<tinyobj::material_t> materials;
  std::string warn, err;
  MtlReader mtl_reader(path);
  MemoryBuffer buffer(data.data() + start, data.size() - start);
  std::istream stream(&buffer);
  bool ok = tinyobj::LoadObj(&attrib, &shapes, &materials, &warn, &err, &stream, &mtl_reader,
                             /*triangulate=*/true, /*default_vcols_fallback=*/false);
  if (!ok) refuse(path, first_line(err));
  std::string().swap(data);  // the text is no longer needed: free it before the mesh grows

  progress(0.5f, "building");
  Scene scene;
  scene.source = path;
  for (const std::string& w : mtl_reader.warnings()) scene.warnings.push_back(w);
  ObjMeshStats stats = build_obj_mesh(path, attrib, shapes, scan, scene, progress);
  attrib = {};
  shapes.clear();
  progress(0.8f, "materials");

  if (scene.indices.empty())
    refuse(path, "no triangles left after dropping " + std::to_string(stats.nonfinite_faces) +
                     " faces with NaN or infinite vertex positions");
  if (stats.nonfinite_faces)
    scene.warnings.push_back(path + ": dropped " + std::to_string(stats.nonfinite_faces) +
                             " faces with NaN or infinite vertex positions");
  if (scan.short_face_count)
    scene.warnings.push_back(path + ":" + std::to_string(scan.short_face_line) + ": ignored " +
                             std::to_string(scan.short_face_count) +
                             " faces with fewer than 3 vertices (the first is here)");
  if (stats.file_normals_ignored)
    scene.warnings.push_back(path + ":" + std::to_string(scan.bad_normal_line) +
                             ": normal index points at no normal; normals computed from the "
                             "geometry instead");

  // Materials by name; faces with none, or with a name no MTL defined, get "<default>".
  for (const tinyobj::material_t& m : materials) scene.material_names.push_back(m.name);
  bool needs_default = false;
  for (uint32_t& m : scene.tri_material)
    if (m == kNoMaterial || m >= materials.size()) {
      m = (uint32_t)materials.size();
      needs_default = true;
    }
  if (needs_default) scene.material_names.push_back("<default>");
  for (const std::string& name : unknown_materials(warn))
    scene.warnings.push_back(path + ": material '" + name +
                             "' is not defined in any loaded MTL; its faces use the default grey");

  scene.bounds = compute_bounds(scene.positions);
  scene.bounds.closed = closed_outward(scene.positions, scene.indices);

  // The same warning from every usemtl line once is enough.
  std::set<std::string> seen;
  std::vector<std::string> unique;
  for (std::string& w : scene.warnings)
    if (seen.insert(w).second) unique.push_back(std::move(w));
  scene.warnings = std::move(unique);
  progress(1.0f, "done");
  return scene;
}

}  // namespace

Scene load_with_tinyobj(const std::string& path) {
  try {
    return load_unguarded(path, LoadOptions{});
  } catch (const LoadError&) {
    throw;
  } catch (const std::exception& e) {
    throw LoadError(path + ": " + e.what());
  }
}

}  // namespace facet::oracle
