// load_obj (see obj_loader.h), as named steps: map the file, parse its chunks, stitch them,
// triangulate, build the mesh, build the materials, then the warnings and the scene's bounds.
// The Scene is built in a local and returned only when complete. Every warning goes through one
// FormatWarnings (format_messages.h): a kind repeated for many names is given 3 times, then as a
// count, and names from the file are quoted.
#include "engine/formats/obj/obj_loader.h"

#include <atomic>
#include <cmath>
#include <cstdio>
#include <set>
#include <stdexcept>
#include <string>

#include "engine/base/background_release.h"
#include "engine/base/mapped_file.h"
#include "engine/base/parallel.h"
#include "engine/formats/format_messages.h"
#include "engine/formats/obj/obj_materials.h"
#include "engine/formats/obj/obj_mesh.h"
#include "engine/formats/obj/obj_stitch.h"
#include "engine/formats/obj/obj_triangulate.h"
#include "engine/scene/scene_finish.h"

namespace facet {

namespace {

using Progress = std::function<void(float, const char*)>;

// Triangles per parallel_for chunk of the material passes: enough that handing out chunks costs
// nothing, small enough to spread a 100 K-triangle model over the cores.
constexpr uint64_t kMaterialChunk = 1 << 16;

[[noreturn]] void refuse(const std::string& path, const std::string& what) { throw LoadError(path + ": " + what); }

// Steps 1-3: the file's text to a stitched model, refusing what cannot be shown. `shown`: the
// path as messages show it.
ObjModel parse_obj_file(const std::string& path, const std::string& shown, const Progress& progress) {
  progress(0.0f, "reading");
  MappedFile file(path);
  if (file.size() == 0) refuse(shown, "the file is empty");
  const unsigned char* u = (const unsigned char*)file.data();
  if (file.size() >= 2 && ((u[0] == 0xFF && u[1] == 0xFE) || (u[0] == 0xFE && u[1] == 0xFF)))
    refuse(shown, "UTF-16 text is not supported (save the file as UTF-8 or ASCII)");
  // A UTF-8 byte-order mark would otherwise glue itself to the first keyword.
  const size_t start = file.size() >= 3 && std::string(file.data(), 3) == "\xEF\xBB\xBF" ? 3 : 0;

  progress(0.05f, "parsing");
  std::vector<ObjChunk> chunks = parse_obj_text(file.data() + start, file.size() - start,
                                                [&](float done) { progress(0.05f + 0.35f * done, "parsing"); });
  progress(0.4f, "stitching");
  ObjModel model = stitch_obj_chunks(shown, std::move(chunks));
  if (model.faces == 0) {
    std::string what = "no triangles to show (" + std::to_string(model.counts.v) + " vertices, " +
                       std::to_string(model.point_statements) + " point and " + std::to_string(model.line_statements) +
                       " line statements";
    if (model.short_faces) what += ", " + std::to_string(model.short_faces) + " faces with fewer than 3 vertices";
    refuse(shown, what + ")");
  }
  // The text is unmapped here: chunks keep only what was parsed out of it.
  for (ObjChunk& c : model.chunks) c.begin = c.end = nullptr;
  return model;
}

// The polygons triangulate_obj_faces could not cut cleanly, in one warning (without the path).
std::string polygon_warning(const ObjModel& model) {
  char percent[32];
  std::snprintf(percent, sizeof percent, "%g %%", kFlatTolerance * 100);
  const uint64_t crossed = model.polygons_not_simple, warped = model.polygons_not_flat;
  std::string what = "of " + std::to_string(model.polygons) + " polygons";
  if (crossed)
    what += ", " + std::to_string(crossed) +
            (crossed == 1 ? " crosses or touches itself (not simple) and was cut as a fan from its first corner"
                          : " cross or touch themselves (not simple) and were cut as fans from their first corner");
  if (warped)
    what += ", " + std::to_string(warped) +
            (warped == 1 ? " is not flat (a corner lies off its best-fit plane by more than "
                         : " are not flat (corners lie off their best-fit planes by more than ") +
            percent +
            (warped == 1 ? " of its size) and was cut on that plane" : " of their size) and were cut on them");
  return what;
}

// Where a position was dropped for a coordinate that is no number at all ("0x", "1.#IND"), which
// "NaN or infinite" alone would misname: "" when every dropped position was a NaN or an infinity.
std::string not_number_note(const ObjModel& model) {
  if (!model.not_number_line) return "";
  return " (or a coordinate that is not a number: line " + std::to_string(model.not_number_line) + " has " +
         model.not_number_word + ")";
}

// What was dropped or replaced while building the mesh, in a fixed order: each a count already,
// one warning a kind.
void mesh_warnings(const ObjModel& model, const ObjMeshStats& stats, FormatWarnings& warnings) {
  if (stats.nonfinite_faces)
    warnings.add("faces with NaN or infinite vertex positions", "dropped " + std::to_string(stats.nonfinite_faces) +
                                                                    " faces with NaN or infinite vertex positions" +
                                                                    not_number_note(model));
  if (model.short_faces)
    warnings.add_at_line(
        "faces with fewer than 3 vertices", model.short_face_line,
        "ignored " + std::to_string(model.short_faces) + " faces with fewer than 3 vertices (the first is here)");
  if (model.polygons_not_simple || model.polygons_not_flat)
    warnings.add("polygons not cut cleanly", polygon_warning(model));
  if (stats.file_normals_ignored)
    warnings.add_at_line("normal indices pointing at no normal", model.bad_normal_line,
                         "normal index points at no normal; normals computed from the geometry instead");
  if (model.colored_vertices && model.colored_vertices < model.counts.v)
    warnings.add("vertex colours ignored", std::to_string(model.colored_vertices) + " of " +
                                               std::to_string(model.counts.v) +
                                               " vertices have a colour; vertex colours ignored");
}

// Texture coordinate and normal values that are NaN, infinite or no number at all (those read as 0
// by the parser): coordinates read as 0 too (a NaN would sample no texel), normals left to
// finish_scene, which computes those it cannot use; both said, with counts.
void nonfinite_attribute_warnings(ObjModel& model, FormatWarnings& warnings) {
  std::atomic<uint64_t> bad_vt{0}, bad_vn{0};
  auto pass = [&](std::vector<float>& values, size_t width, std::atomic<uint64_t>& bad, bool zero) {
    parallel_for(values.size() / width, kMaterialChunk, [&](uint64_t begin, uint64_t end, unsigned) {
      uint64_t n = 0;
      for (uint64_t i = begin; i < end; ++i) {
        for (size_t k = 0; k < width; ++k) {
          float& v = values[i * width + k];
          if (std::isfinite(v)) continue;
          ++n;
          if (zero) v = 0;
        }
      }
      bad += n;
    });
  };
  pass(model.texcoords, 2, bad_vt, true);
  pass(model.normals, 3, bad_vn, false);
  const uint64_t vt = bad_vt + model.texcoord_not_numbers, vn = bad_vn + model.normal_not_numbers;
  if (vt)
    warnings.add("texture coordinates that are NaN or infinite",
                 std::to_string(vt) + " texture coordinate values (of " + std::to_string(model.counts.vt) +
                     " vt statements) are NaN, infinite or not numbers; they read as 0");
  if (vn)
    warnings.add("normals that are NaN or infinite",
                 std::to_string(vn) + " normal values (of " + std::to_string(model.counts.vn) +
                     " vn statements) are NaN, infinite or not numbers: words that are no number read as 0, "
                     "normals that are not finite are computed from the geometry where they are used");
}

// `usemtl` names no loaded MTL defines, each once (a file may select one a million times), then
// counted: a file of a million different names gives four lines.
void unknown_material_warnings(const MaterialLibrary& library, FormatWarnings& warnings) {
  std::set<std::string> named;
  for (const std::string& name : library.unknown())
    if (named.insert(name).second)
      warnings.add("materials not defined in any loaded MTL",
                   "material " + quoted(name) + " is not defined in any loaded MTL; its faces use the default grey");
}

// Step 6: materials; faces with none, or with a name no MTL defined, get the default grey, which
// build_materials appends after the library's materials: at index `known`. One pass writes that
// index where it is needed, before the material exists.
void materials_step(const std::string& path, const MaterialLibrary& library, Scene& scene, FormatWarnings& warnings,
                    const LoadOptions& options) {
  std::atomic<bool> needs_default{false};
  const uint32_t known = (uint32_t)library.materials().size();
  parallel_for(scene.tri_material.size(), kMaterialChunk, [&](uint64_t begin, uint64_t end, unsigned) {
    bool any = false;
    for (uint64_t t = begin; t < end; ++t) {
      uint32_t& m = scene.tri_material[t];
      if (m < known) continue;  // kNoMaterial is above every index
      m = known;
      any = true;
    }
    if (any) needs_default.store(true, std::memory_order_relaxed);
  });
  unknown_material_warnings(library, warnings);
  // build_materials writes its warnings (textures that cannot be read, materials drawn opaque)
  // straight into the scene, one a texture: they are counted here with the others.
  std::vector<std::string> before;
  before.swap(scene.warnings);
  const int32_t fallback = build_materials(path, library, needs_default, scene, options);
  for (const std::string& w : scene.warnings) warnings.add_foreign(w);
  scene.warnings.swap(before);
  if (needs_default && fallback != (int32_t)known)
    throw std::logic_error(path + ": the default material landed at " + std::to_string(fallback) + ", not after the " +
                           std::to_string(known) + " from the MTL");
}

}  // namespace

Scene load_obj(const std::string& path, const LoadOptions& options) {
  const Progress progress = [&](float f, const char* stage) {
    if (options.progress) options.progress(f, stage);
  };
  const std::string shown = shown_path(path);  // the path in messages
  ObjModel model = parse_obj_file(path, shown, progress);
  MaterialLibrary library(path, options.read_outside_folder);
  assign_obj_materials(model, library);
  triangulate_obj_faces(model);

  progress(0.5f, "building");
  Scene scene;
  scene.source = path;
  FormatWarnings warnings(path);
  // Missing libraries and MTL problems, built by obj_materials and mtl_parser: escaped, cut short
  // and counted by form.
  for (const std::string& w : library.warnings()) warnings.add_foreign(w);
  nonfinite_attribute_warnings(model, warnings);
  ObjMeshStats stats = build_obj_mesh(shown, model, scene, progress);
  if (scene.indices.empty())
    refuse(shown, "no triangles left after dropping " + std::to_string(stats.nonfinite_faces) +
                      " faces with NaN or infinite vertex positions" + not_number_note(model));
  mesh_warnings(model, stats, warnings);
  // The parsed text's arrays, gigabytes for a huge model, freed while the load goes on (joined
  // when load_obj returns).
  BackgroundRelease release;
  release.release_object(model);

  progress(0.8f, "materials");
  materials_step(path, library, scene, warnings, options);
  warnings.finish(scene);
  progress(0.99f, "preparing");
  scene.bounds = compute_bounds(scene.positions);  // the closed-surface flag is the load's
  drop_repeated_warnings(scene);
  progress(1.0f, "done");
  return scene;
}

}  // namespace facet
