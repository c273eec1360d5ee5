// load_obj (see obj_loader.h), as named steps: map the file, parse its chunks, stitch them,
// triangulate, build the mesh, build the materials, then the warnings and the scene's bounds.
// The Scene is built in a local and returned only when complete.
#include "engine/formats/obj/obj_loader.h"

#include <atomic>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "engine/base/background_release.h"
#include "engine/base/mapped_file.h"
#include "engine/base/parallel.h"
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

// Steps 1-3: the file's text to a stitched model, refusing what cannot be shown.
ObjModel parse_obj_file(const std::string& path, const Progress& progress) {
  progress(0.0f, "reading");
  MappedFile file(path);
  if (file.size() == 0) refuse(path, "the file is empty");
  const unsigned char* u = (const unsigned char*)file.data();
  if (file.size() >= 2 && ((u[0] == 0xFF && u[1] == 0xFE) || (u[0] == 0xFE && u[1] == 0xFF)))
    refuse(path, "UTF-16 text is not supported (save the file as UTF-8 or ASCII)");
  // A UTF-8 byte-order mark would otherwise glue itself to the first keyword.
  const size_t start = file.size() >= 3 && std::string(file.data(), 3) == "\xEF\xBB\xBF" ? 3 : 0;

  progress(0.05f, "parsing");
  std::vector<ObjChunk> chunks = parse_obj_text(file.data() + start, file.size() - start,
                                                [&](float done) { progress(0.05f + 0.35f * done, "parsing"); });
  progress(0.4f, "stitching");
  ObjModel model = stitch_obj_chunks(path, std::move(chunks));
  if (model.faces == 0) {
    std::string what = "no triangles to show (" + std::to_string(model.counts.v) + " vertices, " +
                       std::to_string(model.point_statements) + " point and " + std::to_string(model.line_statements) +
                       " line statements";
    if (model.short_faces) what += ", " + std::to_string(model.short_faces) + " faces with fewer than 3 vertices";
    refuse(path, what + ")");
  }
  // The text is unmapped here: chunks keep only what was parsed out of it.
  for (ObjChunk& c : model.chunks) c.begin = c.end = nullptr;
  return model;
}

// The polygons triangulate_obj_faces could not cut cleanly, in one warning.
std::string polygon_warning(const std::string& path, const ObjModel& model) {
  char percent[32];
  std::snprintf(percent, sizeof percent, "%g %%", kFlatTolerance * 100);
  const uint64_t crossed = model.polygons_not_simple, warped = model.polygons_not_flat;
  std::string what = path + ": of " + std::to_string(model.polygons) + " polygons";
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

// What was dropped or replaced while building the mesh, in a fixed order.
void mesh_warnings(const std::string& path, const ObjModel& model, const ObjMeshStats& stats, Scene& scene) {
  if (stats.nonfinite_faces)
    scene.warnings.push_back(path + ": dropped " + std::to_string(stats.nonfinite_faces) +
                             " faces with NaN or infinite vertex positions");
  if (model.short_faces)
    scene.warnings.push_back(path + ":" + std::to_string(model.short_face_line) + ": ignored " +
                             std::to_string(model.short_faces) +
                             " faces with fewer than 3 vertices (the first is here)");
  if (model.polygons_not_simple || model.polygons_not_flat) scene.warnings.push_back(polygon_warning(path, model));
  if (stats.file_normals_ignored)
    scene.warnings.push_back(path + ":" + std::to_string(model.bad_normal_line) +
                             ": normal index points at no normal; normals computed from the "
                             "geometry instead");
}

// Step 6: materials; faces with none, or with a name no MTL defined, get the default grey, which
// build_materials appends after the library's materials: at index `known`. One pass writes that
// index where it is needed, before the material exists.
void materials_step(const std::string& path, const MaterialLibrary& library, Scene& scene, const LoadOptions& options) {
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
  for (const std::string& name : library.unknown())
    scene.warnings.push_back(path + ": material '" + name +
                             "' is not defined in any loaded MTL; its faces use the default grey");
  const int32_t fallback = build_materials(path, library, needs_default, scene, options);
  if (needs_default && fallback != (int32_t)known)
    throw std::logic_error(path + ": the default material landed at " + std::to_string(fallback) + ", not after the " +
                           std::to_string(known) + " from the MTL");
}

}  // namespace

Scene load_obj(const std::string& path, const LoadOptions& options) {
  const Progress progress = [&](float f, const char* stage) {
    if (options.progress) options.progress(f, stage);
  };
  ObjModel model = parse_obj_file(path, progress);
  MaterialLibrary library(path);
  assign_obj_materials(model, library);
  triangulate_obj_faces(model);

  progress(0.5f, "building");
  Scene scene;
  scene.source = path;
  scene.warnings = library.warnings();
  ObjMeshStats stats = build_obj_mesh(path, model, scene, progress);
  if (scene.indices.empty())
    refuse(path, "no triangles left after dropping " + std::to_string(stats.nonfinite_faces) +
                     " faces with NaN or infinite vertex positions");
  mesh_warnings(path, model, stats, scene);
  if (model.colored_vertices && model.colored_vertices < model.counts.v)
    scene.warnings.push_back(path + ": " + std::to_string(model.colored_vertices) + " of " +
                             std::to_string(model.counts.v) + " vertices have a colour; vertex colours ignored");
  // The parsed text's arrays, gigabytes for a huge model, freed while the load goes on (joined
  // when load_obj returns).
  BackgroundRelease release;
  release.release_object(model);

  progress(0.8f, "materials");
  materials_step(path, library, scene, options);
  progress(0.99f, "preparing");
  scene.bounds = compute_bounds(scene.positions);  // the closed-surface flag is the load's
  drop_repeated_warnings(scene);
  progress(1.0f, "done");
  return scene;
}

}  // namespace facet
