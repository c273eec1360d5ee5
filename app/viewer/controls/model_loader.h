// Loading models for the viewer without stopping the frame loop: a file is read on a background
// thread (with progress), then swapped in on the render thread. The model on screen stays until
// the new one is uploaded; a refused file, a cancelled load or a failed upload changes nothing
// but the error text.
// A first open's scene cache file is written behind (scene_cache_write.h): the model shows while
// it is written; the write is joined when it ends (its failure joins the model's warnings), or
// when the next load starts (on that load's thread), or at the loader's destruction.
// No GL here, so tests drive it with the CPU renderer.
#pragma once
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/cache/scene_cache_write.h"
#include "engine/formats/model_formats.h"
#include "engine/load/load_model.h"
#include "engine/render/renderer.h"

namespace facet {

class ModelLoader {
 public:
  using LoadFn = std::function<Scene(const std::string& path, const LoadOptions& options)>;
  explicit ModelLoader(LoadFn load = nullptr);  // nullptr: facet::load_model_shared
  ~ModelLoader();
  ModelLoader(const ModelLoader&) = delete;
  ModelLoader& operator=(const ModelLoader&) = delete;

  // Starts reading `path` in the background. While a load runs, the newest request waits its turn.
  void request(const std::string& path);
  // What the window's drop callback calls: the first model file among the paths (is_model_path,
  // engine/formats/model_formats.h), or an error naming
  // what was dropped when there is none.
  void request_dropped(const std::vector<std::string>& paths);
  // Reads the current model's file again (long-run tests).
  void reload();
  // Abandons the running load (at the loader's next check) and any queued request; the current
  // model stays.
  void cancel();
  // Whether loads go through the scene cache (LoadOptions::use_cache); off until set.
  void set_use_cache(bool on) { m_use_cache = on; }
  // Whether loads read files outside the model's folder (LoadOptions::read_outside_folder).
  void set_read_outside_folder(bool on) { m_read_outside_folder = on; }
  // The meshlets loads build (LoadOptions::meshlets): the renderer's, Renderer::meshlet_grouping.
  void set_meshlet_grouping(MeshletGrouping grouping) { m_grouping = grouping; }

  // Once per frame on the render thread: installs a finished load with renderer.set_scene (on
  // the poll after the one that finds it loaded, so that a frame shows the "uploading" stage).
  // Returns true when a new model became current.
  bool poll(Renderer& renderer);
  // Blocks until nothing is loading or queued, installing what finishes (scripted runs, tests).
  void finish(Renderer& renderer);

  bool busy() const { return m_thread.joinable() || !m_queued.empty(); }
  float progress() const { return m_progress.load(); }
  std::string stage() const;
  LoadStatus status() const;  // the running load's stage, bytes and triangles
  std::string loading_path() const;
  const std::string& error() const { return m_error; }                     // last failure; empty after a success
  const std::vector<std::string>& warnings() const { return m_warnings; }  // of the current model
  std::shared_ptr<const Scene> current() const { return m_current; }
  const std::string& current_path() const { return m_current_path; }
  double last_load_seconds() const { return m_last_seconds; }
  int models_installed() const { return m_installed; }
  // Whether a scene cache file is still being written (or its end not yet seen by poll).
  bool writing_cache() const { return m_cache_write.pending(); }

 private:
  void start(const std::string& path);
  LoadedScene load(const std::string& path, const LoadOptions& options) const;
  void add_cache_warning(const std::string& warning);  // a write's failure: the model's warnings

  LoadFn m_load;
  std::thread m_thread;
  std::atomic<bool> m_done{false};
  std::atomic<float> m_progress{0};
  std::atomic<bool> m_cancel{false};  // LoadOptions::cancel of the running load
  bool m_use_cache = false;
  bool m_read_outside_folder = false;
  MeshletGrouping m_grouping = MeshletGrouping::Auto;
  mutable std::mutex m_mutex;  // guards m_stage, m_status, m_result(_write), m_failure, m_path
  std::string m_stage, m_path, m_failure;
  LoadStatus m_status;
  std::shared_ptr<const Scene> m_result;
  SceneCacheWrite m_result_write;  // the finished load's cache write, handed to m_cache_write
  double m_started = 0;

  SceneCacheWrite m_cache_write;  // the installed (or last) load's; render thread only
  std::string m_queued;           // the newest request made while a load was running
  std::shared_ptr<const Scene> m_current;
  std::string m_current_path;
  std::string m_error;
  std::vector<std::string> m_warnings;
  double m_last_seconds = 0;
  int m_installed = 0;
};

}  // namespace facet
