// A scene cache file (load_pipeline.h) written on a thread of its own while the caller goes on
// with the scene: a first open hands the prepared scene to the upload and the frame at once
// instead of after the write of a 100 M-triangle model's 4 GB file. The writer holds the
// scene through a shared_ptr<const Scene>, so nothing can change or free it under the write.
// Joining (join(), or the destructor) waits for the file, whole and renamed into place, or for
// its one warning: a process that joins before it exits never loses a cache or leaves half of one.
// Not here: what is written and where (scene_cache_files.h, scene_cache_format.h).
#pragma once
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "engine/load/load_model.h"
#include "engine/load/load_pipeline.h"

namespace facet {

// The scene cache write's thread is this much nicer than the process (Linux: per thread), so
// that on a machine with few cores the upload, frame and PNG it runs beside keep their share.
constexpr int kSceneCacheWriteNice = 10;

class SceneCacheWrite {
 public:
  SceneCacheWrite() = default;  // nothing to write
  // Runs `job` on a thread of its own, at kSceneCacheWriteNice; `job` returns the write's warning
  // ("" when the file was written), must not throw, and is destroyed (and with it what it holds,
  // the scene included) before the write counts as finished.
  explicit SceneCacheWrite(std::function<std::string()> job);
  SceneCacheWrite(SceneCacheWrite&&) noexcept = default;
  SceneCacheWrite& operator=(SceneCacheWrite&& other) noexcept;  // joins the write it had first
  SceneCacheWrite(const SceneCacheWrite&) = delete;
  SceneCacheWrite& operator=(const SceneCacheWrite&) = delete;
  ~SceneCacheWrite() { join(); }

  bool pending() const { return m_thread.joinable(); }  // started and not yet joined
  bool finished() const { return pending() && m_state->done.load(std::memory_order_acquire); }
  // Waits for the write; its warning ("PATH: scene cache not written (reason)..."), or "" when
  // the file was written or nothing was pending.
  std::string join();

 private:
  struct State {
    std::atomic<bool> done{false};
    std::string warning;  // set before done
  };
  std::unique_ptr<State> m_state;  // on the heap: the thread writes it while this object moves
  std::thread m_thread;
};

// A loaded scene, shared, and the cache write (if any) that still reads it.
struct LoadedScene {
  std::shared_ptr<const Scene> scene;
  SceneCacheWrite cache_write;  // pending only after a cache miss with options.use_cache
};

// run_load_pipeline (load_pipeline.h) with the store left to a SceneCacheWrite: the same scene, stages
// and cache reads; a cache problem found while looking is in scene->warnings as before, one met
// while writing is cache_write.join()'s.
LoadedScene run_load_pipeline_shared(const std::string& path, const LoadOptions& options, FreshLoad fresh);

// load_model (load_model.h) through run_load_pipeline_shared; defined in load_model.cpp beside load_model.
LoadedScene load_model_shared(const std::string& path, const LoadOptions& options = {});

}  // namespace facet
