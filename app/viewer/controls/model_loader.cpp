// The load-and-swap logic of the viewer: one background thread per load, results handed over under
// a mutex, installation on the render thread, which owns the Renderer.
#include "app/viewer/controls/model_loader.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <utility>

#include "engine/base/memory_policy.h"

namespace facet {

namespace {
// Free heap bytes above which a finished load hands memory back to the system: what a few-MB model
// leaves is kept for the next load; a huge model's gigabytes of scratch are not.
constexpr size_t kReturnFreedAtLeast = size_t(256) << 20;

double now_seconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}
}  // namespace

ModelLoader::ModelLoader(LoadFn load) : m_load(std::move(load)) {}

LoadedScene ModelLoader::load(const std::string& path, const LoadOptions& options) const {
  if (!m_load) return load_model_shared(path, options);
  LoadedScene loaded;
  loaded.scene = std::make_shared<const Scene>(m_load(path, options));
  return loaded;
}

ModelLoader::~ModelLoader() {
  m_cancel = true;  // the load stops at its next check
  if (m_thread.joinable()) m_thread.join();
}

void ModelLoader::request(const std::string& path) {
  if (m_thread.joinable()) {
    m_queued = path;
    return;
  }
  start(path);
}

void ModelLoader::request_dropped(const std::vector<std::string>& paths) {
  for (const std::string& p : paths)
    if (is_model_path(p)) return request(p);
  m_error = paths.empty() ? std::string("nothing was dropped")
                          : paths.front() + ": not a model file (" + model_extension_list() + ")";
}

void ModelLoader::reload() {
  if (!m_current_path.empty()) request(m_current_path);
}

void ModelLoader::cancel() {
  m_queued.clear();
  if (m_thread.joinable()) m_cancel = true;
}

void ModelLoader::start(const std::string& path) {
  m_done = false;
  m_progress = 0;
  m_cancel = false;
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_path = path;
    m_stage = "opening";
    m_status = LoadStatus{};
    m_result.reset();
    m_failure.clear();
  }
  m_started = now_seconds();
  // The previous model's cache write, when still running, is waited for on the new load's thread:
  // the frame loop goes on, and a reload of the same model finds the file whole.
  SceneCacheWrite previous = std::move(m_cache_write);
  if (previous.finished()) add_cache_warning(previous.join());
  m_thread = std::thread([this, path, previous = std::move(previous)]() mutable {
    const std::string failed = previous.join();
    if (!failed.empty()) std::fprintf(stderr, "warning: %s\n", failed.c_str());
    LoadOptions options;
    options.progress = [this](float fraction, const char* stage) {
      m_progress = fraction;
      std::lock_guard<std::mutex> lock(m_mutex);
      m_stage = stage ? stage : "";
    };
    options.status = [this](const LoadStatus& status) {
      std::lock_guard<std::mutex> lock(m_mutex);
      m_status = status;
    };
    options.cancel = &m_cancel;
    options.use_cache = m_use_cache;
    options.read_outside_folder = m_read_outside_folder;
    options.meshlets = m_grouping;
    LoadedScene loaded;
    std::string failure;
    try {
      loaded = load(path, options);
      if (loaded.scene->triangle_count() == 0) failure = path + ": the model has no triangles to show";
    } catch (const std::exception& e) {
      failure = e.what();
    } catch (...) {
      failure = path + ": unknown error while loading";
    }
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      if (failure.empty()) m_result = std::move(loaded.scene);
      m_result_write = std::move(loaded.cache_write);  // joined even when the model is refused
      m_failure = failure;
    }
    // The load's scratch, freed into the heap (memory_policy.h), back to the system, and only after
    // a load big enough to matter: before m_done, since poll joins this thread on the frame loop's.
    return_freed_memory(kReturnFreedAtLeast);
    m_done = true;
  });
}

void ModelLoader::add_cache_warning(const std::string& warning) {
  if (!warning.empty()) m_warnings.push_back(warning);
}

bool ModelLoader::poll(Renderer& renderer) {
  if (m_cache_write.finished()) add_cache_warning(m_cache_write.join());
  if (!m_thread.joinable()) {
    if (!m_queued.empty()) start(std::exchange(m_queued, std::string()));
    return false;
  }
  if (!m_done) return false;
  {
    // A loaded scene is uploaded on the next poll: this frame's panel can say so first.
    std::lock_guard<std::mutex> lock(m_mutex);
    if (m_result && std::string(m_status.stage) != "uploading") {
      m_stage = m_status.stage = "uploading";
      return false;
    }
  }
  m_thread.join();
  std::shared_ptr<const Scene> scene;
  std::string failure, path;
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    m_cache_write = std::move(m_result_write);
    scene = std::move(m_result);
    failure = m_failure;
    path = m_path;
  }
  bool installed = false;
  if (scene) {
    try {
      renderer.set_scene(scene);  // uploads; on failure the renderer keeps the previous scene
      m_current = scene;
      m_current_path = path;
      m_warnings = scene->warnings;
      m_error.clear();
      m_last_seconds = now_seconds() - m_started;
      ++m_installed;
      installed = true;
    } catch (const std::exception& e) {
      m_error = path + ": " + e.what();
    }
  } else {
    m_error = failure;
  }
  if (!m_queued.empty()) start(std::exchange(m_queued, std::string()));
  return installed;
}

void ModelLoader::finish(Renderer& renderer) {
  while (busy()) {
    poll(renderer);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

std::string ModelLoader::stage() const {
  std::lock_guard<std::mutex> lock(m_mutex);
  return m_stage;
}

LoadStatus ModelLoader::status() const {
  std::lock_guard<std::mutex> lock(m_mutex);
  return m_status;
}

std::string ModelLoader::loading_path() const {
  std::lock_guard<std::mutex> lock(m_mutex);
  return m_path;
}

}  // namespace facet
