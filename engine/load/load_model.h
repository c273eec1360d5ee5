// Loading a model: OBJ + MTL (our own parser, obj_loader.h) and textures (stb_image) into one
// flat Scene.
// A file is either loaded (with warnings for what was dropped or replaced) or refused with one
// LoadError whose message names the file and the problem. Never a half-loaded scene.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

#include "engine/load/head_start.h"
#include "engine/scene/scene.h"

namespace facet {

class LoadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The load was cancelled through LoadOptions::cancel ("PATH: cancelled").
class LoadCancelled : public LoadError {
 public:
  using LoadError::LoadError;
};

// A load's head start (LoadOptions::while_preparing).
using WhilePreparing = std::function<std::optional<bool>(const Scene&, HeadStart&)>;

// Where a load is, for a progress display (LoadOptions::status).
struct LoadStatus {
  const char* stage = "";        // "reading", "parsing", "preparing", "done"
  float fraction = 0;            // of the whole load, 0..1
  uint64_t bytes_done = 0;       // of the model file: read, or parsed (estimated from the
  uint64_t bytes_total = 0;      //   parser's progress fraction)
  uint64_t triangles_done = 0;   // triangles prepared (meshlets built)
  uint64_t triangles_total = 0;  // 0 until parsing has counted them
};

struct LoadOptions {
  // Called now and then with the fraction done (0..1) and what is being done; may be empty.
  std::function<void(float fraction, const char* stage)> progress;
  // Called at the same moments with the stage and the bytes and triangles done; may be empty.
  std::function<void(const LoadStatus&)> status;
  // Reuse and write the scene cache (load_pipeline.h). Off by default so that tests and library
  // users stay hermetic; facet's commands and viewer turn it on unless --no-cache.
  bool use_cache = false;
  std::string cache_dir;         // the cache's folder; empty: $XDG_CACHE_HOME/facet or ~/.cache/facet
  uint64_t cache_max_bytes = 0;  // the cache's size cap; 0: $FACET_CACHE_MAX_MB or 8 GiB
  // The meshlets to build for the renderer that will draw the scene (Renderer::meshlet_grouping).
  // A scene cache file serves when its meshlets do (meshlets_serve), else it is rebuilt.
  MeshletGrouping meshlets = MeshletGrouping::Auto;
  // When it becomes true (set from any thread), load_model stops at its next check and throws
  // LoadCancelled. May be null.
  const std::atomic<bool>* cancel = nullptr;
  // Called once, on a thread of its own, with a freshly loaded scene while its meshlets are built
  // (not for a scene read from the cache, which has them): every array but `meshlets` is final
  // and may be read, e.g. by Renderer::upload_ahead, but for the order of the triangles, which
  // the load may change in place once it has returned (triangle_renumber.h: `indices` and
  // `tri_material` keep their storage, and Scene::file_triangle then says what moved where). It
  // may decide the scene's closed-surface flag (closed_surface.h) where it sent the scene
  // (Renderer::closed_outward_ahead, on the GPU): what it returns becomes Scene::bounds.closed, and
  // only when it returns nothing does the load check on the CPU, after the meshlets. It may hand
  // the meshlet build the triangles' Morton order through the HeadStart
  // (Renderer::centroid_order_ahead): the build waits for an order promised. The load waits for
  // it before returning. What it throws is dropped: it is a head start, and what
  // it did not do is done later. May be empty.
  WhilePreparing while_preparing;
  // Read the files a model names (MTLs, textures, buffers, images) wherever they lie. Off: only
  // those inside the model's folder or below it, so that a model from elsewhere cannot make facet
  // read (and show) any other file the user can read; one outside is named in a warning
  // (kOutsideFolderHint) or, for a glTF buffer the geometry needs, a refusal.
  bool read_outside_folder = false;
};

// What a warning about a file outside the model's folder tells the user to do about it, and the
// help of the option that sets LoadOptions::read_outside_folder.
extern const char* const kOutsideFolderHint;
extern const char* const kReadOutsideFolderHelp;

// Throws LoadError("PATH: problem") when the file cannot be shown.
Scene load_model(const std::string& path, const LoadOptions& options = {});

}  // namespace facet
