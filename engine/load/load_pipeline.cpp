// run_load_pipeline (load_pipeline.h) and run_load_pipeline_shared (scene_cache_write.h): cache lookup, the
// format's loader, meshlets, cache store (there and then, or on a SceneCacheWrite's thread), with
// cancellation and stage reports around them. Every cache problem becomes one warning in the
// scene; only the format's loader and cancellation can fail a load.
#include "engine/load/load_pipeline.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <system_error>
#include <thread>

#include "engine/base/mapped_file.h"
#include "engine/base/platform.h"
#include "engine/cache/scene_cache_files.h"
#include "engine/cache/scene_cache_write.h"
#include "engine/formats/format_messages.h"
#include "engine/meshlets/meshlets.h"
#include "engine/meshlets/triangle_renumber.h"
#include "engine/scene/closed_surface.h"

namespace facet {

const char* const kSceneCacheHelp =
    "Neither read nor write the scene cache: each model's prepared scene, kept in "
    "$XDG_CACHE_HOME/facet (default ~/.cache/facet), keyed by the size and mtime of the model and of every file its "
    "load read, at most "
    "$FACET_CACHE_MAX_MB MiB in all (default 8192), oldest files removed first";

namespace {

// Share of the progress bar the format's loader gets; preparing (meshlets) takes the rest.
constexpr float kParseShare = 0.8f;

void check_cancel(const std::string& path, const LoadOptions& options) {
  if (options.cancel && options.cancel->load(std::memory_order_relaxed)) throw LoadCancelled(path + ": cancelled");
}

// Passes the stages on to both of LoadOptions' callbacks, with the counts status wants.
class Reporter {
 public:
  Reporter(const LoadOptions& options, uint64_t bytes_total) : m_options(options) {
    m_status.bytes_total = bytes_total;
  }
  void operator()(float fraction, const char* stage) {
    if (m_options.progress) m_options.progress(fraction, stage);
    if (!m_options.status) return;
    m_status.fraction = fraction;
    m_status.stage = stage;
    m_options.status(m_status);
  }
  // The format's loader at `fraction` of its work, in its own words (`stage`).
  void parsing(float fraction, const char* stage) {
    if (m_options.progress) m_options.progress(fraction * kParseShare, stage);
    if (!m_options.status) return;
    const bool reading = std::strcmp(stage, "reading") == 0;
    m_status.stage = reading ? "reading" : "parsing";
    m_status.fraction = fraction * kParseShare;
    m_status.bytes_done = reading ? 0 : (uint64_t)(fraction * (double)m_status.bytes_total);
    m_options.status(m_status);
  }
  // Past parsing: the whole file is done, and `triangles_done` of the triangles prepared.
  void counts(uint64_t triangles_done, uint64_t triangles_total) {
    m_status.bytes_done = m_status.bytes_total;
    m_status.triangles_done = triangles_done;
    m_status.triangles_total = triangles_total;
  }

 private:
  const LoadOptions& m_options;
  LoadStatus m_status;
};

// One model's cache file, and what was wrong with it or with writing it.
class CacheEntry {
 public:
  CacheEntry(const std::string& path, const LoadOptions& options)
      : m_path(path),
        m_abs(absolute_path(path)),
        m_source(stamp_of(path)),
        m_dir(scene_cache_dir(options)),
        m_cap(scene_cache_cap(options)) {
    // Loads that may read outside the model's folder keep entries of their own: they read other files.
    if (!m_abs.empty()) m_file = cache_file_path(m_dir, options.read_outside_folder ? m_abs + "\n(outside)" : m_abs);
  }
  bool usable() const { return !m_file.empty() && m_source.mtime_ns >= 0; }

  // The cached scene, or nothing (with a warning when a file was there but could not be used).
  std::optional<Scene> lookup(std::vector<std::string>& notes) {
    try {
      if (!platform::file_status(m_file).exists) return std::nullopt;  // not written yet
      MappedFile file(m_file, true);  // read ahead whole: every core copies a part of it
      const SceneCacheHeader h = read_scene_cache_header(file.bytes(), file.size());
      if (h.source_size != m_source.size || h.source_mtime_ns != m_source.mtime_ns)
        throw CacheFormatError("the model changed since it was written");
      SceneCacheContents c = read_scene_cache(file.bytes(), file.size());
      if (c.source_path != m_abs) throw CacheFormatError("written for " + c.source_path);
      for (const SourceFile& d : c.depends) {
        const FileStamp now = stamp_of(d.path);
        if (now.size != d.size || now.mtime_ns != d.mtime_ns)
          throw CacheFormatError(shown_path(d.path) +
                                 (!d.exists()        ? " appeared"
                                  : now.mtime_ns < 0 ? " is gone"
                                                     : " changed") +
                                 " since it was written");
      }
      touch_cache_file(m_file);
      c.scene.source = m_path;
      c.scene.source_files = {SourceFile{m_abs, m_source.size, m_source.mtime_ns}};
      c.scene.source_files.insert(c.scene.source_files.end(), c.depends.begin(), c.depends.end());
      return std::move(c.scene);
    } catch (const std::exception& e) {
      notes.push_back(shown_path(m_path) + ": scene cache " + shown_path(m_file) + " ignored (" +
                      safe_line(e.what(), kMaxForeignMessageBytes) + "); rebuilt");
      return std::nullopt;
    }
  }

  // Writes `scene` (`warnings` stored as its warnings) and evicts to the cap; the warning when
  // it could not, else "". Never throws: the writer thread calls it too.
  std::string store(const Scene& scene, const std::vector<std::string>& warnings) const {
    try {
      const uint64_t bytes = scene.byte_size() + scene.meshlets->byte_size();
      if (bytes > m_cap)
        return shown_path(m_path) + ": not cached: its " + std::to_string(bytes >> 20) +
               " MiB exceed the cache's cap of " + std::to_string(m_cap >> 20) + " MiB (" + kSceneCacheCapVariable +
               ")";
      make_dirs(m_dir);
      // The model is the key; every other file the load read or looked for is a dependency.
      const std::vector<SourceFile> depends(scene.source_files.begin() + (scene.source_files.empty() ? 0 : 1),
                                            scene.source_files.end());
      write_cache_file(m_file, scene, warnings, m_abs, depends, m_source);
      evict_cache_files(m_dir, m_cap, m_file);
      return {};
    } catch (const std::exception& e) {
      return shown_path(m_path) + ": scene cache not written (" + safe_line(e.what(), kMaxForeignMessageBytes) +
             "); loading goes on";
    }
  }

 private:
  std::string m_path, m_abs;
  FileStamp m_source;
  std::string m_dir, m_file;
  uint64_t m_cap;
};

// The meshlets the renderer draws the scene from, built once here rather than in set_scene.
// `order`: the head start's Morton order, if it gives one (HeadStart::take_order). The scene is
// only read: the head start may still be reading it too.
Meshlets prepare_meshlets(const Scene& scene, const std::string& path, const LoadOptions& options, Reporter& report,
                          HeadStart* order) {
  check_cancel(path, options);
  const uint64_t total = scene.triangle_count();
  report.counts(0, total);
  report(kParseShare, "preparing");
  MeshletBuildHooks hooks;
  hooks.cancel = options.cancel;
  hooks.grouping = options.meshlets;
  if (order) hooks.centroid_order = [order](const Scene&) { return order->take_order(); };
  // Runs, then (for scans) patches: the bar moves through both.
  hooks.progress = [&](uint64_t grouped) {
    report.counts(grouped, total);
    report(kParseShare + (1.0f - kParseShare) * (float)grouped / (float)total, "preparing");
  };
  Meshlets built = build_meshlets_with(scene, hooks);
  check_cancel(path, options);  // a cancelled build is incomplete: never kept
  report.counts(scene.triangle_count(), scene.triangle_count());
  return built;
}

// LoadOptions::while_preparing on a thread of its own, from construction to closed() or
// destruction: the scene's arrays stay where they are and, but for the meshlets, unchanged while
// it runs. What it hands the meshlet build goes through head_start().
class AlongsidePreparing {
 public:
  AlongsidePreparing(const WhilePreparing& work, const Scene& scene) {
    if (!work) return;
    try {
      m_thread = std::thread([this, &work, &scene] {
        try {
          m_closed = work(scene, m_head);
        } catch (...) {  // a head start only: whatever it left undone is done after the load
        }
        m_head.finish();
      });
    } catch (const std::system_error&) {  // no thread to spare: no head start
      m_head.finish();
    }
  }
  ~AlongsidePreparing() { join(); }
  AlongsidePreparing(const AlongsidePreparing&) = delete;
  AlongsidePreparing& operator=(const AlongsidePreparing&) = delete;
  // Waits for the work; the closed-surface flag it decided, if it did.
  std::optional<bool> closed() {
    join();
    return m_closed;
  }
  // Null without a head start.
  HeadStart* head_start() { return m_thread.joinable() ? &m_head : nullptr; }

 private:
  void join() {
    if (m_thread.joinable()) m_thread.join();
  }
  std::optional<bool> m_closed;
  HeadStart m_head;  // before the thread, which uses it
  std::thread m_thread;
};

// The closed-surface flag on the CPU (closed_surface.h), about the bounds the loader found.
void check_closed(Scene& scene) {
  scene.bounds.closed = closed_outward(scene.positions, scene.indices, scene.bounds.center);
}

}  // namespace

std::string scene_cache_dir(const LoadOptions& options) {
  if (!options.cache_dir.empty()) return options.cache_dir;
  return platform::user_cache_dir() + "/facet";
}

uint64_t scene_cache_cap(const LoadOptions& options) {
  if (options.cache_max_bytes) return options.cache_max_bytes;
  if (const char* mb = std::getenv(kSceneCacheCapVariable)) {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(mb, &end, 10);
    if (end != mb && *end == '\0') return (uint64_t)v << 20;
  }
  return kDefaultSceneCacheCap;
}

namespace {

// Scene::source_files of a scene read from `path`: the model (stamped before the load read it),
// then what the format's reader recorded.
void put_model_first(Scene& scene, std::vector<SourceFile> model) {
  for (SourceFile& f : scene.source_files)
    if (f.path != model.front().path) model.push_back(std::move(f));
  scene.source_files = std::move(model);
}

// A load up to the store: a cache hit, or a fresh prepared scene and the entry it belongs in.
struct Unstored {
  Scene scene;
  std::unique_ptr<CacheEntry> store_in;  // null: a hit, or the cache off
  std::vector<std::string> notes;        // what was wrong with the cache file found
};

Unstored load_unstored(const std::string& path, const LoadOptions& options, FreshLoad fresh, Reporter& report) {
  Unstored out;
  std::unique_ptr<CacheEntry> entry;
  if (options.use_cache) {
    entry = std::make_unique<CacheEntry>(path, options);
    if (!entry->usable()) entry.reset();  // no such file: the loader says so
  }
  if (entry) {
    report(0.0f, "reading");
    std::optional<Scene> hit = entry->lookup(out.notes);
    // Meshlets grouped for another renderer that do not serve this one: rebuilt, without a
    // warning (nothing is wrong with the file), and the new file replaces it.
    if (hit && meshlets_serve(*hit->meshlets, *hit, options.meshlets)) {
      report.counts(hit->triangle_count(), hit->triangle_count());
      out.scene = std::move(*hit);
      return out;
    }
  }
  LoadOptions inner = options;  // every progress report of the loader is a cancellation point
  inner.status = nullptr;
  inner.progress = [&](float fraction, const char* stage) {
    check_cancel(path, options);
    if (std::strcmp(stage, "done") != 0) report.parsing(fraction, stage);  // preparing follows
  };
  std::vector<SourceFile> model;
  add_source_file(model, path);
  out.scene = fresh(path, inner);
  put_model_first(out.scene, std::move(model));
  try {
    // Without a head start the CPU checks before the meshlets (each step takes every core); with
    // one, the check may go to the GPU while the CPU builds the meshlets.
    if (!options.while_preparing) {
      report(kParseShare, "preparing");  // the stage the check counts in, before the meshlets
      check_closed(out.scene);
    }
    AlongsidePreparing alongside(options.while_preparing, out.scene);  // joined on every way out
    Meshlets built = prepare_meshlets(out.scene, path, options, report, alongside.head_start());
    if (options.while_preparing) {
      if (std::optional<bool> closed = alongside.closed())
        out.scene.bounds.closed = *closed;
      else
        check_closed(out.scene);
    }
    // Once the head start has stopped reading the scene's arrays.
    keep_meshlets_in_slot_order(out.scene, std::move(built));
  } catch (const std::bad_alloc&) {
    throw LoadError(path + ": out of memory while preparing the scene");
  }
  out.store_in = std::move(entry);
  return out;
}

uint64_t model_bytes(const std::string& path) {
  const FileStamp source = stamp_of(path);
  return source.mtime_ns >= 0 ? source.size : 0;
}

}  // namespace

Scene run_load_pipeline(const std::string& path, const LoadOptions& options, FreshLoad fresh) {
  check_cancel(path, options);
  Reporter report(options, model_bytes(path));
  Unstored u = load_unstored(path, options, fresh, report);
  if (u.store_in) {
    std::string failed = u.store_in->store(u.scene, u.scene.warnings);
    if (!failed.empty()) u.notes.push_back(std::move(failed));
  }
  // One warning about the cache at most: a folder that cannot be read cannot be written either.
  if (!u.notes.empty()) u.scene.warnings.push_back(std::move(u.notes.front()));
  report(1.0f, "done");
  return std::move(u.scene);
}

LoadedScene run_load_pipeline_shared(const std::string& path, const LoadOptions& options, FreshLoad fresh) {
  check_cancel(path, options);
  Reporter report(options, model_bytes(path));
  Unstored u = load_unstored(path, options, fresh, report);
  std::vector<std::string> stored_warnings;  // the scene's own: a note about the cache is not kept
  if (u.store_in) stored_warnings = u.scene.warnings;
  // One warning about the cache at most, as above: when the lookup gave one, a store that fails
  // too (a folder that cannot be read cannot be written either) says nothing more.
  const bool warned = !u.notes.empty();
  if (warned) u.scene.warnings.push_back(std::move(u.notes.front()));
  LoadedScene out;
  out.scene = std::make_shared<const Scene>(std::move(u.scene));
  if (u.store_in) {
    std::shared_ptr<const CacheEntry> entry(std::move(u.store_in));
    out.cache_write = SceneCacheWrite([entry, scene = out.scene, warnings = std::move(stored_warnings), warned] {
      std::string failed = entry->store(*scene, warnings);
      return warned ? std::string() : failed;
    });
  }
  report(1.0f, "done");
  return out;
}

}  // namespace facet
