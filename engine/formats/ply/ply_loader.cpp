// load_ply: map the file, parse the header (ply_header), check its counts against the file
// (ply_checks), decide what each property means (the layout), read the body (ply_body), warn about
// what was not read, move the arrays into a Scene and finish it (scene_finish).
#include "engine/formats/ply/ply_loader.h"

#include <cstdint>

#include "engine/base/mapped_file.h"
#include "engine/base/step_timing.h"
#include "engine/formats/format_messages.h"
#include "engine/formats/ply/ply_body.h"
#include "engine/formats/ply/ply_checks.h"
#include "engine/formats/ply/ply_header.h"
#include "engine/scene/scene_finish.h"

namespace facet {

namespace {

constexpr size_t kNone = SIZE_MAX;

size_t find_element(const PlyHeader& h, const char* name) {
  for (size_t i = 0; i < h.elements.size(); ++i)
    if (h.elements[i].name == name) return i;
  return kNone;
}

bool has_scalar(const PlyElement& e, const char* name) {
  for (const PlyProperty& p : e.properties)
    if (!p.is_list && p.name == name) return true;
  return false;
}

// Sets the roles of the named scalar properties of `e` when all of them are present.
bool assign_all(const PlyElement& e, std::vector<PlyRole>& roles,
                std::initializer_list<std::pair<const char*, PlyRole>> wanted) {
  std::vector<size_t> at;
  for (const auto& w : wanted) {
    size_t found = kNone;
    for (size_t pi = 0; pi < e.properties.size(); ++pi)
      if (!e.properties[pi].is_list && e.properties[pi].name == w.first) found = pi;
    if (found == kNone) return false;
    at.push_back(found);
  }
  size_t k = 0;
  for (const auto& w : wanted) roles[at[k++]] = w.second;
  return true;
}

PlyLayout make_layout(const std::string& path, const PlyHeader& h) {
  auto refuse = [&](const std::string& what) { throw LoadError(path + ": " + what); };
  PlyLayout layout;
  for (const PlyElement& e : h.elements) layout.roles.emplace_back(e.properties.size(), PlyRole::Skip);
  layout.vertex_element = find_element(h, "vertex");
  if (layout.vertex_element == kNone) refuse("no vertex element in the PLY header");
  const PlyElement& v = h.elements[layout.vertex_element];
  if (v.count > UINT32_MAX) refuse("too many vertices (" + std::to_string(v.count) + "; at most 2^32 - 1)");
  layout.face_element = find_element(h, "face");
  if (layout.face_element == kNone || h.elements[layout.face_element].count == 0)
    refuse("no triangles to show (" + std::to_string(v.count) + " vertices and no faces: a point cloud)");
  std::vector<PlyRole>& vr = layout.roles[layout.vertex_element];
  using R = PlyRole;
  if (!assign_all(v, vr, {{"x", R::X}, {"y", R::Y}, {"z", R::Z}}))
    for (const char* axis : {"x", "y", "z"})
      if (!has_scalar(v, axis))
        refuse("the vertex element lacks one of the properties x, y, z (it has no scalar " + std::string(axis) +
               "; line " + std::to_string(v.header_line) + ")");
  layout.has_normals = assign_all(v, vr, {{"nx", R::NX}, {"ny", R::NY}, {"nz", R::NZ}});
  layout.has_uvs = assign_all(v, vr, {{"u", R::U}, {"v", R::V}}) || assign_all(v, vr, {{"s", R::U}, {"t", R::V}}) ||
                   assign_all(v, vr, {{"texture_u", R::U}, {"texture_v", R::V}}) ||
                   assign_all(v, vr, {{"texture_s", R::U}, {"texture_t", R::V}});
  layout.has_colors = assign_all(v, vr, {{"red", R::Red}, {"green", R::Green}, {"blue", R::Blue}});
  if (layout.has_colors) assign_all(v, vr, {{"alpha", R::Alpha}});
  const PlyElement& f = h.elements[layout.face_element];
  bool has_indices = false;
  for (size_t pi = 0; pi < f.properties.size() && !has_indices; ++pi) {
    const PlyProperty& p = f.properties[pi];
    if (p.is_list && (p.name == "vertex_indices" || p.name == "vertex_index")) {
      if (!ply_type_is_integer(p.type))
        refuse("face list " + p.name + " (line " + std::to_string(p.header_line) + ") holds non-integer indices");
      layout.roles[layout.face_element][pi] = R::Indices;
      has_indices = true;
    }
  }
  if (!has_indices) refuse("the face element has no vertex_indices (or vertex_index) list");
  return layout;
}

}  // namespace

Scene load_ply(const std::string& path, const LoadOptions& options) {
  auto progress = [&](float f, const char* stage) {
    if (options.progress) options.progress(f, stage);
  };
  progress(0.0f, "reading");
  MappedFile file(path, true);
  const std::string shown = shown_path(path);  // the path in messages
  if (file.size() == 0) throw LoadError(shown + ": the file is empty");
  progress(0.05f, "checking");
  PlyHeader header = parse_ply_header(shown, file.data(), file.size());
  check_ply_counts_fit(shown, header, file.size());
  PlyLayout layout = make_layout(shown, header);
  check_ply_index_type(shown, header, layout);

  progress(0.1f, "parsing");
  PlyMesh mesh;
  StepTimer timer("ply");
  const size_t end = header.format == PlyFormat::Ascii
                         ? read_ply_ascii_body(shown, header, layout, file.data(), file.size(), mesh)
                         : read_ply_binary_body(shown, header, layout, file.data(), file.size(), mesh);
  timer.step("body");

  progress(0.5f, "building");
  const uint64_t faces = header.elements[layout.face_element].count;
  if (mesh.indices.empty())
    throw LoadError(shown + ": no triangles to show (" + std::to_string(mesh.positions.size()) + " vertices, " +
                    std::to_string(faces) + " faces, all with fewer than 3 vertices)");
  Scene scene;
  scene.source = path;
  FormatWarnings warnings(path);
  if (mesh.short_faces)
    warnings.add("faces with fewer than 3 vertices", "face " + std::to_string(mesh.first_short_face) + ": ignored " +
                                                         std::to_string(mesh.short_faces) +
                                                         " faces with fewer than 3 vertices (the first is here)");
  warn_ply_trailing_data(header, file.data(), file.size(), end, warnings);
  warnings.finish(scene);
  scene.positions = std::move(mesh.positions);
  scene.normals = std::move(mesh.normals);
  scene.uvs = std::move(mesh.uvs);
  scene.colors = std::move(mesh.colors);
  scene.indices = std::move(mesh.indices);
  finish_scene(scene, path);
  progress(1.0f, "done");
  return scene;
}

}  // namespace facet
